import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Tx } from '../../db/database.ts';
import type { Deps } from '../../deps.ts';
import type { ProjectRow } from '../../db/schema.ts';
import { now } from '../../lib/time.ts';
import { recordEvent } from '../events/event.repository.ts';
import { createTemplate } from '../templates/template.service.ts';
import type { Actor } from '../project-resource.ts';
import type { TemplateValues } from '../templates/template.validation.ts';
import { createDemoRepository, demoRepositoryPath } from './demo-repository.ts';

/** The local inventory every demo environment uses: this host, no SSH. */
const LOCAL_INVENTORY = '[all]\nlocalhost ansible_connection=local\n';

/**
 * Fills a freshly created project with the demo resources of reference §3.2, pointing at a
 * local git repository made from the shipped files, so "Run" works offline: key "Vault Password",
 * repository "Demo", inventories Build/Dev/Prod, templates "Ping Site", "Build" (build 1.0.0),
 * "Deploy to Dev" (deploy, autorun) and "Deploy to Production". Runs in the project's transaction.
 */
export async function addDemoResources(tx: Tx, project: ProjectRow, deps: Deps): Promise<void> {
  const dir = demoRepositoryPath(deps.config.tmp_path, project.id);
  await createDemoRepository(dir);
  try {
    await insertDemoRows(tx, project, deps, `file://${dir}`);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function insertDemoRows(tx: Tx, project: ProjectRow, deps: Deps, gitUrl: string) {
  const ownerRow = await tx.selectFrom('project_user').select('user_id').where('project_id', '=', project.id).where('role', '=', 'owner').executeTakeFirst();
  const actor: Actor = { projectId: project.id, userId: ownerRow?.user_id ?? null };
  const none = await tx.selectFrom('access_key').select('id').where('project_id', '=', project.id).where('type', '=', 'none').orderBy('id').executeTakeFirstOrThrow();
  const empty = await tx.selectFrom('environment').select('id').where('project_id', '=', project.id).orderBy('id').executeTakeFirst();

  const vaultPassword = randomBytes(8).toString('hex');
  const vaultKey = await tx.insertInto('access_key').values({
    project_id: project.id, name: 'Vault Password', type: 'login_password', owner: '', environment_id: null, created: now(),
    secret: deps.secrets.seal(JSON.stringify({ login: '', password: vaultPassword })),
  }).returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, objectType: 'key', objectId: vaultKey.id, description: `Access Key ${vaultKey.name} created` });

  const repo = await tx.insertInto('repository').values({ project_id: project.id, name: 'Demo', git_url: gitUrl, git_branch: 'main', ssh_key_id: none.id })
    .returningAll().executeTakeFirstOrThrow();
  await recordEvent(tx, { ...actor, objectType: 'repository', objectId: repo.id, description: `Repository ${repo.git_url} created` });

  const inventories: Record<string, number> = {};
  for (const name of ['Build', 'Dev', 'Prod']) {
    const inv = await tx.insertInto('inventory').values({
      project_id: project.id, name, type: 'static', inventory: LOCAL_INVENTORY, ssh_key_id: none.id, become_key_id: null, repository_id: null, holder_id: null,
    }).returningAll().executeTakeFirstOrThrow();
    inventories[name] = inv.id;
    await recordEvent(tx, { ...actor, objectType: 'inventory', objectId: inv.id, description: `Inventory ${name} created` });
  }

  const base: TemplateValues = {
    name: '', app: 'bash', type: '', playbook: '', description: '', inventory_id: null, repository_id: repo.id, environment_id: empty?.id ?? null,
    view_id: null, arguments: null, allow_override_args_in_task: 0, allow_override_branch_in_task: 0, allow_parallel_tasks: 0,
    suppress_success_alerts: 0, suppress_error_alerts: 0, alert_fixed: 0, autorun: 0, start_version: null, build_template_id: null, git_branch: null,
    survey_vars: '[]', task_params: '{}', runner_tag: null, working_directory: null, disabled: 0,
    executor_image: null, executor_network: null, executor_cpus: null, executor_memory: null, executor_user: null, executor_pull: null, executor_registry_key_id: null,
    jwt_enabled: 0, jwt_audience: null, jwt_ttl: null, concurrency_limit: null, concurrency_policy: 'queue', rate_limit_starts: null, rate_limit_window: null,
  };
  await createTemplate(tx, actor, { ...base, name: 'Ping Site', app: 'ansible', playbook: 'ping.yml', inventory_id: inventories.Dev!, description: 'Pings localhost with Ansible' }, []);
  const build = await createTemplate(tx, actor, {
    ...base, name: 'Build', type: 'build', playbook: 'build.sh', start_version: '1.0.0', inventory_id: inventories.Build!, description: 'Builds the demo site',
  }, []);
  await createTemplate(tx, actor, {
    ...base, name: 'Deploy to Dev', type: 'deploy', playbook: 'deploy.sh', build_template_id: build.id, autorun: 1,
    inventory_id: inventories.Dev!, arguments: '["dev"]', description: 'Deploys every new build to dev',
  }, []);
  await createTemplate(tx, actor, {
    ...base, name: 'Deploy to Production', type: 'deploy', playbook: 'deploy.sh', build_template_id: build.id,
    inventory_id: inventories.Prod!, arguments: '["production"]', description: 'Deploys a chosen build to production',
  }, []);
}
