import type { Db } from '../../src/server/db/database.ts';
import { randomBytes } from 'node:crypto';
import { now } from '../../src/server/lib/time.ts';
import { insertEnvironment, insertInventory, insertKey, insertRepository, insertTask } from './project-rows.ts';
import { insertWorkflowRows } from './workflow-rows.ts';

/** Ids of one of every project resource, plus spare ones nothing refers to (safe to delete). */
export interface ResourceIds extends Record<string, number> {
  key: number; repository: number; inventory: number; environment: number; template: number; workspace: number;
  view: number; schedule: number; integration: number; matcher: number; value: number; projectAlias: number;
  integrationAlias: number; task: number; waitingTask: number; confirmTask: number; tfAlias: number; tfState: number; invite: number;
  spareKey: number; spareRepository: number; spareInventory: number; spareEnvironment: number; spareTemplate: number;
  /** a named lock no template needs */
  lock: number;
  /** a custom role no member holds */
  role: number;
  /** a workflow whose run waits at its approval node, and one with no runs */
  workflow: number; workflowRun: number; workflowNode: number; workflowTaskNode: number; spareWorkflow: number;
}

/** A pending invitation of an email address to the project (its token is random and thrown away). */
function insertInvite(db: Db, projectId: number) {
  return db.insertInto('project_invite').values({
    project_id: projectId, user_id: null, email: `invitee-${projectId}@example.test`, role: 'guest', status: 'pending',
    token_hash: randomBytes(32).toString('hex'), inviter_user_id: null, created: now(), expires_at: null, accepted_at: null,
  }).returning('id').executeTakeFirstOrThrow();
}

function insertTemplate(db: Db, projectId: number, refs: { name: string; app: string; playbook: string; repository: number; inventory: number; environment: number; view?: number }) {
  return db.insertInto('template').values({
    project_id: projectId, name: refs.name, app: refs.app, type: '', playbook: refs.playbook, description: '',
    inventory_id: refs.inventory, repository_id: refs.repository, environment_id: refs.environment, arguments: null,
    allow_override_args_in_task: 0, allow_override_branch_in_task: 0, allow_parallel_tasks: 0, start_version: null,
    build_template_id: null, view_id: refs.view ?? null, autorun: 0, git_branch: null, survey_vars: '[]', suppress_success_alerts: 0,
    task_params: '{}', runner_tag: null, working_directory: null, created: now(),
  }).returningAll().executeTakeFirstOrThrow();
}

/** The alias string of the project's (or its integration's) alias: fixed, so webhook paths can name it. */
export function aliasOf(projectId: number, kind: 'project' | 'integration'): string {
  return `${kind}-alias-${projectId}`;
}

function insertAlias(db: Db, projectId: number, integrationId: number | null) {
  return db.insertInto('integration_alias').values({ alias: aliasOf(projectId, integrationId ? 'integration' : 'project'), project_id: projectId, integration_id: integrationId })
    .returningAll().executeTakeFirstOrThrow();
}

/**
 * Inserts one of every project resource straight into the database (no events, no API), for tests
 * that need them to exist without depending on their routes: a terraform template with a
 * workspace it can attach, a view, a schedule, an integration with matcher, value and aliases,
 * a terraform state alias and state version of the workspace, a finished, a waiting and a confirmation-waiting task (rows only: no engine runs),
 * a pending invitation, and a spare key/repository/inventory/variable group/template nothing uses.
 * @example const ids = await insertProjectResources(db, w.projectId); `/keys/${ids.spareKey}`
 */
export async function insertProjectResources(db: Db, projectId: number): Promise<ResourceIds> {
  const key = await insertKey(db, projectId, 'Key');
  const repository = await insertRepository(db, projectId, key.id);
  const inventory = await insertInventory(db, projectId, { name: 'Hosts', keyId: key.id });
  const environment = await insertEnvironment(db, projectId, 'Vars');
  const view = await db.insertInto('view').values({ project_id: projectId, title: 'View', position: 0, hidden: 0, type: '', sort_column: null, sort_reverse: 0 })
    .returningAll().executeTakeFirstOrThrow();
  const refs = { repository: repository.id, inventory: inventory.id, environment: environment.id };
  const template = await insertTemplate(db, projectId, { name: 'Infra', app: 'terraform', playbook: '', view: view.id, ...refs });
  const workspace = await insertInventory(db, projectId, { name: 'ws', type: 'terraform-workspace', inventory: 'ws' });
  const tfAlias = await db.insertInto('terraform_alias').values({ project_id: projectId, inventory_id: workspace.id, alias: `tfalias${projectId}`, auth_key_id: null, created: now() })
    .returning('id').executeTakeFirstOrThrow();
  const tfState = await db.insertInto('terraform_state').values({ project_id: projectId, inventory_id: workspace.id, task_id: null, state: '{"version":4,"serial":1}', created: now() })
    .returning('id').executeTakeFirstOrThrow();
  const schedule = await db.insertInto('schedule').values({
    project_id: projectId, template_id: template.id, name: 'Nightly', cron_format: '0 3 * * *', type: '', run_at: null, active: 0,
    repository_id: null, last_commit_hash: null, task_params: '{}',
  }).returningAll().executeTakeFirstOrThrow();
  const integration = await db.insertInto('integration').values({
    project_id: projectId, name: 'Hook', template_id: template.id, auth_method: 'none', auth_secret_id: null, auth_header: null, searchable: 0, task_params: '{}',
  }).returningAll().executeTakeFirstOrThrow();
  const matcher = await db.insertInto('integration_matcher').values({
    integration_id: integration.id, name: 'm', match_type: 'header', method: 'equals', body_data_type: '', key: 'k', value: 'v',
  }).returningAll().executeTakeFirstOrThrow();
  const value = await db.insertInto('integration_extract_value').values({
    integration_id: integration.id, name: 'v', value_source: 'header', body_data_type: '', key: 'k', variable: 'V', variable_type: 'environment',
  }).returningAll().executeTakeFirstOrThrow();
  const projectAlias = await insertAlias(db, projectId, null);
  const integrationAlias = await insertAlias(db, projectId, integration.id);
  const task = await insertTask(db, { projectId, templateId: template.id, status: 'success' });
  const waitingTask = await insertTask(db, { projectId, templateId: template.id, status: 'waiting' });
  const confirmTask = await insertTask(db, { projectId, templateId: template.id, status: 'waiting_confirmation' });
  const invite = await insertInvite(db, projectId);
  const spareKey = await insertKey(db, projectId, 'Spare key');
  const spareRepository = await insertRepository(db, projectId, key.id, 'Spare repo');
  const spareInventory = await insertInventory(db, projectId, { name: 'Spare hosts', keyId: key.id });
  const spareEnvironment = await insertEnvironment(db, projectId, 'Spare vars');
  const spareTemplate = await insertTemplate(db, projectId, { name: 'Spare', app: 'bash', playbook: 'run.sh', ...refs });
  const workflows = await insertWorkflowRows(db, projectId, template.id);
  // named after the template, so that several sets of resources fit in one project
  const lock = await db.insertInto('project_lock').values({ project_id: projectId, name: `lock-${template.id}`, capacity: 1, description: '', created: '2026-01-01T00:00:00.000Z' })
    .returning('id').executeTakeFirstOrThrow();
  const role = await db.insertInto('project_role').values({ project_id: projectId, slug: `role_${template.id}`, name: `Role ${template.id}`, permissions: 1, created: '2026-01-01T00:00:00.000Z' })
    .returning('id').executeTakeFirstOrThrow();
  return {
    lock: lock.id,
    role: role.id,
    ...workflows,
    key: key.id, repository: repository.id, inventory: inventory.id, environment: environment.id, template: template.id, workspace: workspace.id,
    view: view.id, schedule: schedule.id, integration: integration.id, matcher: matcher.id, value: value.id, projectAlias: projectAlias.id,
    integrationAlias: integrationAlias.id, task: task.id, waitingTask: waitingTask.id, confirmTask: confirmTask.id, tfAlias: tfAlias.id, tfState: tfState.id, invite: invite.id, spareKey: spareKey.id, spareRepository: spareRepository.id,
    spareInventory: spareInventory.id, spareEnvironment: spareEnvironment.id, spareTemplate: spareTemplate.id,
  };
}
