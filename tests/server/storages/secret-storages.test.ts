import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startEngineServer, taskLog, waitForTask, type EngineServer } from '../../support/engine.ts';
import { listenOnLoopback } from '../../support/listen.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../../support/runner-process.ts';
import { enqueueTask } from '../../../src/server/domain/tasks/enqueue-task.ts';
import { startFakeVault, type FakeVault } from '../../fakes/vault/fake-vault.ts';

const VAULT_TOKEN = 'hvs.reader-token-5e1f';
const DB_PASSWORD = 'storage-db-password-83c1d';
const API_TOKEN = 'storage-api-token-27ab9e';
const ROLE_SECRET = 'storage-role-value-f00d';
const JWT_SECRET = 'storage-jwt-value-c0ffee';
const REMOTE_SECRET = 'storage-remote-value-b7a2';
const ALL_VALUES = [DB_PASSWORD, API_TOKEN, ROLE_SECRET, JWT_SECRET, REMOTE_SECRET];
const REGISTRATION = 'registration-secret-33aa';

/**
 * Secret storages against the Vault contract double (tests/fakes/vault): CRUD on Semaphore's
 * shapes, keys and variable-group secrets pointing at `path#field`, read at task start by the
 * server (token, AppRole and the task's own JWT, verified against Signalbox's JWKS) and by a
 * remote runner process; a storage that does not answer and a missing secret fail the task
 * before it starts with one line; no value read ever reaches the database, the logs or a response.
 */
describe('secret storages (HashiCorp Vault / OpenBao, KV v2)', () => {
  let e: EngineServer;
  let stop: () => Promise<void>;
  let vault: FakeVault;
  let scripts: string;
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let base: string;
  let runner: RunnerChild | undefined;
  const consoleLines: string[] = [];
  const responses: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await e.s.call(method, path, body, e.admin);
    responses.push(res.text);
    return res;
  };
  const storage = async (name: string, params: Record<string, unknown>, secret?: string) => {
    const res = await call('POST', `${base}/secret_storages`, { project_id: fixture.project.id, name, type: 'vault', params: { url: vault.url, ...params }, ...(secret ? { secret } : {}) });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number };
  };
  const groupWith = async (name: string, secrets: Record<string, unknown>[]) => {
    const res = await call('POST', `${base}/environment`, { project_id: fixture.project.id, name, json: '{}', env: '{}', secrets });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number };
  };
  const template = (fields: Record<string, unknown>) =>
    insertTemplate(e.s.deps.db, fixture.project.id, { repository_id: fixture.repository.id, inventory_id: fixture.inventory.id, ...fields } as never);
  const run = async (fields: Record<string, unknown> | { id: number }) => {
    const made = 'id' in fields ? fields as { id: number } : await template(fields);
    return runTemplate(made.id);
  };
  const runTemplate = async (templateId: number) => {
    const task = await enqueueTask(e.s.deps, { projectId: fixture.project.id, templateId, userId: 1 } as never);
    const done = await waitForTask(e.s.deps.db, task.id, undefined, 90_000);
    return { done, log: (await taskLog(e.s.deps.db, task.id)).join('\n') };
  };

  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error', 'info'] as const) {
      const original = console[level].bind(console);
      console[level] = (...args: unknown[]) => { consoleLines.push(args.map(String).join(' ')); original(...args); };
    }
    vault = await startFakeVault();
    e = await startEngineServer('sqlite', { SEMAPHORE_JWT_ENABLED: 'true', SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SIGNALBOX_RUNNER_POLL_HOLD_MS: '3000' });
    stop = await listenOnLoopback(e.s);
    vault.put('secret', 'ci/db', { password: DB_PASSWORD, user: 'deployer' });
    vault.put('secret', 'ci/api', { token: API_TOKEN });
    vault.put('kv', 'apps/role', { value: ROLE_SECRET });
    vault.put('secret', 'tasks/jwt', { value: JWT_SECRET });
    vault.put('secret', 'remote/x', { value: REMOTE_SECRET });
    vault.addToken(VAULT_TOKEN, ['secret/data/ci/', 'secret/data/remote/']);
    vault.addAppRole('role-1', 'approle-secret-id', ['kv/data/apps/']);
    vault.configureJwt({ jwks_url: `${e.s.config.web_host}/.well-known/jwks.json`, bound_issuer: e.s.config.web_host });
    scripts = join(e.s.tmp, 'scripts');
    mkdirSync(scripts);
    // compares inside the task and prints the value: the log must only ever show the mask
    writeFileSync(join(scripts, 'check.sh'), '[ "$EXPECT" = "$GOT" ] && echo "value matches"; echo "value=$GOT"\n');
    fixture = await insertProjectWithTemplate(e.s.deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'check.sh' });
    base = `/api/project/${fixture.project.id}`;
  }, 120_000);

  afterAll(async () => {
    await stopRunner(runner);
    await stop?.();
    await e?.close();
    await vault?.close();
  });

  it('CRUD on Semaphore\'s shape: the credential goes in, never out; validation answers 400', async () => {
    const created = await storage('Vault CI', { mount: 'secret', auth_method: 'token' }, VAULT_TOKEN);
    expect(created).toMatchObject({ name: 'Vault CI', type: 'vault', readonly: true, has_secret: true, params: { url: vault.url, mount: 'secret', auth_method: 'token', kv_version: 2 } });
    const list = await call('GET', `${base}/secret_storages`);
    expect(list.body).toHaveLength(1);
    expect(list.text).not.toContain(VAULT_TOKEN);
    const put = await call('PUT', `${base}/secret_storages/${created.id}`, { id: created.id, project_id: fixture.project.id, name: 'Vault CI', type: 'openbao', params: { url: vault.url, mount: 'secret' }, secret: '' });
    expect(put.status, put.text).toBe(204);
    expect((await call('GET', `${base}/secret_storages/${created.id}`)).body).toMatchObject({ type: 'openbao', has_secret: true });
    const row = await e.s.deps.db.selectFrom('secret_storage').select('secret').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(VAULT_TOKEN);
    expect(e.s.deps.secrets.open(row.secret!)).toBe(VAULT_TOKEN);
    for (const [body, field] of [
      [{ name: 'x', type: 'vault', params: { url: 'ftp://nope' }, secret: 't' }, 'params.url'],
      [{ name: 'x', type: 'aws', params: { url: vault.url }, secret: 't' }, 'type'],
      [{ name: 'x', type: 'vault', params: { url: vault.url, auth_method: 'approle' }, secret: 's' }, 'params.role_id'],
      [{ name: 'x', type: 'vault', params: { url: vault.url, auth_method: 'token' } }, 'secret'],
      [{ name: 'x', type: 'vault', params: { url: vault.url, auth_method: 'jwt' } }, 'params.role'],
    ] as const) {
      const res = await call('POST', `${base}/secret_storages`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toContain(field);
    }
  });

  it('test connection signs in now: ok with the right token, the storage\'s answer without it', async () => {
    const good = await storage('Tested', { auth_method: 'token' }, VAULT_TOKEN);
    expect((await call('POST', `${base}/secret_storages/${good.id}/test`)).body).toEqual({ ok: true });
    const bad = await storage('Wrong token', { auth_method: 'token' }, 'hvs.wrong');
    const answer = await call('POST', `${base}/secret_storages/${bad.id}/test`);
    expect(answer.body).toEqual({ ok: false, error: 'Wrong token: answered 403: permission denied' });
  });

  it('a key and a variable-group secret read at task start by the server (token auth), masked, listed as uses, and the storage cannot go while used', async () => {
    const vaultCi = await storage('Vault tasks', { auth_method: 'token' }, VAULT_TOKEN);
    const key = await call('POST', `${base}/keys`, { project_id: fixture.project.id, name: 'DB login', type: 'login_password', login_password: { login: 'deployer' }, source_storage_id: vaultCi.id, source_storage_key: 'ci/db#password' });
    expect(key.status, key.text).toBe(201);
    expect(key.body).toMatchObject({ source_storage_id: vaultCi.id, source_storage_key: 'ci/db#password' });
    const group = await groupWith('From Vault', [
      { type: 'env', name: 'GOT', source_storage_id: vaultCi.id, source_storage_key: 'ci/api#token', operation: 'create' },
      { type: 'env', name: 'EXPECT', secret: API_TOKEN, operation: 'create' },
    ]);
    const refs = await call('GET', `${base}/secret_storages/${vaultCi.id}/refs`);
    expect(refs.body).toEqual({ keys: [{ id: key.body.id, name: 'DB login', type: 'login_password' }], secrets: [expect.objectContaining({ name: 'GOT', type: 'env', environment_id: group.id })] });
    const del = await call('DELETE', `${base}/secret_storages/${vaultCi.id}`);
    expect(del.status).toBe(400);
    expect(del.body.error).toContain('in use');
    const { done, log } = await run({ name: 'Reads token', playbook: 'check.sh', environment_id: group.id });
    expect(done.status, log).toBe('success');
    expect(log).toContain('value matches');
    expect(log).toContain('value=********');
    expect(vault.requests.some((r) => r.path === '/v1/secret/data/ci/api' && r.token === VAULT_TOKEN)).toBe(true);
    // the key itself, as the inventory's become key: read from the storage at start as well
    await e.s.deps.db.updateTable('inventory').set({ become_key_id: key.body.id }).where('id', '=', fixture.inventory.id).execute();
    const withKey = await run({ name: 'Uses key', playbook: 'check.sh', environment_id: group.id });
    expect(withKey.done.status, withKey.log).toBe('success');
    expect(vault.requests.some((r) => r.path === '/v1/secret/data/ci/db')).toBe(true);
    await e.s.deps.db.updateTable('inventory').set({ become_key_id: null }).where('id', '=', fixture.inventory.id).execute();
  });

  it('AppRole sign-in, with another mount', async () => {
    const approle = await storage('AppRole', { mount: 'kv', auth_method: 'approle', role_id: 'role-1' }, 'approle-secret-id');
    const group = await groupWith('AppRole group', [
      { type: 'env', name: 'GOT', source_storage_id: approle.id, source_storage_key: 'apps/role#value', operation: 'create' },
      { type: 'env', name: 'EXPECT', secret: ROLE_SECRET, operation: 'create' },
    ]);
    const { done, log } = await run({ name: 'AppRole task', playbook: 'check.sh', environment_id: group.id });
    expect(done.status, log).toBe('success');
    expect(log).toContain('value matches');
    expect(vault.requests.some((r) => r.path === '/v1/auth/approle/login')).toBe(true);
    // the token signed in for the run is given back once the values are read
    const login = vault.requests.findLast((r) => r.path === '/v1/auth/approle/login')!;
    const read = vault.requests.findLast((r) => r.path === '/v1/kv/data/apps/role')!;
    expect(vault.revoked).toContain(read.token);
    expect(vault.requests.indexOf(read)).toBeGreaterThan(vault.requests.indexOf(login));
  });

  it('the task\'s own JWT signs in (Vault\'s jwt auth checks it against Signalbox\'s JWKS and the role\'s bound claims)', async () => {
    const jwtStorage = await storage('By JWT', { auth_method: 'jwt', role: 'deployer' });
    const group = await groupWith('JWT group', [
      { type: 'env', name: 'GOT', source_storage_id: jwtStorage.id, source_storage_key: 'tasks/jwt#value', operation: 'create' },
      { type: 'env', name: 'EXPECT', secret: JWT_SECRET, operation: 'create' },
    ]);
    const fields = { playbook: 'check.sh', environment_id: group.id, jwt_enabled: 1, jwt_audience: JSON.stringify(['vault.example.test']) };
    const bound = await template({ name: 'JWT task', ...fields });
    vault.addJwtRole('deployer', { bound_audiences: ['vault.example.test'], bound_claims: { project_id: String(fixture.project.id), template_id: String(bound.id) }, user_claim: 'sub', readPrefixes: ['secret/data/tasks/'] });
    const { done, log } = await run(bound);
    expect(done.status, log).toBe('success');
    expect(log).toContain('value matches');
    expect(vault.jwtLogins.at(-1)).toMatchObject({ sub: `task:${done.id}`, project_id: fixture.project.id, iss: e.s.config.web_host });
    expect(vault.revoked).toContain(vault.requests.findLast((r) => r.path === '/v1/secret/data/tasks/jwt')!.token);
    // another template of the project is not bound to the role: refused, the task fails before it starts
    const other = await run({ name: 'Other JWT task', ...fields });
    expect(other.done.status).toBe('error');
    expect(other.done.start).toBeNull();
    expect(other.log).toMatch(/Secret storage "By JWT" could not give tasks\/jwt#value: sign-in: answered 400: error validating claims: claim "template_id"/);
  });

  it('a storage that does not answer fails the task before it starts, with one line naming the storage and the path', async () => {
    const slow = await storage('Slow vault', { auth_method: 'token' }, VAULT_TOKEN);
    const group = await groupWith('Slow group', [{ type: 'env', name: 'GOT', source_storage_id: slow.id, source_storage_key: 'ci/api#token', operation: 'create' }]);
    vault.hang(true);
    try {
      const { done, log } = await run({ name: 'Slow task', playbook: 'check.sh', environment_id: group.id });
      expect(done.status).toBe('error');
      expect(done.start).toBeNull();
      const lines = log.split('\n').filter((l) => l.includes('Slow vault'));
      expect(lines).toEqual(['Secret storage "Slow vault" could not give ci/api#token: no answer within 10 s']);
      expect(log).not.toContain('value=');
    } finally {
      vault.hang(false);
    }
  });

  it('a storage nothing listens at fails the task the same way, with the one text for an unreachable service', async () => {
    // a port that was just free: nothing listens there any more
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const gone = await storage('Gone vault', { url: `http://127.0.0.1:${port}`, auth_method: 'token' }, VAULT_TOKEN);
    const group = await groupWith('Gone group', [{ type: 'env', name: 'GOT', source_storage_id: gone.id, source_storage_key: 'ci/api#token', operation: 'create' }]);
    const { done, log } = await run({ name: 'Gone task', playbook: 'check.sh', environment_id: group.id });
    expect(done.status).toBe('error');
    expect(log).toContain('Secret storage "Gone vault" could not give ci/api#token: could not reach the service');
  });

  it('a missing secret or field fails the task the same way, never with an empty value', async () => {
    const store = await storage('Vault missing', { auth_method: 'token' }, VAULT_TOKEN);
    for (const [ref, problem] of [['ci/nothing#password', 'answered 404'], ['ci/db#nofield', 'has no field "nofield" there']]) {
      const group = await groupWith(`Missing ${ref}`, [{ type: 'env', name: 'GOT', source_storage_id: store.id, source_storage_key: ref, operation: 'create' }]);
      const { done, log } = await run({ name: `Missing ${ref}`, playbook: 'check.sh', environment_id: group.id });
      expect(done.status).toBe('error');
      expect(log).toContain(`Secret storage "Vault missing" could not give ${ref}: ${problem}`);
      expect(log).not.toContain('value=');
    }
  });

  it('a remote runner reads the value itself: the server hands over the reference and the task\'s JWT, never the value', async () => {
    const dir = join(e.s.tmp, 'runner');
    const env = runnerEnv(e.s.config.web_host, dir, { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION });
    await registerRunner(env, ['--name', 'storage-runner', '--tags', 'remote']);
    runner = startRunner(env);
    await until('the runner polling', async () => runner!.output().includes('runner started'), 90_000);
    const remote = await storage('Remote vault', { auth_method: 'token' }, VAULT_TOKEN);
    const group = await groupWith('Remote group', [
      { type: 'env', name: 'GOT', source_storage_id: remote.id, source_storage_key: 'remote/x#value', operation: 'create' },
      { type: 'env', name: 'EXPECT', secret: REMOTE_SECRET, operation: 'create' },
    ]);
    writeFileSync(join(scripts, 'remote.sh'), `[ "$EXPECT" = "$GOT" ] && echo "value matches"; echo "value=$GOT"; [ -n "$SEMAPHORE_JWT" ] && echo "has a token"; printf '%s' "$SEMAPHORE_JWT" > "${scripts}/remote.jwt"\n`);
    const before = vault.requests.length;
    const { done, log } = await run({ name: 'Remote task', playbook: 'remote.sh', environment_id: group.id, runner_tag: 'remote', jwt_enabled: 1 });
    expect(done.status, log).toBe('success');
    expect(done.runner_id).not.toBeNull();
    expect(log).toContain('value matches');
    expect(log).toContain('value=********');
    expect(log).toContain('has a token');
    expect(vault.requests.slice(before).some((r) => r.path === '/v1/secret/data/remote/x')).toBe(true);
    expect(runner.output()).not.toContain(REMOTE_SECRET);
    // the token the server minted for the runner verifies against the server's keys, for this task
    const { payload } = await jwtVerify(readFileSync(join(scripts, 'remote.jwt'), 'utf8'), createRemoteJWKSet(new URL(`${e.s.config.web_host}/.well-known/jwks.json`)), { issuer: e.s.config.web_host });
    expect(payload).toMatchObject({ sub: `task:${done.id}`, project_id: fixture.project.id, user_id: 1 });
  });

  it('no value read from a storage is in the database file, the task logs, the server\'s console or any response', async () => {
    const file = e.s.config.db.host;
    const bytes = [file, `${file}-wal`, `${file}-shm`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('\n');
    expect(bytes.length).toBeGreaterThan(0);
    const logs = (await e.s.deps.db.selectFrom('task_output').select('output').execute()).map((r) => r.output).join('\n');
    // (the EXPECT secrets the test stored itself are sealed: in clear, no value appears anywhere)
    for (const value of ALL_VALUES) {
      expect(bytes).not.toContain(value);
      expect(logs).not.toContain(value);
      expect(consoleLines.join('\n')).not.toContain(value);
      expect(responses.join('\n')).not.toContain(value);
    }
    expect(bytes).not.toContain(VAULT_TOKEN);
    // a configured token is the storage owner's: it is never revoked
    expect(vault.revoked).not.toContain(VAULT_TOKEN);
  });
});
