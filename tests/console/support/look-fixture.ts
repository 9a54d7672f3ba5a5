import { startConsoleServer, type ConsoleServer } from './console-server.ts';
import { adminApi, insertScriptProject, waitForTask } from './real-tasks.ts';

/**
 * Statuses the history shows, with a start this many seconds ago and a duration (null: still running).
 * The failed task started ten minutes before today (UTC) began: "N minutes/hours ago" with a date,
 * the widest start cell, at whatever time of day the tests run.
 */
function sampleTasks(now: number): [string, number, number | null][] {
  const beforeToday = (now % 86_400_000) / 1000 + 600;
  return [
    ['success', 90, 1], ['error', beforeToday, 125], ['stopped', 86400 * 2, 3720], ['waiting_confirmation', 600, null], ['running', 30, null], ['waiting', 0, null],
  ];
}

/**
 * A project with one real finished task (a log to open) and tasks of every kind of status, and
 * the console routes of the look-and-feel tests.
 * @example const look = await insertLookProject(server); for (const route of look.routes) ...
 */
export async function insertLookProject(server: ConsoleServer) {
  const api = await adminApi(server);
  const fx = await insertScriptProject(server, { 'build.sh': 'for i in $(seq 1 40); do printf "step %s: \\033[32mok\\033[0m a fairly long line of build output that goes on past the width of a phone\\n" "$i"; done\n' }, 'build.sh', 'Build web');
  const taskId = await api.runTask(fx.project.id, { template_id: fx.template.id, message: 'Nightly build' });
  await waitForTask(server.deps.db, taskId);
  // before the sample rows, so that the newest task of the history is still one of "Build web"
  await insertLongNames(server, api, fx);
  // The sample rows below are for looking at, not for running: the engine stops first.
  await server.engine.stop();
  const now = Date.now();
  const iso = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();
  await server.deps.db.insertInto('task').values(sampleTasks(now).map(([status, ago, lasted], i) => ({
    project_id: fx.project.id, template_id: fx.template.id, status, user_id: fx.adminId, playbook: '', environment: '{}',
    message: `Release ${i + 1}`, commit_message: 'Bump the web server to the next minor version', git_branch: 'main', params: '{}',
    created: iso(ago), start: status === 'waiting' ? null : iso(ago), end: lasted === null ? null : iso(ago - lasted),
  }))).execute();
  const id = fx.project.id;
  const more = await insertResources(api, fx);
  const routes = lookRoutes({ project: id, task: taskId, bash: fx.template.id, ...more });
  return { api, projectId: id, taskId, routes };
}

type Fixture = Awaited<ReturnType<typeof insertScriptProject>>;

/** A view, a template of each kind, a schedule, an integration with a matcher, a value and an alias, keys, a workspace, runners. */
async function insertResources(api: Awaited<ReturnType<typeof adminApi>>, fx: Fixture) {
  const p = `/api/project/${fx.project.id}`;
  const view = await api.send<{ id: number }>('POST', `${p}/views`, { title: 'Ops', position: 1 });
  await api.send('PUT', `${p}/templates/${fx.template.id}`, { ...(await api.get<object>(`${p}/templates/${fx.template.id}`)), view_id: view.id });
  const key = await api.send<{ id: number }>('POST', `${p}/keys`, { name: 'Vault pass', type: 'login_password', project_id: fx.project.id, login_password: { login: 'ops', password: 'vault-secret-1' } });
  const tf = await api.send<{ id: number }>('POST', `${p}/templates`, { name: 'Network infrastructure for the production site', app: 'terraform', repository_id: fx.repository.id });
  const ws = await api.send<{ id: number }>('POST', `${p}/inventory`, { name: 'staging', type: 'terraform-workspace', inventory: 'staging', project_id: fx.project.id, ssh_key_id: fx.key.id });
  await api.send('POST', `${p}/templates/${tf.id}/inventory/${ws.id}/attach`);
  const ansible = await api.send<{ id: number }>('POST', `${p}/templates`, {
    name: 'Deploy site', app: 'ansible', playbook: 'deploy.yml', inventory_id: fx.inventory.id, repository_id: fx.repository.id, environment_id: fx.environment.id,
    survey_vars: [{ name: 'version', title: 'Version', type: 'enum', values: [{ name: 'latest', value: '1' }] }], vaults: [{ name: 'prod', vault_key_id: key.id }],
  });
  const schedule = await api.send<{ id: number }>('POST', `${p}/schedules`, { name: 'nightly', template_id: fx.template.id, cron_format: '0 3 * * *' });
  const integration = await api.send<{ id: number }>('POST', `${p}/integrations`, { name: 'GitHub push', template_id: fx.template.id, auth_method: 'github', auth_secret_id: key.id });
  const i = `${p}/integrations/${integration.id}`;
  const matcher = await api.send<{ id: number }>('POST', `${i}/matchers`, { name: 'branch', match_type: 'body', body_data_type: 'json', key: 'ref', method: 'equals', value: 'refs/heads/main' });
  const value = await api.send<{ id: number }>('POST', `${i}/values`, { name: 'sha', value_source: 'body', body_data_type: 'json', key: 'after', variable: 'SHA', variable_type: 'environment' });
  await api.send('POST', `${i}/aliases`);
  await api.send('POST', `${p}/runners`, { name: 'Edge runner in the far datacenter', tag: 'edge' });
  const workflow = await api.send<{ id: number }>('POST', `${p}/workflows`, {
    name: 'Release the web site', description: 'Build, wait for a go, deploy',
    nodes: [
      { id: 1, kind: 'approval', name: 'Go live?', approval_message: 'Check staging first', approval_four_eyes: true, approval_timeout: 3600 },
      { id: 2, kind: 'task', name: 'deploy', template_id: fx.template.id },
      { id: 3, kind: 'delay', name: 'settle', delay_seconds: 60 },
      { id: 4, kind: 'note', note: 'Ops are told in #releases' },
    ],
    edges: [{ source_node_id: 1, destination_node_id: 2 }, { source_node_id: 2, destination_node_id: 3, condition: 'always' }],
  });
  const workflowRun = await api.send<{ id: number }>('POST', `${p}/workflows/${workflow.id}/run`);
  return { workflow: workflow.id, workflowRun: workflowRun.id, view: view.id, key: key.id, tf: tf.id, ws: ws.id, ansible: ansible.id, schedule: schedule.id, integration: integration.id, matcher: matcher.id, value: value.id };
}

/**
 * A name of the longest kind a user may give (255 characters): words, then one run without a
 * break opportunity, so that a list must both wrap and break inside a word.
 * @example longName('Template') // 'Template Nightly deploy of … release_candidate_build_…'
 */
export function longName(what: string): string {
  return `${what} Nightly deploy of the production web cluster to the far datacenter ${'release_candidate_build_'.repeat(12)}`.slice(0, 255);
}

/** A record of each kind with a 255-character name, next to the ordinary ones: every list shows one. */
async function insertLongNames(server: ConsoleServer, api: Awaited<ReturnType<typeof adminApi>>, fx: Fixture) {
  const p = `/api/project/${fx.project.id}`;
  await api.send('PUT', p, { ...(await api.get<object>(p)), name: longName('Project') });
  const view = await api.send<{ id: number }>('POST', `${p}/views`, { title: longName('View'), position: 2 });
  const key = await api.send<{ id: number }>('POST', `${p}/keys`, { name: longName('Key'), type: 'none', project_id: fx.project.id });
  const repository = await api.send<{ id: number }>('POST', `${p}/repositories`, { name: longName('Repository'), git_url: `file:///srv/${'a'.repeat(200)}`, git_branch: 'main', ssh_key_id: key.id });
  const inventory = await api.send<{ id: number }>('POST', `${p}/inventory`, { name: longName('Inventory'), type: 'static', inventory: 'localhost', project_id: fx.project.id, ssh_key_id: key.id });
  const environment = await api.send<{ id: number }>('POST', `${p}/environment`, { name: longName('Variable group'), json: '{}', env: '{}', project_id: fx.project.id });
  const template = await api.send<{ id: number }>('POST', `${p}/templates`, {
    name: longName('Template'), app: 'bash', playbook: 'build.sh', repository_id: repository.id, inventory_id: inventory.id, environment_id: environment.id, view_id: view.id,
  });
  await api.send('POST', `${p}/schedules`, { name: longName('Schedule'), template_id: template.id, cron_format: '0 4 * * *' });
  await api.send('POST', `${p}/alert-channels`, { kind: 'email', name: longName('Alert channel'), emails: [`${'a'.repeat(60)}@example.test`, 'oncall@example.test'] });
  await api.send('POST', `${p}/event-webhooks`, { name: longName('Event webhook'), url: `https://hooks.example.test/${'b'.repeat(200)}`, events: ['task_started', 'task_finished', 'approval_waiting', 'template_changed'] });
  await api.send('POST', `${p}/integrations`, { name: longName('Integration'), template_id: template.id, auth_method: 'none' });
  await api.send('POST', `${p}/runners`, { name: longName('Runner'), tag: 'long' });
  await api.send('POST', '/api/users', { name: longName('User'), username: 'long-named-user', email: 'long@example.test', password: 'long-password-1' });
  const now = new Date().toISOString();
  await server.deps.db.insertInto('task').values({
    project_id: fx.project.id, template_id: template.id, status: 'success', user_id: fx.adminId, playbook: '', environment: '{}',
    message: longName('Message'), commit_message: '', git_branch: longName('branch'), params: '{}', created: now, start: now, end: now,
  }).execute();
}

type RouteIds = Awaited<ReturnType<typeof insertResources>> & { project: number; task: number; bash: number };

/** Every console route the look tests visit, by name, for the records `ids` names. */
function lookRoutes(ids: RouteIds): [string, string][] {
  const id = ids.project;
  const taskId = ids.task;
  return [
    ['history', `/project/${id}/history`],
    ['task-log', `/project/${id}/history?t=${taskId}`],
    ['task-details', `/project/${id}/history?t=${taskId}&tab=details`],
    ['task-summary', `/project/${id}/history?t=${taskId}&tab=summary`],
    ['kiosk', `/project/${id}/history?kiosk=1`],
    ['stats', `/project/${id}/stats`],
    ['activity', `/project/${id}/activity`],
    ['settings', `/project/${id}/settings`],
    ['settings-confirm', `/project/${id}/settings?confirm=delete`],
    ['active-tasks', '/tasks'],
    ['audit', '/audit'],
    ['audit-filtered', '/audit?action=create&q=a&from=2020-01-01'],
    ['project-audit', `/project/${id}/audit`],
    ['new-project', '/project/new'],
    ['new-project-dialog', `/project/${id}/history?new_project`],
    ['restore', '/project/restore'],
    ['components', '/components'],
    ['components-dialog', '/components?dialog=1'],
    ['board', `/board?projects=${id}`],
    ['board-tokens', '/board/tokens'],
    ...resourceRoutes(ids),
  ];
}

/** The route names, known before any record exists (tests are declared per name). */
export const LOOK_ROUTE_NAMES = lookRoutes(new Proxy({} as RouteIds, { get: () => 0 })).map(([name]) => name);

/** Every console route of the resource screens, with their dialogs. */
function resourceRoutes(r: RouteIds): [string, string][] {
  const bash = r.bash;
  const pr = `/project/${r.project}`;
  const t = (tid: number, child: string) => `${pr}/templates/${tid}/${child}`;
  return [
    ['templates', `${pr}/templates`], ['view-templates', `${pr}/views/${r.view}/templates`],
    ['templates-bulk-delete', `${pr}/templates?view=all&bulk_delete=${bash}.${r.ansible}`],
    ['template-tasks', t(bash, 'tasks')], ['template-details', t(r.ansible, 'details')], ['template-state', t(r.tf, 'state')],
    ['template-workspaces', t(r.tf, 'workspaces')], ['template-workspace', `${t(r.tf, 'workspaces')}?ws=${r.ws}`],
    ['view-template-tasks', `${pr}/views/${r.view}/templates/${bash}/tasks`],
    ['template-new-dialog', `${pr}/templates/new/edit`], ['template-edit-dialog', t(r.ansible, 'edit')], ['template-tf-edit-dialog', t(r.tf, 'edit')],
    ['launch-dialog', `${pr}/templates?new_task=${r.ansible}`],
    ['schedules', `${pr}/schedule`], ['schedule-dialog', `${pr}/schedule?edit=${r.schedule}`],
    ['workflows', `${pr}/workflows`], ['workflow', `${pr}/workflows/${r.workflow}`], ['workflow-edit', `${pr}/workflows/${r.workflow}/edit`],
    ['workflow-run', `${pr}/workflows/${r.workflow}/runs/${r.workflowRun}`], ['workflow-run-kiosk', `${pr}/workflows/${r.workflow}/runs/${r.workflowRun}?kiosk=1`],
    ['keys', `${pr}/keys`], ['key-dialog', `${pr}/keys?edit=new`],
    ['alerts', `${pr}/alerts`], ['alert-channel-dialog', `${pr}/alerts?edit=new`],
    ['event-webhooks', `${pr}/event-webhooks`], ['event-webhook-dialog', `${pr}/event-webhooks?edit=new`],
    ['repositories', `${pr}/repositories`], ['repository-dialog', `${pr}/repositories?edit=new`],
    ['inventory', `${pr}/inventory`], ['inventory-dialog', `${pr}/inventory?edit=new`],
    ['environment', `${pr}/environment`], ['environment-dialog', `${pr}/environment?edit=new`],
    ['integrations', `${pr}/integrations`], ['integration-new-dialog', `${pr}/integrations?edit=new`],
    ['integration', `${pr}/integrations/${r.integration}`], ['integration-matcher-dialog', `${pr}/integrations/${r.integration}?matcher=${r.matcher}`],
    ['integration-value-dialog', `${pr}/integrations/${r.integration}?value=${r.value}`],
    ['team', `${pr}/team`], ['team-dialog', `${pr}/team?add=1`],
    ['project-runners', `${pr}/runners`], ['runners', '/runners'],
    ['users', '/users'], ['user-new', '/users/new'], ['user-edit', '/users/1/edit'], ['tokens', '/tokens'], ['apps', '/apps'], ['app', '/apps/ansible'],
    ['home', '/'], ['project-home', pr],
  ];
}

/**
 * `/runners` is served only while remote runners are used, which would leave the look project's
 * task to a runner: a server of its own with one global runner.
 * @example const runners = await startRunnersServer(); await page.goto(runners.url + '/runners');
 */
export async function startRunnersServer(): Promise<ConsoleServer> {
  const server = await startConsoleServer({ SEMAPHORE_USE_REMOTE_RUNNER: 'true' });
  await (await adminApi(server)).send('POST', '/api/runners', { name: 'Shared runner in the main datacenter' });
  return server;
}
