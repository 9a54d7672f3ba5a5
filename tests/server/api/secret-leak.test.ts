import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { createApiWorld, WORLD_SECRETS, type ApiWorld } from '../../support/api-world.ts';
import { captureLogs, expectNoSecrets, storedSecretForms } from '../../support/secrets.ts';
import { createGitRepo } from '../../support/git-repo.ts';
import { startGitDaemon } from '../../support/git-daemon.ts';

const ROTATED = { privateKey: 'rotated-private-key-1c7e', password: 'rotated-login-password-8d02', varSecret: 'rotated-var-secret-55ab' };
const NEW_USER_PASSWORD = 'changed-user-password-e3f9';
const WRONG_PASSWORD = 'mistyped-password-6b1c';
const SURVEY_SECRET = 'task-survey-secret-2f7a';
const STATE_PASSWORD = 'terraform-state-password-7c31';
const METRICS_PASSWORD = 'metrics-scrape-password-4e8b';

/** What the test adds to the world: a terraform workspace with a state, and a repository git daemon serves. */
interface Extras {
  workspace: { inventory_id: number; alias: string; alias_id: number; state_id: number };
  servedRepositoryId: number;
  runners: { project: number; global: number };
  lockId: number;
}

/** Path parameters of GET routes filled from the world (the value of the first alternative for `{a|b}`). */
function fillGetPath(w: ApiWorld, extras: Extras, path: string, alias: string): string {
  const byName: Record<string, string | number> = {
    ...w.ids, value_id: w.ids.extractvalue_id, token_id: w.ids.api_token_id, app_id: 'ansible', alias,
    alias_id: path.includes(':integration_id/') ? w.ids.integration_alias_id : w.ids.project_alias_id,
    // the terraform routes name the workspace's own inventory, alias and state
    ...(path.includes('terraform') ? extras.workspace : {}),
    // listing branches asks the remote, which must answer
    ...(path.endsWith('/branches') ? { repository_id: extras.servedRepositoryId } : {}),
    runner_id: path.startsWith('/api/runners') ? extras.runners.global : extras.runners.project,
    lock_id: extras.lockId,
    // /api/roles/:role_id is a server-wide role, the project routes' a project's own
    ...(path.startsWith('/api/roles/') ? { role_id: w.ids.server_role_id } : {}),
    // the world's inventory names one host
    host: 'localhost',
  };
  const filled = path.replace(/:(\w+)/g, (_, name: string) => {
    if (byName[name] === undefined) throw new Error(`no value for :${name} in ${path}`);
    return String(byName[name]);
  });
  // a runner's poll answers at once instead of holding the request open
  if (path === '/api/internal/runners') return `${filled}?wait=0`;
  // a log search needs its text: the survey secret itself, which the masked log must not give back
  return path.endsWith('/output/search') ? `${filled}?q=${encodeURIComponent(SURVEY_SECRET)}` : filled;
}

const basicAuth = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

for (const dialect of DIALECTS) {
  describe(`no secret leaves the server (${dialect})`, () => {
    let s: TestServer;
    const responses: string[] = [];
    const logs: string[] = [];
    let visited: string[] = [];
    let token = '';
    let inviteToken = '';
    const runnerSecrets: string[] = [];
    let daemon: Awaited<ReturnType<typeof startGitDaemon>> | undefined;

    beforeAll(async () => {
      // metrics on, so /api/metrics answers too; its scrape password is one more secret to look for
      // task tokens on, so the JWKS answers too (public keys only: the sealed signing key is one more stored form)
      s = await startTestServer(dialect, { SEMAPHORE_METRICS_ENABLED: 'true', SEMAPHORE_METRICS_USERNAME: 'prometheus', SEMAPHORE_METRICS_PASSWORD: METRICS_PASSWORD, SEMAPHORE_JWT_ENABLED: 'true' });
      const captured = await captureLogs(async () => {
        const w = await createApiWorld(s);
        const record = async (method: string, path: string, body?: unknown, auth = w.admin) => {
          const res = await s.call(method, path, body, auth);
          responses.push(res.text);
          return res;
        };
        // rotate every kind of secret once, so update paths are covered too
        await record('PUT', `${w.base}/keys/${w.ids.key_id}`, { name: 'Deploy key', type: 'ssh', override_secret: true, ssh: { login: 'deploy', private_key: ROTATED.privateKey } });
        await record('PUT', `${w.base}/keys/${w.ids.login_key_id}`, { name: 'Vault password', type: 'login_password', override_secret: true, login_password: { password: ROTATED.password } });
        const group = (await record('GET', `${w.base}/environment/${w.ids.environment_id}`)).body;
        const secret = group.secrets.find((x: { name: string }) => x.name === 'DB_PASSWORD');
        await record('PUT', `${w.base}/environment/${w.ids.environment_id}`, {
          name: 'Prod', json: '{}', secrets: [{ id: secret.id, operation: 'update', type: 'var', name: 'DB_PASSWORD', secret: ROTATED.varSecret }],
        });
        await record('POST', `/api/users/${w.ids.user_id}/password`, { password: NEW_USER_PASSWORD });
        // a survey secret given when starting a task (kept in memory only, never shown)
        await record('PUT', `${w.base}/templates/${w.ids.template_id}`, { survey_vars: [{ name: 'DEPLOY_PASSWORD', title: 'Password', type: 'secret', required: true }] });
        const started = await record('POST', `${w.base}/tasks`, { template_id: w.ids.template_id, secret: JSON.stringify({ DEPLOY_PASSWORD: SURVEY_SECRET }) });
        if (started.status !== 201) throw new Error(`task start failed: ${started.status} ${started.text}`);
        await record('POST', '/api/auth/login', { auth: 'admin', password: WRONG_PASSWORD }, {});
        const alias = (await s.deps.db.selectFrom('integration_alias').select('alias').where('id', '=', w.ids.integration_alias_id).executeTakeFirstOrThrow()).alias;
        const delivery = JSON.stringify({ ref: 'refs/heads/main', after: 'abc123' });
        const signature = `sha256=${createHmac('sha256', WORLD_SECRETS.integrationSecret).update(delivery).digest('hex')}`;
        const hook = await s.api.request(`/api/integrations/${alias}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body: delivery });
        responses.push(await hook.text());
        // a test through an alert channel whose URL holds a token, and updates that keep the sealed secrets
        await record('POST', `${w.base}/alert-channels/${w.ids.channel_id}/test`);
        await record('PUT', `${w.base}/alert-channels/${w.ids.channel_id}`, { kind: 'webhook', name: 'World hook' });
        await record('PUT', `${w.base}/event-webhooks/${w.ids.webhook_id}`, { name: 'World events', url: 'http://127.0.0.1:9/events', events: ['task_started', 'template_changed'] });
        // a terraform workspace whose state backend takes a key's login and password (basic auth)
        const succeeded = async (method: string, path: string, body?: unknown, auth = w.admin) => {
          const res = await record(method, path, body, auth);
          if (res.status >= 300) throw new Error(`${method} ${path} failed: ${res.status} ${res.text}`);
          return res.body;
        };
        const stateKey = await succeeded('POST', `${w.base}/keys`, { name: 'State login', type: 'login_password', login_password: { login: 'ci', password: STATE_PASSWORD } });
        const workspace = await succeeded('POST', `${w.base}/inventory`, { name: 'ws', type: 'terraform-workspace', inventory: 'default', ssh_key_id: w.ids.key_id });
        const tf = `${w.base}/inventory/${workspace.id}/terraform`;
        const stateAlias = await succeeded('POST', `${tf}/aliases`, { auth_key_id: stateKey.id });
        const stateAuth = basicAuth('ci', STATE_PASSWORD);
        const backend = new URL(stateAlias.url).pathname;
        await succeeded('LOCK', backend, { ID: 'leak-check', Operation: 'OperationTypeApply' }, stateAuth);
        await succeeded('POST', `${backend}?ID=leak-check`, { version: 4, serial: 1 }, stateAuth);
        await succeeded('UNLOCK', backend, { ID: 'leak-check' }, stateAuth);
        await record('GET', backend, undefined, basicAuth('ci', WRONG_PASSWORD));
        await record('GET', '/api/metrics', undefined, basicAuth('prometheus', METRICS_PASSWORD));
        const [state] = await succeeded('GET', `${tf}/states`);
        const workspaceIds = { inventory_id: workspace.id, alias: backend.split('/').pop()!, alias_id: stateAlias.id, state_id: state.id };
        // a repository on a real remote (git daemon on loopback), read with the world's ssh key
        createGitRepo(join(s.tmp, 'served', 'site.git'), { 'site.yml': '- hosts: all\n' });
        daemon = await startGitDaemon(join(s.tmp, 'served'));
        const served = await succeeded('POST', `${w.base}/repositories`, { name: 'Served', git_url: `${daemon.url}/site.git`, git_branch: 'main', ssh_key_id: w.ids.key_id });
        // runners: their token and private key are answered once, at creation (kept out of `responses`)
        const createRunner = async (path: string, body: unknown) => {
          const res = await s.call('POST', path, body, w.admin);
          if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${res.text}`);
          runnerSecrets.push(...[res.body.token, res.body.private_key].filter(Boolean));
          return res.body as { id: number; token: string };
        };
        const projectRunner = await createRunner(`${w.base}/runners`, { name: 'Edge', tag: 'edge' });
        const globalRunner = await createRunner('/api/runners', { name: 'Shared' });
        const lock = await succeeded('POST', `${w.base}/locks`, { name: 'prod', capacity: 1 });
        const extras: Extras = { workspace: workspaceIds, servedRepositoryId: served.id, runners: { project: projectRunner.id, global: globalRunner.id }, lockId: lock.id };

        // sign-in redirects and two-factor images answer other than 200: auth-secret-leak.test.ts covers them
        const gets = [...new Set(s.api.routes.filter((r) => r.method === 'GET').map((r) => r.path))]
          .filter((path) => !path.startsWith('/api/auth/oidc/') && !path.includes('/2fas/'));
        for (const path of gets) {
          const url = fillGetPath(w, extras, path, alias);
          // the state backend takes basic auth only; every other route the admin's session
          const auth = path.startsWith('/api/terraform/') ? stateAuth : path === '/api/internal/runners' ? { 'x-runner-token': projectRunner.token } : w.admin;
          const res = await record('GET', url, undefined, auth);
          visited.push(`${res.status} ${url}`);
          // the same through the API token, which must not echo itself back either
          responses.push((await s.call('GET', url, undefined, w.bearer)).text);
        }
        return w;
      });
      logs.push(...captured.lines);
      token = captured.result.token;
      inviteToken = captured.result.inviteToken;
      visited = visited.sort();
    });
    afterAll(async () => {
      daemon?.stop();
      await s.close();
    });

    it('answers every GET route of the API, so the search below covers them all', () => {
      expect(visited.length).toBeGreaterThan(50);
      // the webhook receiver takes only POST: its GET answers 405
      expect(visited.filter((line) => !/^(200|204) /.test(line) && !/^405 \/api\/integrations\/[^/]+$/.test(line))).toEqual([]);
    });

    it('shows no key, password, token or variable secret (plain, base64 or sealed) in any response', async () => {
      const stored = await storedSecretForms(s.deps.db);
      expect(stored.length).toBeGreaterThan(5);
      expectNoSecrets(responses, [...Object.values(WORLD_SECRETS), ...Object.values(ROTATED), NEW_USER_PASSWORD, WRONG_PASSWORD, SURVEY_SECRET, STATE_PASSWORD, METRICS_PASSWORD], stored);
    });

    it('writes no secret to any log line', async () => {
      expectNoSecrets(logs, [...Object.values(WORLD_SECRETS), ...Object.values(ROTATED), NEW_USER_PASSWORD, WRONG_PASSWORD, SURVEY_SECRET, STATE_PASSWORD, METRICS_PASSWORD], await storedSecretForms(s.deps.db));
    });

    it('never returns a runner token or private key after the runner was created', () => {
      expect(runnerSecrets.length).toBeGreaterThanOrEqual(2);
      expectNoSecrets([...responses, ...logs], runnerSecrets, []);
    });

    it('never returns an invitation token after the invitation was created', () => {
      expect(inviteToken.length).toBeGreaterThan(30);
      expectNoSecrets([...responses, ...logs], [inviteToken], []);
    });

    it('never returns an API token after its creation', async () => {
      const tokens = await s.deps.db.selectFrom('api_token').select(['hash', 'prefix']).execute();
      expect(tokens.length).toBeGreaterThan(0);
      expect(token).toHaveLength(44);
      expectNoSecrets([...responses, ...logs], [token, token.toUpperCase()], tokens.map((t) => t.hash));
    });
  });
}
