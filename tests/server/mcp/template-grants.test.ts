import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DIALECTS } from '../../support/dialects.ts';
import { startHttpTestServer } from '../../support/http-test-server.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { insertUserWithToken } from '../../support/project-rows.ts';
import { now } from '../../../src/server/lib/time.ts';

// The MCP tools call the routes in-process: a template whose grants leave out the token's user
// is no more visible to an assistant than to the user.

for (const dialect of DIALECTS) {
  describe(`MCP tools and template grants (${dialect})`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    const clients: Client[] = [];
    beforeAll(async () => { server = await startHttpTestServer(dialect); });
    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => undefined);
      await server.close();
    });

    async function toolText(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
      const result = await client.callTool({ name, arguments: args });
      return { isError: Boolean(result.isError), text: (result.content as { text: string }[]).map((part) => part.text).join('') };
    }

    it('list_templates and get_template show it only once the member is granted it', async () => {
      const { db } = server.s.deps;
      const fx = await insertProjectWithTemplate(db, { ownerId: 1, templateName: 'Secret rotation' });
      const user = await insertUserWithToken(db);
      await db.insertInto('project_user').values({ project_id: fx.project.id, user_id: user.id, role: 'task_runner', created: now() }).execute();
      await db.insertInto('template_grant').values({ template_id: fx.template.id, role: 'manager', user_id: null, can_run: 1 }).execute();
      const client = new Client({ name: 'grants-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: user.auth as Record<string, string> } }));
      clients.push(client);
      const args = { project_id: fx.project.id };
      expect(JSON.parse((await toolText(client, 'list_templates', args)).text)).toEqual([]);
      expect((await toolText(client, 'get_template', { ...args, template_id: fx.template.id })).isError).toBe(true);
      expect((await toolText(client, 'list_tasks', args)).text).not.toContain('Secret rotation');
      await db.insertInto('template_grant').values({ template_id: fx.template.id, role: 'task_runner', user_id: null, can_run: 0 }).execute();
      expect((await toolText(client, 'list_templates', args)).text).toContain('Secret rotation');
      expect((await toolText(client, 'get_template', { ...args, template_id: fx.template.id })).isError).toBe(false);
    });
  });
}
