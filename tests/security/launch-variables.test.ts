import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type World } from '../support/world.ts';
import { insertTemplate } from '../support/fixtures.ts';
import { startHttpTestServer } from '../support/http-test-server.ts';

const SURVEY = [
  { name: 'release', title: 'Release', type: 'string' },
  { name: 'replicas', title: 'Replicas', type: 'int' },
  { name: 'stage', title: 'Stage', type: 'enum', values: [{ name: 'Dev', value: 'dev' }, { name: 'Prod', value: 'prod' }] },
  { name: 'token', title: 'Token', type: 'secret' },
];

for (const dialect of DIALECTS) {
  describe(`launch-time variables from a task_runner (${dialect}, real HTTP)`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let w: World;
    let templateId = 0;
    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      w = await buildWorld(server.s.deps.db);
      templateId = (await insertTemplate(server.s.deps.db, w.projectId, { name: 'Surveyed', app: 'ansible', playbook: 'site.yml', survey_vars: JSON.stringify(SURVEY) })).id;
    });
    afterAll(async () => { await server.close(); });

    const run = async (who: 'task_runner' | 'manager' | 'owner', body: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/api/project/${w.projectId}/tasks`, {
        method: 'POST', headers: { ...w.auth[who], 'content-type': 'application/json' }, body: JSON.stringify({ template_id: templateId, ...body }),
      });
      return { status: res.status, body: (await res.json()) as { error?: string; id?: number } };
    };
    const taskCount = async () => (await server.s.deps.db.selectFrom('task').select('id').where('project_id', '=', w.projectId).execute()).length;

    it('refuses ansible_python_interpreter (a command run on the server) as an extra var, creating no task', async () => {
      const before = await taskCount();
      const res = await run('task_runner', { environment: JSON.stringify({ ansible_python_interpreter: 'touch /tmp/x; /usr/bin/python3' }) });
      expect(res).toEqual({ status: 400, body: { error: 'environment: "ansible_python_interpreter" is not a survey variable of this template' } });
      expect(await taskCount()).toBe(before);
    });

    it('refuses undeclared keys in secret too, and survey answers of the wrong kind', async () => {
      expect((await run('task_runner', { secret: JSON.stringify({ ansible_ssh_common_args: '-o ProxyCommand=id' }) })).body.error)
        .toBe('secret: "ansible_ssh_common_args" is not a survey variable of this template');
      expect((await run('task_runner', { environment: JSON.stringify({ replicas: '3; id' }) })).body.error).toBe('Replicas must be an integer');
      expect((await run('task_runner', { environment: JSON.stringify({ stage: 'staging' }) })).body.error).toBe('Stage must be one of: dev, prod');
    });

    it('accepts the survey variables from a task_runner, and free extra vars from managers and owners', async () => {
      const answered = await run('task_runner', { environment: JSON.stringify({ release: 'v2', replicas: '3', stage: 'prod' }), secret: JSON.stringify({ token: 's3' }) });
      expect(answered.status).toBe(201);
      expect((await run('manager', { environment: JSON.stringify({ ansible_python_interpreter: '/usr/bin/python3' }) })).status).toBe(201);
      expect((await run('owner', { environment: JSON.stringify({ anything: 1 }) })).status).toBe(201);
    });
  });
}
