import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIALECTS } from '../../support/dialects.ts';
import { startHttpTestServer } from '../../support/http-test-server.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { insertUserWithToken } from '../../support/project-rows.ts';
import { now } from '../../../src/server/lib/time.ts';

/** The MCP Inspector's command-line mode: a second MCP client, written by others than the SDK's client tests. */
const INSPECTOR = fileURLToPath(new URL('../../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js', import.meta.url));

function inspect(url: string, token: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [INSPECTOR, `${url}/api/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args],
      // its build folder as the working directory: it looks for its own package.json relative to it
      { timeout: 60_000, cwd: dirname(INSPECTOR), env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }));
  });
}

for (const dialect of DIALECTS) {
  describe(`MCP Inspector CLI against /api/mcp (${dialect})`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let projectId: number;
    let token: string;

    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      const db = server.s.deps.db;
      projectId = (await insertProjectWithTemplate(db, { ownerId: 1 })).project.id;
      await insertTemplate(db, projectId, { name: 'Restart web tier' });
      const user = await insertUserWithToken(db);
      await db.insertInto('project_user').values({ project_id: projectId, user_id: user.id, role: 'task_runner', created: now() }).execute();
      token = user.auth.authorization!.slice('Bearer '.length);
    }, 60_000);
    afterAll(async () => { await server?.close(); });

    it('lists the tools and calls one', async () => {
      const list = await inspect(server.url, token, ['--method', 'tools/list']);
      expect(list.code, list.stderr).toBe(0);
      const tools = JSON.parse(list.stdout).tools.map((t: { name: string }) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['list_templates', 'start_task', 'read_task_output']));

      const call = await inspect(server.url, token, ['--method', 'tools/call', '--tool-name', 'list_templates', '--tool-arg', `project_id=${projectId}`, '--tool-arg', 'search=web tier']);
      expect(call.code, call.stderr).toBe(0);
      const result = JSON.parse(call.stdout);
      expect(result.isError ?? false).toBe(false);
      expect(JSON.parse(result.content[0].text).map((t: { name: string }) => t.name)).toEqual(['Restart web tier']);
    });

    it('is refused without a valid token', async () => {
      const answer = await inspect(server.url, 'x'.repeat(44), ['--method', 'tools/list']);
      expect(answer.code).not.toBe(0);
      expect(answer.stdout).not.toContain('list_templates');
    });
  });
}
