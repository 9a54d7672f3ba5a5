import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { listenOnLoopback } from '../../support/listen.ts';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const lockInfo = (id: string) => JSON.stringify({ ID: id, Operation: 'OperationTypeApply', Info: '', Who: 'someone@elsewhere', Version: '1.9.0', Created: new Date().toISOString(), Path: '' });

for (const dialect of DIALECTS) {
  describe(`terraform HTTP state backend (${dialect})`, () => {
    let e: EngineServer;
    let stopListening: () => Promise<void>;
    let f: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let workspaceId: number;
    let templateId: number;
    let tofuTemplateId: number;
    let holdFile: string;
    const base = () => `/api/project/${f.project.id}/inventory/${workspaceId}/terraform`;
    const run = async (template = templateId) => {
      const res = await e.s.call('POST', `/api/project/${f.project.id}/tasks`, { template_id: template, params: { auto_approve: true } }, e.admin);
      expect(res.status, res.text).toBe(201);
      return res.body.id as number;
    };
    const backend = async (method: string, url: string, body?: string, headers: Record<string, string> = {}) => {
      const res = await fetch(url, { method, body, headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers } });
      return { status: res.status, text: await res.text() };
    };

    beforeAll(async () => {
      process.env.PATH = `${join(import.meta.dirname, '../../fakes')}:${process.env.PATH}`;
      e = await startEngineServer(dialect);
      holdFile = join(e.s.tmp, 'release-apply');
      e.s.config.env_vars = { FAKE_TF_LOG: join(e.s.tmp, 'tf.log'), FAKE_TF_HOLD_FILE: holdFile };
      stopListening = await listenOnLoopback(e.s);
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'infra/main.tf': 'terraform {\n  backend "http" {}\n}\n' });
      f = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}` });
      const workspace = await e.s.call('POST', `/api/project/${f.project.id}/inventory`, { name: 'ws', type: 'terraform-workspace', inventory: 'default', project_id: f.project.id, ssh_key_id: f.key.id }, e.admin);
      expect(workspace.status, workspace.text).toBe(201);
      workspaceId = workspace.body.id;
      const tpl = await insertTemplate(e.s.deps.db, f.project.id, {
        name: 'infra', app: 'terraform', playbook: 'infra', repository_id: f.repository.id, inventory_id: workspaceId,
        allow_parallel_tasks: 1, task_params: JSON.stringify({ allow_auto_approve: true }),
      });
      templateId = tpl.id;
      tofuTemplateId = (await insertTemplate(e.s.deps.db, f.project.id, {
        name: 'infra (tofu)', app: 'tofu', playbook: 'infra', repository_id: f.repository.id, inventory_id: workspaceId, task_params: JSON.stringify({ allow_auto_approve: true }),
      })).id;
    });
    afterAll(async () => {
      await stopListening();
      await e.close();
    });

    it('runs terraform and tofu against its own backend: lock, read, write, unlock; a second apply meets the lock', async () => {
      const first = await run();
      // The first apply holds the lock until the test releases it.
      const deadline = Date.now() + 30_000;
      const applyLock = () => e.s.deps.db.selectFrom('terraform_lock').select('info').where('inventory_id', '=', workspaceId).executeTakeFirst();
      while (!(await applyLock())?.info.includes('OperationTypeApply')) {
        if (Date.now() > deadline) throw new Error(`no apply lock; log:\n${(await taskLog(e.s.deps.db, first)).join('\n')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      const second = await run();
      const blocked = await waitForTask(e.s.deps.db, second);
      const blockedLog = (await taskLog(e.s.deps.db, second)).join('\n');
      expect(blocked.status, blockedLog).toBe('error');
      expect(blockedLog).toContain('Error: Error acquiring the state lock');
      expect(blockedLog).toContain('Operation: OperationTypeApply');

      writeFileSync(holdFile, '');
      const done = await waitForTask(e.s.deps.db, first);
      const log = await taskLog(e.s.deps.db, first);
      expect(done.status, log.join('\n')).toBe('success');
      expect(log).toContain('No existing state.');
      expect(log).toContain('Saved state serial 1.');
      expect(await e.s.deps.db.selectFrom('terraform_lock').selectAll().execute()).toEqual([]);

      // OpenTofu speaks the same backend protocol and continues the same state.
      const third = await run(tofuTemplateId);
      expect((await waitForTask(e.s.deps.db, third)).status).toBe('success');
      expect(await taskLog(e.s.deps.db, third)).toContain('Refreshing state... (serial 1)');

      const states = await e.s.call('GET', `${base()}/states`, undefined, e.admin);
      expect(states.status).toBe(200);
      expect(states.body.map((s: { task_id: number; status: string }) => [s.task_id, s.status])).toEqual([[third, 'success'], [first, 'success']]);
      const latest = await e.s.call('GET', `${base()}/states/${states.body[0].id}`, undefined, e.admin);
      const older = JSON.parse((await e.s.call('GET', `${base()}/states/${states.body[1].id}`, undefined, e.admin)).body.state);
      expect(JSON.parse(latest.body.state)).toMatchObject({ serial: 2, lineage: older.lineage });
      expect((await e.s.call('GET', `${base()}/states/latest`, undefined, e.admin)).body.id).toBe(states.body[0].id);
    }, 120_000);

    it('gives the workspace an alias and lets a key holder use the protocol; conflicts name the holder', async () => {
      const aliases = await e.s.call('GET', `${base()}/aliases`, undefined, e.admin);
      expect(aliases.body).toHaveLength(1);
      expect(aliases.body[0].url).toMatch(new RegExp(`^${e.s.config.web_host}/api/terraform/[a-z0-9]{16}$`));
      const key = await e.s.call('POST', `/api/project/${f.project.id}/keys`, { name: 'tf', type: 'login_password', project_id: f.project.id, login_password: { login: 'ci', password: 'state-pass-1' } }, e.admin);
      expect(key.status, key.text).toBe(201);
      const created = await e.s.call('POST', `${base()}/aliases`, { auth_key_id: key.body.id }, e.admin);
      expect(created.status, created.text).toBe(200);
      expect(created.body.auth_key_id).toBe(key.body.id);
      const url: string = created.body.url;
      const auth = basic('ci', 'state-pass-1');

      expect((await backend('GET', url)).status).toBe(401);
      expect((await backend('GET', url, undefined, basic('ci', 'wrong'))).status).toBe(403);
      const read = await backend('GET', url, undefined, auth);
      expect(read.status).toBe(200);
      expect(JSON.parse(read.text).serial).toBe(2);

      expect((await backend('LOCK', url, lockInfo('mine'), auth)).status).toBe(200);
      const conflict = await backend('LOCK', url, lockInfo('theirs'), auth);
      expect(conflict.status).toBe(423);
      expect(JSON.parse(conflict.text).ID).toBe('mine');
      expect((await backend('POST', url, JSON.stringify({ serial: 9 }), auth)).status).toBe(409);
      expect((await backend('POST', `${url}?ID=theirs`, JSON.stringify({ serial: 9 }), auth)).status).toBe(409);
      expect((await backend('POST', `${url}?ID=mine`, 'not json', auth)).status).toBe(400);
      expect((await backend('POST', `${url}?ID=mine`, JSON.stringify({ version: 4, serial: 3 }), auth)).status).toBe(200);
      expect((await backend('UNLOCK', url, lockInfo('theirs'), auth)).status).toBe(409);
      expect((await backend('UNLOCK', url, lockInfo('mine'), auth)).status).toBe(200);
      const states = await e.s.call('GET', `${base()}/states`, undefined, e.admin);
      expect(states.body[0]).toMatchObject({ task_id: null, status: null });

      // A task's credentials stop working once the task has finished.
      const { taskStateCredentials } = await import('../../../src/server/domain/terraform/task-state-credentials.ts');
      const finished = states.body[1].task_id as number;
      const stale = taskStateCredentials(e.s.deps.secrets, finished, workspaceId);
      expect((await backend('GET', url, undefined, basic(stale.user, stale.password))).status).toBe(403);
      expect((await backend('GET', url, undefined, basic(`task-${finished}`, 'forged'))).status).toBe(403);

      // A key whose text is not JSON (written by hand, or by an old tool) refuses, it does not fail.
      await e.s.deps.db.updateTable('access_key').set({ secret: e.s.deps.secrets.seal('ci:state-pass-1') }).where('id', '=', key.body.id).execute();
      expect((await backend('GET', url, undefined, auth)).status).toBe(403);
    });

    it('manages aliases and state versions, refusing other inventories and bad keys', async () => {
      expect((await e.s.call('GET', `/api/project/${f.project.id}/inventory/${f.inventory.id}/terraform/aliases`, undefined, e.admin)).status).toBe(400);
      expect((await e.s.call('POST', `${base()}/aliases`, { auth_key_id: f.key.id }, e.admin)).body).toEqual({ error: 'auth_key_id: must be a login_password key' });
      expect((await e.s.call('POST', `${base()}/aliases`, { auth_key_id: 'x' }, e.admin)).status).toBe(400);
      const alias = (await e.s.call('POST', `${base()}/aliases`, {}, e.admin)).body;
      expect(alias.auth_key_id).toBeNull();
      expect((await e.s.call('PUT', `${base()}/aliases/${alias.id}`, { auth_key_id: 999999 }, e.admin)).status).toBe(400);
      expect((await e.s.call('DELETE', `${base()}/aliases/${alias.id}`, undefined, e.admin)).status).toBe(204);
      expect((await e.s.call('GET', `${base()}/aliases/${alias.id}`, undefined, e.admin)).status).toBe(404);
      expect((await backend('GET', alias.url, undefined, basic('a', 'b'))).status).toBe(404);
      const states = (await e.s.call('GET', `${base()}/states`, undefined, e.admin)).body;
      expect((await e.s.call('DELETE', `${base()}/states/${states[0].id}`, undefined, e.admin)).status).toBe(204);
      expect((await e.s.call('GET', `${base()}/states/${states[0].id}`, undefined, e.admin)).status).toBe(404);
      expect((await e.s.call('GET', `${base()}/states`, undefined, e.admin)).body).toHaveLength(states.length - 1);
    });
  });
}
