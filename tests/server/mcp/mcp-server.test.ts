import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { DIALECTS } from '../../support/dialects.ts';
import { startHttpEngineServer } from '../../support/http-test-server.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { insertUserWithToken } from '../../support/project-rows.ts';
import { insertWorkflowRows } from '../../support/workflow-rows.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { pollUntil } from '../../support/poll.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';
import { now } from '../../../src/server/lib/time.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Fails on purpose after echoing the survey answer, so the summary has a failed task that names it. */
const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - name: greet
      debug:
        msg: "hello {{ greeting }}"
    - name: break on purpose
      fail:
        msg: "stopped by {{ greeting }}"
`;

const SURVEY = JSON.stringify([{ name: 'greeting', title: 'Greeting', type: 'string', required: true }]);

type Via = 'http' | 'stdio';

/** An MCP client of the SDK, over HTTP or through `signalbox mcp` (a real child process). */
async function connect(url: string, token: string | null, via: Via): Promise<Client> {
  let transport: Transport;
  if (via === 'http') {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    transport = new StreamableHTTPClientTransport(new URL(`${url}/api/mcp`), { requestInit: { headers } });
  } else {
    transport = new StdioClientTransport({
      command: process.execPath, args: ['src/server/cli/main.ts', 'mcp', '--url', url], cwd: ROOT, stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SIGNALBOX_MCP_TOKEN: token ?? '' },
    });
  }
  const client = new Client({ name: 'signalbox-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

interface ToolAnswer { isError: boolean; text: string; json: any }

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[]).map((part) => part.text).join('');
  let json: unknown;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { isError: Boolean(result.isError), text, json };
}

for (const dialect of DIALECTS) {
  describe(`MCP server (${dialect})`, () => {
    let server: Awaited<ReturnType<typeof startHttpEngineServer>>;
    let projectId: number;
    let templateId: number;
    let deployTemplateId: number;
    const tokens: Record<'writer' | 'reader' | 'guest' | 'stranger', string> = { writer: '', reader: '', guest: '', stranger: '' };
    const clients: Client[] = [];
    const open = async (who: keyof typeof tokens, via: Via) => {
      const client = await connect(server.url, tokens[who], via);
      clients.push(client);
      return client;
    };

    /** A user with `role` in `project`, and a token made through the API with or without write rights. */
    async function member(project: number, role: string, allowWrites: boolean): Promise<{ id: number; token: string }> {
      const user = await insertUserWithToken(server.s.deps.db);
      await server.s.deps.db.insertInto('project_user').values({ project_id: project, user_id: user.id, role, created: now() }).execute();
      const made = await server.s.call('POST', '/api/user/tokens', { name: 'assistant', allow_write_operations: allowWrites }, user.auth);
      expect(made.status, made.text).toBe(201);
      expect(made.body.allow_write_operations).toBe(allowWrites);
      return { id: user.id, token: made.body.id };
    }

    beforeAll(async () => {
      server = await startHttpEngineServer(dialect);
      const db = server.s.deps.db;
      const repo = createGitRepo(join(server.s.tmp, 'repo'), { 'site.yml': PLAYBOOK, 'run.sh': 'echo deployed\n' }, 'Add playbook');
      const fx = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: `file://${repo.path}` });
      projectId = fx.project.id;
      const common = { repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id };
      templateId = (await insertTemplate(db, projectId, { name: 'Restart web tier', app: 'ansible', playbook: 'site.yml', survey_vars: SURVEY, ...common })).id;
      deployTemplateId = (await insertTemplate(db, projectId, { name: 'Deploy', app: 'bash', playbook: 'run.sh', ...common })).id;
      tokens.writer = (await member(projectId, 'owner', true)).token;
      tokens.reader = (await member(projectId, 'owner', false)).token;
      tokens.guest = (await member(projectId, 'guest', true)).token;
      const other = await insertProjectWithTemplate(db, { ownerId: 1 });
      tokens.stranger = (await member(other.project.id, 'owner', true)).token;
    }, 60_000);

    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => undefined);
      await server?.close();
    });

    it('lists its tokens with the write flag the API was given', async () => {
      const user = await insertUserWithToken(server.s.deps.db);
      await server.s.call('POST', '/api/user/tokens', { name: 'rw', allow_write_operations: true }, user.auth);
      await server.s.call('POST', '/api/user/tokens', { name: 'ro' }, user.auth);
      const list = await server.s.call('GET', '/api/user/tokens', undefined, user.auth);
      const byName = Object.fromEntries(list.body.map((t: { name: string; allow_write_operations: boolean }) => [t.name, t.allow_write_operations]));
      expect(byName).toMatchObject({ rw: true, ro: false });
      const bad = await server.s.call('POST', '/api/user/tokens', { allow_write_operations: 'yes' }, user.auth);
      expect(bad.status).toBe(400);
    });

    for (const via of ['http', 'stdio'] as const) {
      it(`finds a template, starts it with a survey answer, follows it to the end and reads its failed task (${via})`, async () => {
        const client = await open('writer', via);
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toEqual(expect.arrayContaining(['list_projects', 'list_templates', 'get_template', 'start_task', 'get_task_summary', 'read_task_output', 'decide_approval']));
        const startTool = (await client.listTools()).tools.find((t) => t.name === 'start_task')!;
        expect(Object.keys(startTool.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['project_id', 'template_id', 'environment', 'git_branch']));

        const projects = await call(client, 'list_projects');
        expect(projects.json.map((p: { id: number }) => p.id)).toContain(projectId);
        const found = await call(client, 'list_templates', { project_id: projectId, search: 'restart' });
        expect(found.json.map((t: { name: string }) => t.name)).toEqual(['Restart web tier']);
        const template = await call(client, 'get_template', { project_id: projectId, template_id: found.json[0].id });
        expect(template.json.survey_vars.map((v: { name: string }) => v.name)).toEqual(['greeting']);
        expect(template.json.start_may_override).toMatchObject({ branch: false, inventory: false });

        const refused = await call(client, 'start_task', { project_id: projectId, template_id: templateId });
        expect(refused.isError).toBe(true);
        expect(refused.text).toMatch(/Greeting is required/);

        const started = await call(client, 'start_task', { project_id: projectId, template_id: templateId, environment: { greeting: `mcp-${via}` } });
        expect(started.isError, started.text).toBe(false);
        const taskId = started.json.id;
        const done = await pollUntil(() => call(client, 'get_task', { project_id: projectId, task_id: taskId }),
          (answer) => ['success', 'error', 'stopped'].includes(answer.json?.status), 120_000);
        expect(done.json.status).toBe('error');

        const summary = await call(client, 'get_task_summary', { project_id: projectId, task_id: taskId });
        expect(summary.json.failed_tasks.map((f: { task: string; error: string }) => [f.task, f.error])).toEqual([['break on purpose', `stopped by mcp-${via}`]]);
        expect(summary.json.hosts.map((h: { host: string; failed: number }) => [h.host, h.failed])).toEqual([['localhost', 1]]);
        expect(summary.json.stages.length).toBeGreaterThan(0);

        const tail = await call(client, 'read_task_output', { project_id: projectId, task_id: taskId, tail: 5 });
        expect(tail.json.lines).toHaveLength(5);
        expect(tail.json.lines.at(-1).line).toBe(tail.json.total_lines);
        const head = await call(client, 'read_task_output', { project_id: projectId, task_id: taskId, offset: 0, limit: 1 });
        expect(head.json.lines[0]).toMatchObject({ line: 1, output: `Started: ${taskId}` });
        const hits = await call(client, 'search_task_output', { project_id: projectId, task_id: taskId, q: `hello mcp-${via}` });
        expect(hits.json.matches.length).toBeGreaterThan(0);

        const resource = await client.readResource({ uri: `signalbox://projects/${projectId}/tasks/${taskId}/lines/1/2` });
        expect((resource.contents[0] as { text: string }).text.split('\n')).toEqual([`Started: ${taskId}`, expect.any(String)]);
      }, 180_000);
    }

    it('lists a pending workflow gate and approves it with a comment', async () => {
      const wf = await insertWorkflowRows(server.s.deps.db, projectId, deployTemplateId);
      const client = await open('writer', 'http');
      const pending = await call(client, 'list_pending_approvals', { project_id: projectId });
      const gate = pending.json.workflow_gates.find((g: { workflow_run_id: number }) => g.workflow_run_id === wf.workflowRun);
      expect(gate).toMatchObject({ workflow_id: wf.workflow, workflow_node_id: wf.workflowNode, status: 'pending' });
      const decided = await call(client, 'decide_approval', {
        project_id: projectId, workflow_id: wf.workflow, run_id: wf.workflowRun, node_id: wf.workflowNode, status: 'approved', comment: 'looks good',
      });
      expect(decided.isError, decided.text).toBe(false);
      expect(decided.json).toMatchObject({ status: 'approved', comment: 'looks good' });
      const row = await server.s.deps.db.selectFrom('workflow_approval').selectAll().where('run_id', '=', wf.workflowRun).executeTakeFirstOrThrow();
      expect(row.status).toBe('approved');
      const after = await call(client, 'list_pending_approvals', { project_id: projectId });
      expect(after.json.workflow_gates.some((g: { workflow_run_id: number }) => g.workflow_run_id === wf.workflowRun)).toBe(false);
    });

    it("refuses a read-only token's start with a clear error, and starts nothing", async () => {
      const client = await open('reader', 'http');
      const before = await server.s.deps.db.selectFrom('task').select('id').execute();
      const answer = await call(client, 'start_task', { project_id: projectId, template_id: deployTemplateId });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/read-only.*allow_write_operations/);
      expect(await server.s.deps.db.selectFrom('task').select('id').execute()).toHaveLength(before.length);
      expect((await call(client, 'list_templates', { project_id: projectId })).isError).toBe(false);
    });

    it("lets a guest's assistant read but never start, even with a write token (stdio)", async () => {
      const client = await open('guest', 'stdio');
      const templates = (await call(client, 'list_templates', { project_id: projectId })).json.map((t: { name: string }) => t.name);
      expect(templates).toEqual(expect.arrayContaining(['Restart web tier', 'Deploy']));
      expect((await call(client, 'list_tasks', { project_id: projectId, status: 'error' })).isError).toBe(false);
      const answer = await call(client, 'start_task', { project_id: projectId, template_id: deployTemplateId });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/may not/);
      const stop = await call(client, 'stop_task', { project_id: projectId, task_id: 1 });
      expect(stop.isError).toBe(true);
    });

    it("shows another project's member nothing of this project", async () => {
      const client = await open('stranger', 'http');
      const projects = await call(client, 'list_projects');
      expect(projects.json.map((p: { id: number }) => p.id)).not.toContain(projectId);
      for (const [tool, args] of [
        ['list_templates', {}], ['list_tasks', {}], ['list_schedules', {}], ['list_inventories', {}], ['list_pending_approvals', {}],
        ['get_template', { template_id: templateId }], ['start_task', { template_id: templateId }],
      ] as const) {
        const answer = await call(client, tool, { project_id: projectId, ...args });
        expect(answer.isError, tool).toBe(true);
        expect(answer.text, tool).toMatch(/not found/);
        expect(answer.text, tool).not.toMatch(/Restart web tier/);
      }
      await expect(client.readResource({ uri: `signalbox://projects/${projectId}/templates/${templateId}` })).rejects.toThrow();
    });

    it('answers 401 without a token, and the SDK client cannot connect', async () => {
      const res = await fetch(`${server.url}/api/mcp`, {
        method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      await expect(connect(server.url, null, 'http')).rejects.toThrow();
      await expect(connect(server.url, 'not-a-token', 'http')).rejects.toThrow();
    });

    it('counts a body\'s keys before parsing it, as every API body: 100,001 keys is 413, and a malformed body a JSON-RPC parse error', async () => {
      const headers = { authorization: `Bearer ${tokens.reader}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const params = Object.fromEntries(Array.from({ length: 100_001 }, (_, i) => [`k${i}`, 1]));
      const big = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params }) });
      expect(big.status).toBe(413);
      expect(((await big.json()) as { error: string }).error).toMatch(/more than 100000 keys/);
      const malformed = await fetch(`${server.url}/api/mcp`, { method: 'POST', headers, body: '{"jsonrpc": "2.0", ' });
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    });

    it('throttles write calls per token after a burst, and leaves reads and other tokens alone', async () => {
      const fresh = await member(projectId, 'owner', true);
      const client = await connect(server.url, fresh.token, 'http');
      clients.push(client);
      let accepted = 0;
      let refusal = '';
      // a refill of one call in five seconds: the burst runs out long before that many seconds pass
      for (let i = 0; i < 40 && !refusal; i++) {
        const answer = await call(client, 'stop_task', { project_id: projectId, task_id: 999_999 });
        if (/too many write calls/.test(answer.text)) refusal = answer.text;
        else accepted++;
      }
      expect(refusal).toMatch(/try again in \d+ s/);
      expect(accepted).toBeGreaterThanOrEqual(10);
      expect((await call(client, 'list_projects')).isError).toBe(false);
      const other = await open('writer', 'http');
      expect((await call(other, 'stop_task', { project_id: projectId, task_id: 999_999 })).text).toMatch(/not found/);
    });

    it('records every tool call in the audit trail with the token prefix, the tool and the outcome', async () => {
      const client = await open('reader', 'http');
      await settleAuditInbox(server.s.deps.db);
      const last = await server.s.deps.db.selectFrom('audit').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
      await call(client, 'list_templates', { project_id: projectId });
      await call(client, 'start_task', { project_id: projectId, template_id: deployTemplateId });
      await settleAuditInbox(server.s.deps.db);
      const rows = await server.s.deps.db.selectFrom('audit').selectAll().where('action', '=', 'mcp_tool_call')
        .where('actor_token', '=', tokens.reader.slice(0, 8)).where('id', '>', Number(last.id ?? 0)).orderBy('id').execute();
      expect(rows.map((r) => [r.object_name, r.description.split(':')[0], r.project_id])).toEqual([
        ['list_templates', 'ok', projectId],
        ['start_task', 'refused', projectId],
      ]);
    });
  });
}
