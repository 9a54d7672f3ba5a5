import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { insertEnvironmentSecret, insertProjectWithTemplate } from '../../support/fixtures.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { buildJobPayload } from '../../../src/server/engine/remote/job-payload.ts';

// Secrets are masked in the log; printed reversed they stay readable, so the test sees which value won.
const SCRIPT = [
  'echo "args: $*"',
  'echo "STAGE=$STAGE ONLY_BASE=$ONLY_BASE"',
  'echo "API_KEY reversed=$(printf %s "$API_KEY" | rev)"',
].join('\n');

const PLAYBOOK = `- hosts: all
  gather_facts: false
  tasks:
    - debug:
        msg: "tier={{ tier }} only_base={{ only_base }} token={{ token }} region={{ region | reverse }} stage={{ lookup('env', 'STAGE') }}"
`;

describe('several variable groups: later groups override earlier ones key by key (sqlite, real bash and ansible-playbook)', () => {
  let e: EngineServer;
  let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let base: number;
  let override: number;
  const api = () => `/api/project/${fx.project.id}`;
  const call = async (method: string, path: string, body: unknown, status: number) => {
    const res = await e.s.call(method, `${api()}${path}`, body, e.admin);
    expect(res.status, res.text).toBe(status);
    return res.body;
  };
  const bash2 = (name: string) => ({ name, app: 'bash', playbook: 'show.sh', repository_id: fx.repository.id, environment_ids: [base, override] });
  const runAndLog = async (body: Record<string, unknown>) => {
    const task = await call('POST', '/tasks', body, 201);
    const done = await waitForTask(e.s.deps.db, task.id, undefined, 90_000);
    const log = (await taskLog(e.s.deps.db, task.id)).join('\n');
    expect(done.status, log).toBe('success');
    return { task, log };
  };

  beforeAll(async () => {
    e = await startEngineServer('sqlite');
    const repo = createGitRepo(join(e.s.tmp, 'repo'), { 'show.sh': SCRIPT, 'site.yml': PLAYBOOK }, 'Add script and playbook');
    fx = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: `file://${repo.path}`, playbook: 'show.sh' });
    base = (await call('POST', '/environment', {
      name: 'Base', project_id: fx.project.id,
      json: JSON.stringify({ tier: 'base', only_base: 'kept', region: 'eu', token: 'x' }), env: JSON.stringify({ STAGE: 'base', ONLY_BASE: 'kept-env' }),
    }, 201)).id;
    override = (await call('POST', '/environment', {
      name: 'Override', project_id: fx.project.id, json: JSON.stringify({ tier: 'override' }), env: JSON.stringify({ STAGE: 'override' }),
    }, 201)).id;
    const db = e.s.deps.db;
    // Base holds token as a plain value and API_KEY as a secret; Override turns token into a
    // secret, region into a secret, and gives API_KEY its own secret value.
    await insertEnvironmentSecret(db, e.s.deps.secrets, base, fx.project.id, 'env', 'API_KEY', 'base-key');
    await insertEnvironmentSecret(db, e.s.deps.secrets, override, fx.project.id, 'env', 'API_KEY', 'override-key');
    await insertEnvironmentSecret(db, e.s.deps.secrets, override, fx.project.id, 'var', 'region', 'secret-region');
    await insertEnvironmentSecret(db, e.s.deps.secrets, override, fx.project.id, 'var', 'token', 'tok-override');
  });
  afterAll(async () => { await e.close(); });

  it('bash: extra vars and environment variables of the later group win, keys only the earlier one has stay', async () => {
    const tpl = await call('POST', '/templates', {
      name: 'Show', app: 'bash', playbook: 'show.sh', repository_id: fx.repository.id, environment_ids: [base, override],
      task_params: { allow_override_environment: true },
    }, 201);
    expect(tpl).toMatchObject({ environment_ids: [base, override], environment_id: base });
    const { task, log } = await runAndLog({ template_id: tpl.id });
    expect(task.environment_ids).toEqual([base, override]);
    const args = log.split('\n').find((l) => l.startsWith('args: '))!;
    expect(args).toMatch(/tier=override/);
    expect(args).toMatch(/only_base=kept/);
    // region and token became secrets in the later group: no longer plain command-line values
    expect(args).not.toMatch(/region=eu|token=x/);
    expect(log).toContain('STAGE=override ONLY_BASE=kept-env');
    expect(log).toContain('API_KEY reversed=yek-edirrevo');

    const reversed = await runAndLog({ template_id: tpl.id, environment_ids: [override, base] });
    expect(reversed.task.environment_ids).toEqual([override, base]);
    expect(reversed.log).toContain('STAGE=base ONLY_BASE=kept-env');
    expect(reversed.log).toContain('API_KEY reversed=yek-esab');
    expect(reversed.log.split('\n').find((l) => l.startsWith('args: '))).toMatch(/tier=base\b/);
  });

  it('ansible-playbook: the merged extra vars, secret vars and environment reach the play', async () => {
    const tpl = await call('POST', '/templates', {
      name: 'Play', app: 'ansible', playbook: 'site.yml', repository_id: fx.repository.id, inventory_id: fx.inventory.id,
      environment_ids: [base, override],
    }, 201);
    const { log } = await runAndLog({ template_id: tpl.id });
    expect(log).toContain('tier=override only_base=kept token=******** region=noiger-terces stage=override');
    expect(log).not.toContain('tok-override');
  });

  it('a remote runner\'s job carries every group of the task and their secrets', async () => {
    const tpl = await call('POST', '/templates', bash2('Remote'), 201);
    const task = await e.s.deps.db.selectFrom('task').selectAll().where('id', '=', (await call('POST', '/tasks', { template_id: tpl.id }, 201)).id).executeTakeFirstOrThrow();
    await waitForTask(e.s.deps.db, task.id, undefined, 90_000);
    const payload = await buildJobPayload(e.s.deps.db, e.s.deps.secrets, task, {});
    expect(payload.rows.environment!.map((row) => row.name).sort()).toEqual(['Base', 'Override']);
    expect(payload.keys.filter((k) => k.owner === 'environment').map((k) => `${k.environment_id}:${k.name}=${k.secret}`).sort()).toEqual([
      `${base}:env.API_KEY=base-key`, `${override}:env.API_KEY=override-key`, `${override}:var.region=secret-region`, `${override}:var.token=tok-override`,
    ].sort());
  });
});
