import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { DIALECTS } from '../../support/dialects.ts';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { buildWorld, type World } from '../../support/world.ts';
import type { BusMessage } from '../../../src/server/events/event-bus.ts';

// Jinja in the answer: marked unsafe it is printed as given (and masked); templated it would print 42-…
const PIN = '{{ 6 * 7 }}-pin-7731';
const REVERSED = [...PIN].reverse().join('');
const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - debug:
        msg: "pin={{ pin }} reversed={{ pin | reverse }} stage={{ stage }}"
`;
const SURVEY = [
  { name: 'pin', title: 'PIN', type: '', required: true, do_not_store: true },
  { name: 'stage', title: 'Stage', type: '' },
];

for (const dialect of DIALECTS) {
  describe(`a survey answer marked do_not_store is used for the run and kept nowhere (${dialect}, real ansible-playbook)`, () => {
    let e: EngineServer;
    let w: World;
    let templateId = 0;
    let repository = 0;
    const live: BusMessage[] = [];
    const api = async (method: string, path: string, body: unknown, who: keyof World['auth'] = 'owner', status = 200) => {
      const res = await e.s.call(method, `/api/project/${w.projectId}${path}`, body, w.auth[who]);
      expect(res.status, res.text).toBe(status);
      return res;
    };

    beforeAll(async () => {
      e = await startEngineServer(dialect);
      e.s.deps.bus.subscribe((m) => live.push(m));
      w = await buildWorld(e.s.deps.db);
      const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'site.yml': PLAYBOOK });
      const key = (await api('POST', '/keys', { name: 'None', type: 'none', project_id: w.projectId }, 'owner', 201)).body.id;
      repository = (await api('POST', '/repositories', { name: 'Repo', git_url: `file://${repo.path}`, git_branch: 'main', ssh_key_id: key, project_id: w.projectId }, 'owner', 201)).body.id;
      const inventory = (await api('POST', '/inventory', { name: 'Local', type: 'static', inventory: 'localhost ansible_connection=local', ssh_key_id: key, project_id: w.projectId }, 'owner', 201)).body.id;
      const environment = (await api('POST', '/environment', { name: 'Empty', json: '{}', project_id: w.projectId }, 'owner', 201)).body.id;
      templateId = (await api('POST', '/templates', {
        name: 'Unlock', app: 'ansible', playbook: 'site.yml', project_id: w.projectId, repository_id: repository, inventory_id: inventory, environment_id: environment, survey_vars: SURVEY,
      }, 'owner', 201)).body.id;
    });
    afterAll(async () => { await e.close(); });

    it('keeps the flag on the template', async () => {
      const template = (await api('GET', `/templates/${templateId}`, undefined)).body;
      expect(template.survey_vars.map((v: { name: string; do_not_store?: boolean }) => [v.name, v.do_not_store ?? false])).toEqual([['pin', true], ['stage', false]]);
    });

    it('still requires the answer of a required variable', async () => {
      expect((await api('POST', '/tasks', { template_id: templateId, environment: JSON.stringify({ stage: 'qa' }) }, 'task_runner', 400)).body).toEqual({ error: 'PIN is required' });
    });

    it('hands the answer to the run marked unsafe and masked, and stores it in no table, response, backup or live message', async () => {
      const created = await api('POST', '/tasks', { template_id: templateId, environment: JSON.stringify({ pin: PIN, stage: 'qa' }) }, 'task_runner', 201);
      const id = created.body.id as number;
      const done = await waitForTask(e.s.deps.db, id, undefined, 90_000);
      const log = (await taskLog(e.s.deps.db, id)).join('\n');
      expect(done.status, log).toBe('success');
      // reached the run (its reverse is readable), as data (no 42), masked where printed whole
      expect(log).toContain(`reversed=${REVERSED.replaceAll('"', '\\"')}`);
      expect(log).toContain('pin=********');
      expect(log).not.toContain('42-pin');
      expect(JSON.parse(done.environment)).toEqual({ stage: 'qa' });

      const responses = await Promise.all([
        `/tasks/${id}`, '/tasks', `/tasks/${id}/output`, `/tasks/${id}/raw_output`, `/templates/${templateId}/tasks`, '/backup', '/events',
      ].map(async (path) => (await api('GET', path, undefined)).text));
      expect(responses[0]).toContain('"stage');
      for (const text of [created.text, ...responses, JSON.stringify(live)]) expect(text).not.toContain('pin-7731');

      for (const table of await e.s.deps.db.introspection.getTables()) {
        const rows = await e.s.deps.db.selectFrom(table.name as 'task').selectAll().execute();
        expect(JSON.stringify(rows), table.name).not.toContain('pin-7731');
      }
    });

    it('holds an answer named __proto__ as its own value, never as the prototype of what is stored', async () => {
      const proto = (await api('POST', '/templates', {
        name: 'Proto', app: 'bash', playbook: 'site.yml', project_id: w.projectId, repository_id: repository, survey_vars: [{ name: '__proto__', title: 'Odd', type: '', required: true, do_not_store: true }],
      }, 'owner', 201)).body.id;
      const created = await api('POST', '/tasks', { template_id: proto, environment: '{"__proto__":"odd-7731"}' }, 'task_runner', 201);
      const row = await e.s.deps.db.selectFrom('task').select('environment').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      expect(row.environment).toBe('{}');
      await waitForTask(e.s.deps.db, created.body.id, undefined, 90_000);
    });
  });
}
