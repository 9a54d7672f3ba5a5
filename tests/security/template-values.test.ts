import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { DIALECTS } from '../support/dialects.ts';
import { buildWorld, type Caller, type World } from '../support/world.ts';
import { insertTemplate } from '../support/fixtures.ts';
import { insertLocalAnsibleTemplate, postTask } from '../support/local-ansible.ts';
import { insertIntegration } from '../support/trigger-fixtures.ts';
import { startHttpEngineServer } from '../support/http-test-server.ts';
import { taskLog, waitForTask } from '../support/engine.ts';

/** What an attacker types where a value is expected: Jinja that runs `id` on the server. */
const PAYLOAD = "{{ lookup('pipe','id') }}";

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - debug: msg="Deploying version {{ version | default('none') }}"
    - debug: msg="Message {{ semaphore_vars.task_details.message | default('none') }}"
    - debug: msg="Token {{ token | default('none') }}"
`;

/** An input of type `any`: a `-var` value for it is parsed as an expression, a JSON var-file's string is a string. */
const TERRAFORM = `variable "release" {
  type = any
}
output "release" {
  value = var.release
}
`;
const TF_PAYLOAD = '${file("/etc/hostname")}';

/** Terraform cannot be installed everywhere; where the machine has the real one, it is the judge. */
const hasTerraform = spawnSync('terraform', ['version'], { stdio: 'ignore' }).status === 0;
if (!hasTerraform) console.warn('\n*** terraform is not on PATH: the real-terraform value test is SKIPPED ***\n');

const SURVEY = [
  { name: 'version', title: 'Version', type: 'string' },
  { name: 'token', title: 'Token', type: 'secret' },
];

for (const dialect of DIALECTS) {
  describe(`values from callers who may not edit the template never become code (${dialect}, real ansible-playbook)`, () => {
    let server: Awaited<ReturnType<typeof startHttpEngineServer>>;
    let w: World;
    let templateId = 0;
    let terraformId = 0;

    beforeAll(async () => {
      server = await startHttpEngineServer(dialect);
      const { db } = server.s.deps;
      w = await buildWorld(db);
      const deploy = await insertLocalAnsibleTemplate(db, w.projectId, join(server.s.tmp, `repo-${w.projectId}`), { 'site.yml': PLAYBOOK, 'infra/main.tf': TERRAFORM }, {
        survey_vars: JSON.stringify(SURVEY), allow_override_args_in_task: 1, task_params: JSON.stringify({ allow_override_limit: true }),
      });
      templateId = deploy.templateId;
      terraformId = (await insertTemplate(db, w.projectId, {
        name: 'Infra', app: 'terraform', playbook: 'infra', repository_id: deploy.repositoryId, environment_id: deploy.environmentId,
        survey_vars: JSON.stringify([{ name: 'release', title: 'Release', type: 'string' }]),
      })).id;
    }, 60_000);
    afterAll(() => server.close());

    const post = (who: Caller, body: Record<string, unknown>) => postTask(server.url, w, who, { template_id: templateId, ...body });
    /** The finished task's log, without colour codes. */
    const logOf = async (taskId: number) => {
      const done = await waitForTask(server.s.deps.db, taskId, undefined, 120_000);
      const log = (await taskLog(server.s.deps.db, taskId)).map((l) => l.replace(/\x1b\[[0-9;]*m/g, '')).join('\n');
      expect(done.status, log).toBe('success');
      return log;
    };
    const taskCount = async () => (await server.s.deps.db.selectFrom('task').select('id').where('project_id', '=', w.projectId).execute()).length;

    it('prints a task_runner\'s survey value, secret and message literally: no command runs', async () => {
      const res = await post('task_runner', { environment: JSON.stringify({ version: PAYLOAD }), secret: JSON.stringify({ token: `s3 ${PAYLOAD}` }), message: PAYLOAD });
      expect(res.status).toBe(201);
      const log = await logOf(res.body.id!);
      expect(log).toContain(`"msg": "Deploying version ${PAYLOAD}"`);
      expect(log).toContain(`"msg": "Message ${PAYLOAD}"`);
      // the secret itself is masked in the log; evaluated, it would have printed the output of `id`
      expect(log).toContain('"msg": "Token ');
      expect(log).not.toContain('uid=');
    }, 150_000);

    it('prints values a webhook extracts literally, whoever sends them', async () => {
      const { integration, alias } = await insertIntegration(server.s, w.projectId, templateId, {
        name: 'Push', values: [
          { value_source: 'body', key: 'head_commit.message', variable: 'version' },
          { value_source: 'body', key: 'head_commit.message', variable: 'message', variable_type: 'task' },
        ],
      });
      const res = await fetch(`${server.url}/api/integrations/${alias}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ head_commit: { message: PAYLOAD } }),
      });
      expect(res.status).toBe(204);
      const delivery = await server.s.deps.db.selectFrom('integration_delivery').selectAll().where('integration_id', '=', integration.id).executeTakeFirstOrThrow();
      expect(delivery.reason).toBe('matched');
      const log = await logOf(delivery.task_id!);
      expect(log).toContain(`"msg": "Deploying version ${PAYLOAD}"`);
      expect(log).toContain(`"msg": "Message ${PAYLOAD}"`);
      expect(log).not.toContain('uid=');
    }, 150_000);

    it('still templates the values of someone who may edit the template, as before', async () => {
      const res = await post('manager', { environment: JSON.stringify({ version: '{{ 6 * 7 }}' }) });
      expect(res.status).toBe(201);
      const log = await logOf(res.body.id!);
      expect(log).toContain('"msg": "Deploying version 42"');
    }, 150_000);

    it('refuses a task_runner\'s limit that would make ansible read a file on the server (@path), and takes host patterns', async () => {
      const before = await taskCount();
      for (const given of [{ limit: '@/etc/hostname' }, { limit: 'web1,@/etc/hostname' }, { params: { limit: ['localhost', ' @/etc/hostname'] } }]) {
        const refused = await post('task_runner', { environment: JSON.stringify({ version: '1' }), ...given });
        expect([given, refused]).toEqual([given, { status: 400, body: { error: 'limit: a host pattern must not start with "@" (ansible reads it as a file on the server)' } }]);
      }
      expect(await taskCount()).toBe(before);
      const allowed = await post('task_runner', { environment: JSON.stringify({ version: '1' }), limit: 'localhost' });
      expect(allowed.status).toBe(201);
      expect(await logOf(allowed.body.id!)).toContain('"msg": "Deploying version 1"');
    }, 150_000);

    it.skipIf(!hasTerraform)('hands a task_runner\'s value to real terraform as a string, never an expression', async () => {
      const res = await post('task_runner', { template_id: terraformId, environment: JSON.stringify({ release: TF_PAYLOAD }), params: { plan: true } });
      expect(res.status).toBe(201);
      const log = await logOf(res.body.id!);
      expect(log).toContain(`+ release = ${JSON.stringify(TF_PAYLOAD)}`);
    }, 150_000);

    it('refuses command-line arguments from a task_runner (400, no task), and takes them from a manager', async () => {
      const before = await taskCount();
      const refused = await post('task_runner', { environment: JSON.stringify({ version: '1' }), arguments: JSON.stringify(['-e', 'version={{ lookup("pipe","id") }}']) });
      expect(refused).toEqual({ status: 400, body: { error: 'arguments: only someone who may manage the project\'s resources may pass arguments' } });
      expect(await taskCount()).toBe(before);
      const allowed = await post('manager', { environment: JSON.stringify({ version: '1' }), arguments: JSON.stringify(['--forks=2']) });
      expect(allowed.status).toBe(201);
      await logOf(allowed.body.id!);
    }, 150_000);
  });
}
