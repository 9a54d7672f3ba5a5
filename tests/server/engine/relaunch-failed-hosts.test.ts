import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';

const INVENTORY = ['alpha', 'bravo', 'charlie'].map((h) => `${h} ansible_connection=local ansible_python_interpreter=/usr/bin/python3`).join('\n');

/** Fails on bravo only; every host says its name so the log shows where it ran. */
const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - name: say where
      debug:
        msg: "ran on {{ inventory_hostname }} with {{ colour }}"
    - name: break on bravo
      fail:
        msg: "bravo is broken"
      when: inventory_hostname == 'bravo'
`;

for (const dialect of DIALECTS) {
  describe(`relaunch on failed hosts with real ansible-playbook (${dialect})`, () => {
    let e: EngineServer;
    let base: string;
    let templateId: number;
    let first: number;
    const call = (method: string, path: string, body?: unknown) => e.s.call(method, `${base}${path}`, body, e.admin);
    const cleanLog = async (id: number) => (await taskLog(e.s.deps.db, id)).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));

    beforeAll(async () => {
      e = await startEngineServer(dialect);
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'site.yml': PLAYBOOK }, 'Add playbook');
      const fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, inventory: INVENTORY });
      templateId = (await insertTemplate(e.s.deps.db, fx.project.id, {
        name: 'Fleet', app: 'ansible', playbook: 'site.yml', repository_id: fx.repository.id, inventory_id: fx.inventory.id, environment_id: fx.environment.id,
      })).id;
      base = `/api/project/${fx.project.id}`;
      const res = await call('POST', '/tasks', { template_id: templateId, environment: '{"colour":"blue"}', message: 'nightly' });
      expect(res.status, res.text).toBe(201);
      first = res.body.id;
      const done = await waitForTask(e.s.deps.db, first, undefined, 120_000);
      expect(done.status, (await cleanLog(first)).join('\n')).toBe('error');
    }, 180_000);
    afterAll(async () => { await e.close(); });

    it('runs a new task with the same values on the failed host alone', async () => {
      const res = await call('POST', `/tasks/${first}/relaunch_failed`);
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ template_id: templateId, limit: 'bravo', message: 'nightly', environment: '{"colour":"blue"}' });
      const done = await waitForTask(e.s.deps.db, res.body.id, undefined, 120_000);
      const log = await cleanLog(res.body.id);
      expect(done.status, log.join('\n')).toBe('error');
      expect(log.some((l) => l.includes('ran on bravo with blue'))).toBe(true);
      expect(log.some((l) => /ran on (alpha|charlie)/.test(l))).toBe(false);
      const hosts = await call('GET', `/tasks/${res.body.id}/ansible/hosts`);
      expect(hosts.body.map((h: { host: string }) => h.host)).toEqual(['bravo']);
    });

    it('shows each host of the inventories in the Hosts view with its groups, last result per template and last seen', async () => {
      const extra = await call('POST', '/inventory', { name: 'Extra', type: 'static', inventory: '[edge]\ndelta\nalpha\n', ssh_key_id: (await call('GET', '/keys')).body[0].id });
      expect(extra.status, extra.text).toBe(201);
      const res = await call('GET', '/hosts');
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(4);
      expect(res.body.errors).toEqual([]);
      const byName = Object.fromEntries(res.body.hosts.map((h: { name: string }) => [h.name, h]));
      expect(Object.keys(byName)).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      expect(byName.alpha.groups).toEqual(['edge', 'ungrouped']);
      expect(byName.alpha.inventories.map((i: { name: string }) => i.name).sort()).toEqual(['Extra', 'Local']);
      expect(byName.alpha.results).toEqual([{ template_id: templateId, template_name: 'Fleet', task_id: first, result: 'ok', time: expect.any(String) }]);
      // bravo's last run of Fleet is the relaunch, which failed again
      expect(byName.bravo.results).toMatchObject([{ template_id: templateId, result: 'failed' }]);
      expect(byName.bravo.results[0].task_id).toBeGreaterThan(first);
      expect(byName.bravo.last_seen).toEqual(expect.any(String));
      expect(byName.delta).toMatchObject({ results: [], last_seen: null, groups: ['edge'] });
      const failed = await call('GET', '/hosts?result=failed');
      expect(failed.body.hosts.map((h: { name: string }) => h.name)).toEqual(['bravo']);
      const search = await call('GET', '/hosts?q=LT');
      expect(search.body.hosts.map((h: { name: string }) => h.name)).toEqual(['delta']);
      const page = await call('GET', '/hosts?offset=1&limit=2');
      expect(page.body).toMatchObject({ total: 4 });
      expect(page.body.hosts.map((h: { name: string }) => h.name)).toEqual(['bravo', 'charlie']);
      const one = await call('GET', `/hosts?inventory_id=${extra.body.id}`);
      expect(one.body.hosts.map((h: { name: string }) => h.name)).toEqual(['alpha', 'delta']);
      expect((await call('GET', '/hosts?result=purple')).status).toBe(400);
    });

    it('gives one host its groups, inventories, last result per template and newest runs, newest first', async () => {
      const bravo = await call('GET', '/hosts/bravo');
      expect(bravo.status, bravo.text).toBe(200);
      expect(bravo.body).toMatchObject({ name: 'bravo', groups: ['ungrouped'], inventories: [{ name: 'Local' }], errors: [] });
      expect(bravo.body.results).toMatchObject([{ template_id: templateId, result: 'failed' }]);
      expect(bravo.body.tasks.map((r: { result: string }) => r.result)).toEqual(['failed', 'failed']);
      expect(bravo.body.tasks[1]).toMatchObject({ task_id: first, template_name: 'Fleet' });
      expect(bravo.body.tasks[0].task_id).toBeGreaterThan(first);
      const delta = await call('GET', '/hosts/delta');
      expect(delta.body).toMatchObject({ groups: ['edge'], tasks: [], results: [] });
      expect((await call('GET', '/hosts/nowhere')).status).toBe(404);
    });

    it('refuses a task whose hosts all passed, and a task still running', async () => {
      const good = await e.s.deps.db.insertInto('task').values({
        project_id: (await e.s.deps.db.selectFrom('template').select('project_id').where('id', '=', templateId).executeTakeFirstOrThrow()).project_id,
        template_id: templateId, status: 'success', user_id: null, integration_id: null, schedule_id: null, build_task_id: null, inventory_id: null,
        playbook: '', environment: '{}', arguments: null, git_branch: null, message: '', commit_hash: null, commit_message: '', version: null, params: '{}',
        created: new Date().toISOString(), start: null, end: null, locked_by: null,
      }).returning('id').executeTakeFirstOrThrow();
      const none = await call('POST', `/tasks/${good.id}/relaunch_failed`);
      expect(none.status).toBe(400);
      expect(none.body.error).toContain('no host failed or was unreachable');
      await e.s.deps.db.updateTable('task').set({ status: 'waiting' }).where('id', '=', good.id).execute();
      const waiting = await call('POST', `/tasks/${good.id}/relaunch_failed`);
      expect(waiting.status).toBe(400);
      expect(waiting.body.error).toContain('has not finished');
      await e.s.deps.db.updateTable('task').set({ status: 'success' }).where('id', '=', good.id).execute();
    });

    it('refuses a recorded host name that Ansible would read as a pattern', async () => {
      const projectId = Number(base.split('/').pop());
      await e.s.deps.db.insertInto('task_ansible_host').values({
        task_id: first, project_id: projectId, host: 'web*', ok: 0, changed: 0, unreachable: 1, failed: 0, skipped: 0, rescued: 0, ignored: 0, created: new Date().toISOString(),
      }).execute();
      const res = await call('POST', `/tasks/${first}/relaunch_failed`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('"web*" would not be read by Ansible as one host');
      await e.s.deps.db.deleteFrom('task_ansible_host').where('host', '=', 'web*').execute();
    });
  });
}
