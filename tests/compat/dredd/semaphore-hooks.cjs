// Semaphore's own Dredd hooks (Go, `.dredd/hooks/` in its repository), followed fixture for fixture
// in JavaScript and run against Signalbox. Semaphore's hooks write their fixtures straight into its
// database; these build the same objects through the HTTP API, as an outside client would.
//
// SIGNALBOX_DREDD_HOOKS picks the version followed:
//   release: Semaphore commit cbd5620246aa (the 2.16 release, beside its api-docs.yml)
//   develop: the develop branch's hooks of the document saved as semaphore-api-develop.yml, as a
//            build without the PRO module runs them (workflows and project runners skipped)
// SIGNALBOX_DREDD_URL is the server; SIGNALBOX_DREDD_ADMIN / _PASSWORD an administrator who
// creates the test runner user (Semaphore's hooks insert that user and its token directly).
'use strict';

const hooks = require('hooks');

const FLAVOUR = process.env.SIGNALBOX_DREDD_HOOKS === 'develop' ? 'develop' : 'release';
const BASE = process.env.SIGNALBOX_DREDD_URL;
const DEVELOP = FLAVOUR === 'develop';

// the path example of the expired-token transaction, replaced by a token made for it
const EXPIRED_TOKEN_EXAMPLE = 'kwofd61g93-yuqvex8efmhjkgnbxlo8mp1tin6spyhu=';

// Runtime state, named as in the Go hooks
const state = {
  runnerUser: null, runnerToken: null,
  userPathTestUser: null, userProject: null, userKey: null,
  task: null, schedule: null, view: null,
  integration: null, extractValue: null, matcher: null,
  invite: null, runner: null, globalRunner: null, hostConfig: null,
  repoID: 0, inventoryID: 0, environmentID: 0, templateID: 0,
  expiredTokenID: null,
  fatal: null,
};

const uid = () => Math.random().toString(36).slice(2, 10).padEnd(8, '0');

async function call(method, path, body, token = state.runnerToken) {
  const headers = { authorization: `bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`fixture ${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

// ---- the test runner user (Go: addTestRunnerUser) ----

async function addTestRunnerUser() {
  const login = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ auth: process.env.SIGNALBOX_DREDD_ADMIN, password: process.env.SIGNALBOX_DREDD_ADMIN_PASSWORD }),
  });
  if (login.status !== 204) throw new Error(`admin login answered ${login.status}`);
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const id = uid();
  const password = `runner-${id}-pass`;
  const created = await fetch(`${BASE}/api/users`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ username: `ITU-${id}`, name: `ITU-${id}`, email: `${id}@semaphore.test`, admin: true, password }),
  });
  if (created.status !== 201) throw new Error(`runner user answered ${created.status}: ${await created.text()}`);
  state.runnerUser = await created.json();
  const own = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: `ITU-${id}`, password }),
  });
  const ownCookie = own.headers.get('set-cookie').split(';')[0];
  const token = await fetch(`${BASE}/api/user/tokens`, { method: 'POST', headers: { cookie: ownCookie } });
  if (token.status !== 201) throw new Error(`runner token answered ${token.status}`);
  state.runnerToken = (await token.json()).id;
}

// ---- objects (Go: helpers.go) ----

const addUser = () => {
  const id = uid();
  // Semaphore creates it without a password
  return call('POST', '/api/users', { username: `ITU-${id}`, email: `test@semaphore.${id}`, name: `ITU-${id}` });
};

async function addProject() {
  const project = await call('POST', '/api/projects', { name: `ITP-${uid()}`, alert_chat: 'Test' });
  await call('PUT', `/api/project/${project.id}/`, { ...project });
  return project;
}

async function addUserProjectRelation(projectId, userId) {
  const members = await call('GET', `/api/project/${projectId}/users?sort=name&order=asc`);
  if (members.some((m) => m.id === userId)) return; // creating a project over HTTP makes its creator owner
  await call('POST', `/api/project/${projectId}/users`, { user_id: userId, role: 'owner' });
}

const deleteUserProjectRelation = (projectId, userId) => call('DELETE', `/api/project/${projectId}/users/${userId}`);

const p = () => `/api/project/${state.userProject.id}`;

const addAccessKey = () => call('POST', `${p()}/keys`, {
  name: `ITK-${uid()}`, type: 'ssh', project_id: state.userProject.id, ssh: { private_key: '5up3r53cr3t\n' },
});

const addView = () => call('POST', `${p()}/views`, { project_id: state.userProject.id, title: 'Test', position: 1 });

const addSchedule = () => call('POST', `${p()}/schedules`, { project_id: state.userProject.id, template_id: state.templateID, cron_format: '* * * 1 *' });

/**
 * Semaphore inserts a task row (status "testing") that no runner holds. Over HTTP a task is
 * started: its clone of the fixture's made-up repository fails at once, and the fixture waits
 * for that end so the task, like Semaphore's, is in no queue when the transaction runs.
 */
async function addTask() {
  const task = await call('POST', `${p()}/tasks`, { project_id: state.userProject.id, template_id: state.templateID });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const now = await call('GET', `${p()}/tasks/${task.id}`);
    if (['success', 'error', 'stopped', 'rejected'].includes(now.status)) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fixture task ${task.id} did not end`);
}

const addIntegration = () => call('POST', `${p()}/integrations`, { project_id: state.userProject.id, name: 'Test Integration', template_id: state.templateID });

const addIntegrationExtractValue = () => call('POST', `${p()}/integrations/${state.integration.id}/values`, {
  name: 'Value', integration_id: state.integration.id, value_source: 'body', body_data_type: 'json', key: 'key', variable: 'var', variable_type: 'environment',
});

const addIntegrationMatcher = () => call('POST', `${p()}/integrations/${state.integration.id}/matchers`, {
  name: 'matcher', integration_id: state.integration.id, match_type: 'body', method: 'equals', body_data_type: 'json', key: 'key', value: 'value',
});

const addInvite = () => call('POST', `${p()}/invites`, { user_id: state.userPathTestUser.id, role: 'owner' });

const addRunner = () => call('POST', `${p()}/runners`, { name: `ITRN-${uid()}`, active: true, max_parallel_tasks: 1 });

const addGlobalRunner = () => call('POST', '/api/runners', { name: `ITGRN-${uid()}`, active: true, max_parallel_tasks: 1 });

// not in the Go hooks we could read (they name the capability only): a mapping of a host to the key
const addHostConfig = () => call('POST', `${p()}/host_configs`, { project_id: state.userProject.id, type: 'host', host: 'github.com', ssh_key_id: state.userKey.id });

// ---- capabilities (Go: capabilities.go) ----

const CAPABILITIES = {
  user: [],
  project: ['user'],
  repository: ['access_key'],
  inventory: ['repository'],
  environment: ['repository'],
  template: ['repository', 'inventory', 'environment', 'view'],
  task: ['template'],
  schedule: ['template'],
  view: [],
  integration: ['project', 'template'],
  integrationextractvalue: ['integration'],
  integrationmatcher: ['integration'],
  ...(DEVELOP ? { invite: ['user', 'project'], runner: ['project'], global_runner: [], host_config: ['access_key'] } : {}),
};

const CREATE = {
  async user() { state.userPathTestUser = await addUser(); },
  async project() {
    state.userProject = await addProject();
    await addUserProjectRelation(state.userProject.id, state.runnerUser.id);
    await addUserProjectRelation(state.userProject.id, state.userPathTestUser.id);
  },
  async access_key() { state.userKey = await addAccessKey(); },
  async repository(id) {
    state.repoID = (await call('POST', `${p()}/repositories`, {
      project_id: state.userProject.id, git_url: 'git@github.com/ansible,semaphore/semaphore', git_branch: 'develop', ssh_key_id: state.userKey.id, name: `ITR-${id}`,
    })).id;
  },
  async inventory(id) {
    state.inventoryID = (await call('POST', `${p()}/inventory`, {
      project_id: state.userProject.id, name: `ITI-${id}`, type: 'static', ssh_key_id: state.userKey.id, become_key_id: state.userKey.id,
      inventory: 'Test Inventory', repository_id: state.repoID,
    })).id;
  },
  async environment(id) {
    state.environmentID = (await call('POST', `${p()}/environment`, {
      project_id: state.userProject.id, name: `ITI-${id}`, json: '{}', password: 'test-pass', env: '{}',
      secrets: [{ type: 'env', name: 'TEST', secret: 'VALUE', operation: 'create' }],
    })).id;
  },
  async template(id) {
    state.templateID = (await call('POST', `${p()}/templates`, {
      project_id: state.userProject.id, inventory_id: state.inventoryID, repository_id: state.repoID,
      ...(DEVELOP ? { environment_ids: [state.environmentID] } : { environment_id: state.environmentID }),
      name: `Test-${id}`, playbook: 'test-playbook.yml', arguments: '[]', allow_override_args_in_task: false,
      description: 'Hello, World!', view_id: state.view.id, app: 'ansible', git_branch: 'main', survey_vars: [],
    })).id;
  },
  async task() { state.task = await addTask(); },
  async schedule() { state.schedule = await addSchedule(); },
  async view() { state.view = await addView(); },
  async integration() { state.integration = await addIntegration(); },
  async integrationextractvalue() { state.extractValue = await addIntegrationExtractValue(); },
  async integrationmatcher() { state.matcher = await addIntegrationMatcher(); },
  async invite() { state.invite = await addInvite(); },
  async runner() { state.runner = await addRunner(); },
  async global_runner() { state.globalRunner = await addGlobalRunner(); },
  async host_config() { state.hostConfig = await addHostConfig(); },
};

/**
 * The Go resolver, with its quirk kept: each dependency list is resolved against a copy of the
 * caller's list, so a shared dependency (an access key) is made again for every object needing it.
 */
async function resolveCapabilities(caps, resolved, id) {
  for (const cap of caps) {
    if (CAPABILITIES[cap]) await resolveCapabilities(CAPABILITIES[cap], [...resolved], id);
    if (resolved.includes(cap)) continue;
    if (!CREATE[cap]) throw new Error(`unknown capability ${cap}`);
    await CREATE[cap](id);
    resolved.push(cap);
  }
}

const addCapabilities = (caps) => resolveCapabilities(caps, [], uid());

// ---- hook plumbing ----

/** An async step as a Dredd callback hook; a fixture that fails fails its transaction (Go panics). */
const step = (fn) => (transaction, done) => {
  fn(transaction).then(() => done(), (err) => {
    transaction.fail = String(err && err.message || err);
    done();
  });
};

const capabilityWrapper = (cap) => step(() => addCapabilities([cap]));
const skipTest = (transaction) => { transaction.skip = true; };

// ids put in place of the documents' path examples 1, 2, 3 …, in this order
const PATH_SUBSTITUTES = [
  () => state.userProject.id,
  () => state.userPathTestUser.id,
  () => state.userKey.id,
  () => state.repoID,
  () => state.inventoryID,
  () => state.environmentID,
  () => state.templateID,
  () => state.task.id,
  () => state.schedule.id,
  () => state.view.id,
  () => state.integration.id,
  () => state.extractValue.id,
  () => state.matcher.id,
  ...(DEVELOP ? [
    () => state.invite.id,
    () => 15, // alias_id: no alias fixture in the Go hooks either
    () => (state.runner ? state.runner.id : 0),
    () => state.globalRunner.id,
    () => 0, // workflow_id, run_id, node_id: PRO fixtures, skipped here
    () => 0,
    () => 0,
  ] : []),
];

/** Go: alterRequestPath. Each example number is looked up among the original segments once. */
function alterRequestPath(transaction) {
  const original = transaction.fullPath.split('/');
  const segments = [...original];
  PATH_SUBSTITUTES.forEach((substitute, index) => {
    const at = original.indexOf(String(index + 1));
    if (at !== -1) segments[at] = String(substitute());
  });
  if (state.expiredTokenID) {
    const at = original.findIndex((segment) => decodeURIComponent(segment) === EXPIRED_TOKEN_EXAMPLE);
    if (at !== -1) segments[at] = state.expiredTokenID;
  }
  transaction.fullPath = segments.join('/');
  transaction.request.uri = transaction.fullPath;
}

/** Go: alterRequestBody. A body that is not a JSON object goes out as `null`, as Go's map does. */
function alterRequestBody(transaction) {
  let request = null;
  try {
    const parsed = JSON.parse(transaction.request.body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) request = parsed;
  } catch { /* Go's json.Unmarshal leaves the map nil */ }
  const replace = (field, value) => { if (request && Object.hasOwn(request, field)) request[field] = value; };

  if (state.userProject) replace('project_id', state.userProject.id);
  replace('json', '{}');
  if (state.userKey) {
    replace('ssh_key_id', state.userKey.id);
    replace('become_key_id', state.userKey.id);
    if (DEVELOP) replace('auth_secret_id', state.userKey.id);
  }
  if (DEVELOP && state.invite) replace('invite_id', 4);
  replace('environment_id', state.environmentID);
  if (DEVELOP) replace('environment_ids', [state.environmentID]);
  replace('inventory_id', state.inventoryID);
  replace('repository_id', state.repoID);
  replace('template_id', state.templateID);
  replace('build_template_id', null);
  if (state.task) replace('task_id', state.task.id);
  if (state.schedule) replace('schedule_id', state.schedule.id);
  if (state.view) replace('view_id', state.view.id);
  if (state.integration) replace('integration_id', state.integration.id);
  if (state.extractValue) replace('value_id', state.extractValue.id);
  if (state.matcher) replace('matcher_id', state.matcher.id);

  if (transaction.request.method.toLowerCase() === 'put') {
    const id = /\w+\/(\d+)\/?$/.exec(transaction.fullPath);
    if (!id || !request) throw new Error(`Unexpected PUT request ${transaction.fullPath}`);
    request.id = Number(id[1]);
  }
  transaction.request.body = request === null ? 'null' : JSON.stringify(sortedKeys(request));
}

/** Go's encoding/json writes a map's keys in sorted order. */
function sortedKeys(object) {
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]]));
}

function setupObjectsAndPaths(transaction) {
  // a fixture that failed ended the transaction (the Go hooks panic there)
  if (transaction.fail || (DEVELOP && transaction.skip)) return;
  try {
    alterRequestPath(transaction);
    alterRequestBody(transaction);
  } catch (err) {
    transaction.fail = String(err.message);
  }
}

// ---- the hooks (Go: main.go) ----

const SKIP = [
  '/api/ping > PING test > 200 > text/plain; charset=utf-8',
  '/api/ws > Websocket handler > 200 > application/json',
  'authentication > /api/auth/login > Performs Login > 204 > application/json',
  'authentication > /api/auth/logout > Destroys current session > 204 > application/json',
  ...(DEVELOP ? ['runner > /api/project/{project_id}/runners > Add project runner > 201 > application/json'] : ['/project/{project_id}/notifications/test']),
];

// skipped by the develop hooks when Semaphore is built without its PRO module
const PRO_ONLY = [
  'workflow > /api/project/{project_id}/workflows > Get workflows > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows > Add workflow > 201 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id} > Get workflow > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id} > Update workflow > 204 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id} > Remove workflow > 204 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/revisions > Get workflow revisions > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/revisions/{revision_id} > Get workflow revision > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/runs > Run workflow > 201 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/runs > Get workflow runs > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/runs/{run_id} > Get workflow run details > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/runs/{run_id}/stop > Stop workflow run > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/runs/{run_id}/approvals > Get workflow run approvals > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/runs/{run_id}/approvals/{node_id} > Resolve workflow approval > 200 > application/json',
  'workflow > /api/project/{project_id}/workflows/{workflow_id}/runs/{run_id}/artifacts > Get merged workflow run artifacts > 200 > application/json',
  'runner > /api/project/{project_id}/runners > Get project runners > 200 > application/json',
  'runner > /api/project/{project_id}/runner_tags > Get project runner tags > 200 > application/json',
  'runner > /api/project/{project_id}/runners/{runner_id} > Get project runner > 200 > application/json',
  'runner > /api/project/{project_id}/runners/{runner_id} > Update project runner > 204 > application/json',
  'runner > /api/project/{project_id}/runners/{runner_id} > Delete project runner > 204 > application/json',
  'runner > /api/project/{project_id}/runners/{runner_id}/active > Set project runner active state > 204 > application/json',
  'runner > /api/project/{project_id}/runners/{runner_id}/registration-token > Regenerate the one-time registration token of an unregistered project runner > 200 > application/json',
  'runner > /api/project/{project_id}/runners/{runner_id}/cache > Clear project runner cache > 204 > application/json',
];

hooks.beforeAll((transactions, done) => {
  addTestRunnerUser().then(() => done(), (err) => { state.fatal = `test runner user: ${err.message}`; done(); });
});

for (const name of SKIP) hooks.before(name, skipTest);

hooks.beforeEach(step(async (transaction) => {
  if (state.fatal) throw new Error(state.fatal);
  transaction.request.headers.Authorization = `bearer ${state.runnerToken}`;
  if (transaction.name.startsWith('user')) await addCapabilities(['user']);
  else if (transaction.name.startsWith('project')) await addCapabilities(['project']);
}));

const EXPIRE_TOKEN = 'user > /api/user/tokens/{api_token_id} > Expires API token > 204 > application/json';
hooks.before(EXPIRE_TOKEN, step(async () => { state.expiredTokenID = (await call('POST', '/api/user/tokens')).id; }));
hooks.after(EXPIRE_TOKEN, (transaction) => { state.expiredTokenID = null; });

hooks.before('user > /api/users/{user_id}/password > Updates user password > 204 > application/json', (transaction) => {
  transaction.request.body = '{"password":"staub"}';
});

hooks.before('project > /api/project/{project_id}/users > Link user to project > 204 > application/json', step(async (transaction) => {
  await deleteUserProjectRelation(state.userProject.id, state.userPathTestUser.id);
  transaction.request.body = `{ "user_id": ${state.userPathTestUser.id},"role": "owner"}`;
}));

const I = 'integration > /api/project/{project_id}/integrations';
if (DEVELOP) {
  for (const summary of ['{project_id}/invites > Get invitations for project > 200', '{project_id}/invites > Create project invitation > 201',
    '{project_id}/invites/{invite_id} > Get specific project invitation > 200', '{project_id}/invites/{invite_id} > Update project invitation status > 204',
    '{project_id}/invites/{invite_id} > Delete project invitation > 204']) {
    hooks.before(`project > /api/project/${summary} > application/json`, capabilityWrapper('invite'));
  }
}
hooks.before(`${I} > get all integrations > 200 > application/json`, capabilityWrapper('integration'));
hooks.before(`${I}/{integration_id} > Get Integration > 200 > application/json`, capabilityWrapper('integration'));
hooks.before(`${I}/{integration_id} > Update Integration > 204 > application/json`, capabilityWrapper('integration'));
hooks.before(`${I}/{integration_id} > Remove integration > 204 > application/json`, capabilityWrapper('integration'));
hooks.before(`${I}/{integration_id}/values > Get Integration Extracted Values linked to integration extractor > 200 > application/json`, capabilityWrapper('integrationextractvalue'));
hooks.before(`${I}/{integration_id}/values > Add Integration Extracted Value > 204 > application/json`, capabilityWrapper('integrationextractvalue'));
hooks.before(`${I}/{integration_id}/values/{extractvalue_id} > Removes integration extract value > 204 > application/json`, capabilityWrapper('integrationextractvalue'));
hooks.before(`${I}/{integration_id}/values > Add Integration Extracted Value > 204 > application/json`, capabilityWrapper('integration'));
hooks.before(`${I}/{integration_id}/values/{extractvalue_id} > Updates Integration ExtractValue > 204 > application/json`, capabilityWrapper('integrationextractvalue'));
hooks.before(`${I}/{integration_id}/matchers > Get Integration Matcher linked to integration extractor > 200 > application/json`, capabilityWrapper('integration'));
hooks.before(`${I}/{integration_id}/matchers > Add Integration Matcher > 204 > application/json`, capabilityWrapper('integration'));
hooks.before(`${I}/{integration_id}/matchers/{matcher_id} > Updates Integration Matcher > 204 > application/json`, capabilityWrapper('integrationmatcher'));

const P = '/api/project/{project_id}';
hooks.before(`key-store > ${P}/keys > Add access key > 201 > application/json`, capabilityWrapper('access_key'));
hooks.before(`key-store > ${P}/keys/{key_id} > Updates access key > 204 > application/json`, capabilityWrapper('access_key'));
hooks.before(`key-store > ${P}/keys/{key_id} > Removes access key > 204 > application/json`, capabilityWrapper('access_key'));

hooks.before(`repository > ${P}/repositories > Add repository > 201 > application/json`, capabilityWrapper('access_key'));
hooks.before(`repository > ${P}/repositories/{repository_id} > Get repository > 200 > application/json`, capabilityWrapper('repository'));
hooks.before(`repository > ${P}/repositories/{repository_id} > Updates repository > 204 > application/json`, capabilityWrapper('repository'));
hooks.before(`repository > ${P}/repositories/{repository_id} > Removes repository > 204 > application/json`, capabilityWrapper('repository'));

if (DEVELOP) {
  hooks.before(`project > ${P}/host_configs > Get the credential mappings of the project > 200 > application/json`, capabilityWrapper('host_config'));
  hooks.before(`project > ${P}/host_configs > Add a credential mapping > 201 > application/json`, capabilityWrapper('access_key'));
  hooks.before(`project > ${P}/host_configs/{host_config_id} > Get a credential mapping > 200 > application/json`, capabilityWrapper('host_config'));
  hooks.before(`project > ${P}/host_configs/{host_config_id} > Update a credential mapping > 204 > application/json`, capabilityWrapper('host_config'));
  hooks.before(`project > ${P}/host_configs/{host_config_id} > Delete a credential mapping > 204 > application/json`, capabilityWrapper('host_config'));
}

hooks.before(`inventory > ${P}/inventory > create inventory > 201 > application/json`, capabilityWrapper('inventory'));
hooks.before(`inventory > ${P}/inventory/{inventory_id} > Get inventory > 200 > application/json`, capabilityWrapper('inventory'));
hooks.before(`inventory > ${P}/inventory/{inventory_id} > Updates inventory > 204 > application/json`, capabilityWrapper('inventory'));
hooks.before(`inventory > ${P}/inventory/{inventory_id} > Removes inventory > 204 > application/json`, capabilityWrapper('inventory'));

hooks.before(`variable-group > ${P}/environment > Add environment > 201 > application/json`, capabilityWrapper('environment'));
hooks.before(`variable-group > ${P}/environment/{environment_id} > Get environment > 200 > application/json`, capabilityWrapper('environment'));
hooks.before(`variable-group > ${P}/environment/{environment_id} > Update environment > 204 > application/json`, capabilityWrapper('environment'));
hooks.before(`variable-group > ${P}/environment/{environment_id} > Removes environment > 204 > application/json`, capabilityWrapper('environment'));

hooks.before(`template > ${P}/templates > create template > 201 > application/json`, step(() => addCapabilities(['repository', 'inventory', 'environment', 'view'])));
if (DEVELOP) hooks.before(`template > ${P}/templates/{template_id}/stop_all_tasks > Stop all active tasks of template > 204 > application/json`, capabilityWrapper('template'));
hooks.before(`template > ${P}/templates/{template_id} > Get template > 200 > application/json`, capabilityWrapper('template'));
hooks.before(`template > ${P}/templates/{template_id} > Updates template > 204 > application/json`, capabilityWrapper('template'));
hooks.before(`template > ${P}/templates/{template_id} > Removes template > 204 > application/json`, capabilityWrapper('template'));

if (DEVELOP) for (const name of PRO_ONLY) hooks.before(name, skipTest);

hooks.before(`task > ${P}/tasks > Starts a job > 201 > application/json`, capabilityWrapper('template'));
hooks.before(`task > ${P}/tasks/last > Get last 200 Tasks related to current project > 200 > application/json`, capabilityWrapper('template'));
hooks.before(`task > ${P}/tasks/{task_id} > Get a single task > 200 > application/json`, capabilityWrapper('task'));
hooks.before(`task > ${P}/tasks/{task_id} > Deletes task (including output) > 204 > application/json`, capabilityWrapper('task'));
hooks.before(`task > ${P}/tasks/{task_id}/output > Get task output > 200 > application/json`, capabilityWrapper('task'));
hooks.before(`task > ${P}/tasks/{task_id}/raw_output > Get task raw output > 200 > text/plain; charset=utf-8`, capabilityWrapper('task'));
hooks.before(`task > ${P}/tasks/{task_id}/stop > Stop a job > 204 > application/json`, capabilityWrapper('task'));

hooks.before(`schedule > ${P}/schedules/{schedule_id} > Get schedule > 200 > application/json`, capabilityWrapper('schedule'));
hooks.before(`schedule > ${P}/schedules/{schedule_id} > Updates schedule > 204 > application/json`, capabilityWrapper('schedule'));
hooks.before(`schedule > ${P}/schedules/{schedule_id} > Deletes schedule > 204 > application/json`, capabilityWrapper('schedule'));

hooks.before(`project > ${P}/views/{view_id} > Get view > 200 > application/json`, capabilityWrapper('view'));
hooks.before(`project > ${P}/views/{view_id} > Updates view > 204 > application/json`, capabilityWrapper('view'));
hooks.before(`project > ${P}/views/{view_id} > Removes view > 204 > application/json`, capabilityWrapper('view'));

hooks.before(`project > ${P}/backup > Get backup > 200 > application/json`, step(() => addCapabilities(['repository', 'inventory', 'environment', 'view', 'template'])));

if (DEVELOP) {
  for (const summary of ['{runner_id} > Get global runner > 200', '{runner_id} > Update global runner > 204', '{runner_id} > Delete global runner > 204',
    '{runner_id}/active > Set global runner active state > 204', '{runner_id}/cache > Clear global runner cache > 204']) {
    hooks.before(`runner > /api/runners/${summary} > application/json`, capabilityWrapper('global_runner'));
  }
}

// last, as in Go: after every other before-hook, the ids go into the path and the body
hooks.beforeAll((transactions) => {
  for (const transaction of transactions) hooks.before(transaction.name, setupObjectsAndPaths);
});

// Not in the Go hooks: each outcome is written down for the test that runs Dredd (by name, which
// Dredd's own report does not print).
if (process.env.SIGNALBOX_DREDD_RESULTS) {
  const { appendFileSync } = require('node:fs');
  hooks.afterEach((transaction) => {
    const test = transaction.test || {};
    const message = [transaction.fail, test.message].filter((m) => typeof m === 'string' && m).join(' ');
    appendFileSync(process.env.SIGNALBOX_DREDD_RESULTS, `${JSON.stringify({ name: transaction.name, status: test.status || (transaction.skip ? 'skip' : 'fail'), message })}\n`);
  });
}
