import type { Insertable } from 'kysely';
import type { Db } from '../../src/server/db/database.ts';
import type { TemplateTable } from '../../src/server/db/schema.ts';
import type { SecretBox } from '../../src/server/crypto/secret-box.ts';
import { now } from '../../src/server/lib/time.ts';
import { hashPassword } from '../../src/server/access/password.ts';

/**
 * Rows inserted straight into the database, for tests of one part that need another part's
 * resources (a project with a template) without going through that part's routes.
 */
export async function insertProject(db: Db, name: string) {
  return db.insertInto('project').values({ name, created: now(), alert: 0, alert_chat: null, max_parallel_tasks: 0, type: '' })
    .returningAll().executeTakeFirstOrThrow();
}

/** A project with a member owner, a key, a repository, an inventory, a variable group and a template. */
export async function insertProjectWithTemplate(db: Db, options: {
  ownerId: number; app?: string; playbook?: string; gitUrl?: string; inventory?: string; templateName?: string;
}) {
  const project = await insertProject(db, 'Fixture');
  await db.insertInto('project_user').values({ project_id: project.id, user_id: options.ownerId, role: 'owner', created: now() }).execute();
  const key = await db.insertInto('access_key').values({ project_id: project.id, name: 'None', type: 'none', secret: null, owner: '', environment_id: null, created: now() })
    .returningAll().executeTakeFirstOrThrow();
  const repository = await db.insertInto('repository').values({ project_id: project.id, name: 'Repo', git_url: options.gitUrl ?? '/tmp', git_branch: 'main', ssh_key_id: key.id })
    .returningAll().executeTakeFirstOrThrow();
  const inventory = await db.insertInto('inventory').values({
    project_id: project.id, name: 'Local', type: 'static', inventory: options.inventory ?? 'localhost ansible_connection=local',
    ssh_key_id: key.id, become_key_id: null, repository_id: null, holder_id: null,
  }).returningAll().executeTakeFirstOrThrow();
  const environment = await db.insertInto('environment').values({ project_id: project.id, name: 'Empty', json: '{}', env: null, password: null })
    .returningAll().executeTakeFirstOrThrow();
  const template = await db.insertInto('template').values({
    project_id: project.id, name: options.templateName ?? 'Fixture template', app: options.app ?? 'bash', type: '',
    playbook: options.playbook ?? 'run.sh', description: '', inventory_id: inventory.id, repository_id: repository.id,
    environment_id: environment.id, arguments: null, allow_override_args_in_task: 0, allow_override_branch_in_task: 0,
    allow_parallel_tasks: 0, start_version: null, build_template_id: null, view_id: null, autorun: 0, git_branch: null,
    survey_vars: '[]', suppress_success_alerts: 0, task_params: '{}', runner_tag: null, working_directory: null, created: now(),
  }).returningAll().executeTakeFirstOrThrow();
  return { project, key, repository, inventory, environment, template };
}

/**
 * Another template in an existing fixture project; `fields` override the defaults.
 * @example const tf = await insertTemplate(db, project.id, { app: 'terraform', playbook: '' , repository_id: repo.id });
 */
export async function insertTemplate(db: Db, projectId: number, fields: Partial<Insertable<TemplateTable>> & { name: string }) {
  return db.insertInto('template').values({
    project_id: projectId, app: 'bash', type: '', playbook: 'run.sh', description: '', inventory_id: null, repository_id: null,
    environment_id: null, arguments: null, allow_override_args_in_task: 0, allow_override_branch_in_task: 0,
    allow_parallel_tasks: 0, start_version: null, build_template_id: null, view_id: null, autorun: 0, git_branch: null,
    survey_vars: '[]', suppress_success_alerts: 0, task_params: '{}', runner_tag: null, working_directory: null, created: now(),
    ...fields,
  }).returningAll().executeTakeFirstOrThrow();
}

/** A variable-group secret (`var` or `env`) stored as Semaphore does: a `string` key named `<type>.<name>`. */
export async function insertEnvironmentSecret(db: Db, box: SecretBox, environmentId: number, projectId: number, type: 'var' | 'env', name: string, value: string) {
  await db.insertInto('access_key').values({
    project_id: projectId, name: `${type}.${name}`, type: 'string', secret: box.seal(value), owner: 'environment', environment_id: environmentId, created: now(),
  }).execute();
}

/** A project user with a role (signs in with `password`), for permission tests. */
export async function insertMember(db: Db, projectId: number, username: string, role: string, password = 'member-password-1') {
  const user = await db.insertInto('user').values({
    created: now(), username, name: username, email: `${username}@example.test`, password: await hashPassword(password), admin: 0, external: 0, alert: 0,
  }).returningAll().executeTakeFirstOrThrow();
  await db.insertInto('project_user').values({ project_id: projectId, user_id: user.id, role, created: now() }).execute();
  return user;
}
