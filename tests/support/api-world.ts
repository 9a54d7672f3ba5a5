import { insertTask } from './project-rows.ts';
import { ADMIN, type Auth, type TestResponse, type TestServer } from './harness.ts';

/** The secret values an API world stores, so tests can look for them in responses and logs. */
export const WORLD_SECRETS = {
  privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----\nworld-private-key-5d2e8f\n-----END OPENSSH PRIVATE KEY-----',
  passphrase: 'world-passphrase-81c4',
  keyPassword: 'world-login-password-3b9a',
  varSecret: 'world-var-secret-6e1f',
  envSecret: 'world-env-secret-0a7d',
  environmentPassword: 'world-vault-password-47cc',
  integrationSecret: 'world-hmac-secret-92fe',
  memberPassword: 'world-member-password-d41b',
  storageToken: 'hvs.world-storage-token-8e3b',
  alertHookToken: 'world-alert-hook-token-5a0c',
  alertBotToken: 'world-alert-bot-token-2d7e',
  eventSigningSecret: 'world-event-signing-secret-c61b',
} as const;

/** Ids of everything an API world holds, named as the spec's path parameters. */
export interface ApiWorld {
  admin: Auth;
  /** bearer header of the admin's API token */
  bearer: Auth;
  /** the admin's API token, as shown once at creation */
  token: string;
  base: string;
  ids: {
    project_id: number; key_id: number; login_key_id: number; repository_id: number; inventory_id: number;
    environment_id: number; view_id: number; template_id: number; schedule_id: number; integration_id: number;
    matcher_id: number; extractvalue_id: number; project_alias_id: number; integration_alias_id: number;
    user_id: number; task_id: number; api_token_id: string;
    /** a queued task (nothing runs it in tests), for stop */
    waiting_task_id: number;
    /** a user in no project */
    outsider_id: number;
    /** a runner of the project (tag "edge") and a global one, both unregistered */
    runner_id: number;
    global_runner_id: number;
    /** a host config mapping the ssh key to a host name */
    host_config_id: number;
    /** a pending invitation of an email address nobody has yet, as a guest */
    invite_id: number;
    /** a secret storage (token auth) whose URL answers nothing */
    storage_id: number;
    channel_id: number;
    webhook_id: number;
    /** a read-only wall board token for the project */
    board_token_id: number;
    /** a workflow (approval → the template) whose run waits at the approval node `node_id`; its first version */
    workflow_id: number;
    run_id: number;
    node_id: number;
    version_number: number;
    /** a custom project role nobody holds */
    role_id: number;
    /** a server-wide role (/api/roles) nobody holds */
    server_role_id: number;
  };
  /** the invitation's one-time token, answered once at its creation */
  inviteToken: string;
  /** resources nothing refers to, so they can be deleted (the `ids` ones are in use) */
  spare: { key_id: number; repository_id: number; inventory_id: number; environment_id: number; template_id: number; workflow_id: number; role_id: number; server_role_id: number };
}

/** Who a world is used by: the admin's session, a member (a manager of the world's project) and a user in no project. */
export interface WorldPeople { admin: Auth; memberId: number; outsiderId: number }

/** The people of a world, to make another world with (its own project and resources, the same people). */
export function peopleOf(w: ApiWorld): WorldPeople {
  return { admin: w.admin, memberId: w.ids.user_id, outsiderId: w.ids.outsider_id };
}

/**
 * The people a world is used by: the admin signed in, a member and an outsider, each with a
 * password. Three bcrypt rounds, most of what a world costs (about 0.75 s of 0.85 s on SQLite).
 */
async function createWorldPeople(s: TestServer, tag: string): Promise<WorldPeople> {
  const admin = await s.login(ADMIN.login, ADMIN.password);
  const addUser = async (name: string, login: string): Promise<number> => {
    const res = await s.call('POST', '/api/users', { name, username: `${login}-${tag}`, email: `${login}-${tag}@example.test`, password: WORLD_SECRETS.memberPassword }, admin);
    if (res.status !== 201 && res.status !== 200) throw new Error(`world: POST /api/users answered ${res.status} ${res.text}`);
    return res.body.id;
  };
  return { admin, memberId: await addUser('Member', 'member'), outsiderId: await addUser('Outsider', 'outsider') };
}

/**
 * A project with one of every resource, created through the API as the env admin (ssh and
 * login_password keys, repository, inventory, variable group with secrets, view, template,
 * schedule, integration with matcher, value and aliases, a manager member), plus a finished and
 * a waiting task row inserted straight into the database (no engine runs in tests), and a pending
 * invitation by email. `people` from another world (`peopleOf`) are used instead of new ones.
 * @example const w = await createApiWorld(s); await s.call('GET', `${w.base}/keys`, undefined, w.admin);
 */
export async function createApiWorld(s: TestServer, { people, tag = `${Date.now()}${Math.floor(Math.random() * 1e6)}` }: { people?: WorldPeople; tag?: string } = {}): Promise<ApiWorld> {
  const { admin, memberId, outsiderId } = people ?? await createWorldPeople(s, tag);
  const post = async (path: string, body: unknown, expected = [200, 201]): Promise<TestResponse> => {
    const res = await s.call('POST', path, body, admin);
    if (!expected.includes(res.status)) throw new Error(`world: POST ${path} answered ${res.status} ${res.text}`);
    return res;
  };
  const project = (await post('/api/projects', { name: `World ${tag}` })).body;
  const base = `/api/project/${project.id}`;
  const key = (await post(`${base}/keys`, {
    name: 'Deploy key', type: 'ssh', ssh: { login: 'deploy', private_key: WORLD_SECRETS.privateKey, passphrase: WORLD_SECRETS.passphrase },
  })).body;
  const loginKey = (await post(`${base}/keys`, {
    name: 'Vault password', type: 'login_password', login_password: { login: 'vault', password: WORLD_SECRETS.keyPassword },
  })).body;
  const integrationKey = (await post(`${base}/keys`, {
    name: 'Webhook secret', type: 'login_password', login_password: { login: '', password: WORLD_SECRETS.integrationSecret },
  })).body;
  const repository = (await post(`${base}/repositories`, { name: 'Repo', git_url: '/srv/world-repo', git_branch: 'main', ssh_key_id: key.id })).body;
  const inventory = (await post(`${base}/inventory`, { name: 'Hosts', type: 'static', inventory: 'localhost', ssh_key_id: key.id, become_key_id: loginKey.id })).body;
  const environment = (await post(`${base}/environment`, {
    name: 'Prod', json: '{"region":"eu"}', env: '{"MODE":"prod"}', password: WORLD_SECRETS.environmentPassword,
    secrets: [
      { operation: 'create', type: 'var', name: 'DB_PASSWORD', secret: WORLD_SECRETS.varSecret },
      { operation: 'create', type: 'env', name: 'API_TOKEN', secret: WORLD_SECRETS.envSecret },
    ],
  })).body;
  const view = (await post(`${base}/views`, { title: 'Deploys', position: 0 })).body;
  const template = (await post(`${base}/templates`, {
    name: 'Deploy', app: 'ansible', playbook: 'site.yml', repository_id: repository.id, inventory_id: inventory.id,
    environment_id: environment.id, view_id: view.id, vaults: [{ type: 'password', vault_key_id: loginKey.id }],
  })).body;
  const schedule = (await post(`${base}/schedules`, { name: 'Nightly', template_id: template.id, cron_format: '0 3 * * *', active: true })).body;
  const integration = (await post(`${base}/integrations`, {
    name: 'Hook', template_id: template.id, auth_method: 'hmac', auth_header: 'X-Hub-Signature-256', auth_secret_id: integrationKey.id, searchable: true,
  })).body;
  const integrationsBase = `${base}/integrations/${integration.id}`;
  const matcher = (await post(`${integrationsBase}/matchers`, { name: 'main only', match_type: 'body', key: 'ref', method: 'equals', value: 'refs/heads/main', body_data_type: 'json' })).body;
  const value = (await post(`${integrationsBase}/values`, { name: 'commit', value_source: 'body', body_data_type: 'json', key: 'after', variable: 'COMMIT' })).body;
  const projectAlias = (await post(`${base}/integrations/aliases`, undefined)).body;
  const integrationAlias = (await post(`${integrationsBase}/aliases`, undefined)).body;
  await post(`${base}/users`, { user_id: memberId, role: 'manager' }, [204]);
  const spareKey = (await post(`${base}/keys`, { name: 'Spare key', type: 'none' })).body;
  const spare = {
    key_id: spareKey.id,
    repository_id: (await post(`${base}/repositories`, { name: 'Spare repo', git_url: '/srv/spare', git_branch: 'main', ssh_key_id: key.id })).body.id,
    inventory_id: (await post(`${base}/inventory`, { name: 'Spare hosts', type: 'static', inventory: 'localhost', ssh_key_id: key.id })).body.id,
    environment_id: (await post(`${base}/environment`, { name: 'Spare vars', json: '{}' })).body.id,
    template_id: (await post(`${base}/templates`, {
      name: 'Spare', app: 'bash', playbook: 'run.sh', repository_id: repository.id, inventory_id: inventory.id, environment_id: environment.id,
    })).body.id,
    workflow_id: 0,
    role_id: (await post(`${base}/roles`, { name: 'Spare role', permissions: 1 })).body.id,
    server_role_id: (await post('/api/roles', { name: `Spare server role ${tag}`, permissions: 1 })).body.id,
  };
  const token = (await post('/api/user/tokens', { name: `world ${tag}` })).body;
  // unregistered, as runners waiting for `signalbox runner register` are (registration tokens can be made)
  const runner = (await post(`${base}/runners`, { name: `Edge ${tag}`, tag: 'edge', registered: false })).body;
  const globalRunner = (await post('/api/runners', { name: `Shared ${tag}`, registered: false })).body;
  const task = await insertTask(s.deps.db, { projectId: project.id, templateId: template.id, status: 'success', userId: memberId });
  const waitingTask = await insertTask(s.deps.db, { projectId: project.id, templateId: template.id, status: 'waiting', userId: memberId });
  const hostConfig = (await post(`${base}/host_configs`, { type: 'host', host: 'web1.example.test', ssh_key_id: key.id })).body;
  const invite = (await post(`${base}/invites`, { email: `invitee-${tag}@example.test`, role: 'guest' })).body;
  // a storage nothing answers for (port 9 on loopback): its token is one more secret that must never come back
  const storage = (await post(`${base}/secret_storages`, { name: 'World vault', type: 'vault', params: { url: 'http://127.0.0.1:9', auth_method: 'token' }, secret: WORLD_SECRETS.storageToken })).body;
  const workflow = (await post(`${base}/workflows`, {
    name: 'Release', nodes: [{ id: 1, kind: 'approval', name: 'approve' }, { id: 2, kind: 'task', name: 'deploy', template_id: template.id }],
    edges: [{ source_node_id: 1, destination_node_id: 2 }],
  })).body;
  const workflowRun = (await post(`${base}/workflows/${workflow.id}/run`, undefined)).body;
  spare.workflow_id = (await post(`${base}/workflows`, { name: 'Spare flow', nodes: [{ id: 1, kind: 'delay', delay_seconds: 5 }] })).body.id;
  // alert channels and an event webhook nothing answers for: their URL token, bot token and signing secret must never come back
  const channel = (await post(`${base}/alert-channels`, { kind: 'webhook', name: 'World hook', url: `http://127.0.0.1:9/hook?token=${WORLD_SECRETS.alertHookToken}` })).body;
  await post(`${base}/alert-channels`, { kind: 'telegram', name: 'World chat', chat_id: '-100', token: WORLD_SECRETS.alertBotToken });
  const eventWebhook = (await post(`${base}/event-webhooks`, { name: 'World events', url: 'http://127.0.0.1:9/events', secret: WORLD_SECRETS.eventSigningSecret, events: ['task_started'] })).body;
  const role = (await post(`${base}/roles`, { name: 'Deployer', permissions: 1 | 16 })).body;
  const serverRole = (await post('/api/roles', { name: `Auditor ${tag}`, permissions: 1024 | 16 })).body;
  const boardToken = (await post('/api/board/tokens', { name: 'World board', project_ids: [project.id] })).body;
  return {
    admin, base, token: token.id, bearer: { authorization: `Bearer ${token.id}` },
    ids: {
      project_id: project.id, key_id: key.id, login_key_id: loginKey.id, repository_id: repository.id, inventory_id: inventory.id,
      environment_id: environment.id, view_id: view.id, template_id: template.id, schedule_id: schedule.id, integration_id: integration.id,
      matcher_id: matcher.id, extractvalue_id: value.id, project_alias_id: projectAlias.id, integration_alias_id: integrationAlias.id,
      user_id: memberId, task_id: task.id, api_token_id: token.id, outsider_id: outsiderId, waiting_task_id: waitingTask.id,
      runner_id: runner.id, global_runner_id: globalRunner.id,
      host_config_id: hostConfig.id, invite_id: invite.id,
      storage_id: storage.id, channel_id: channel.id, webhook_id: eventWebhook.id, board_token_id: boardToken.id,
      workflow_id: workflow.id, run_id: workflowRun.id, node_id: workflow.nodes[0].id, version_number: 1, role_id: role.id, server_role_id: serverRole.id,
    },
    inviteToken: invite.token,
    spare,
  };
}
