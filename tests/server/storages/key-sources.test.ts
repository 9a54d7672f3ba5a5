import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { DIALECTS, freshDatabase } from '../../support/dialects.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { taskLog, waitForTask } from '../../support/engine.ts';
import { ADMIN } from '../../support/harness.ts';
import { freePort, startServerProcess, startTaskOverHttp, type ServerProcess } from '../../support/server-process.ts';
import { registerRunner, runnerEnv, startRunner, stopRunner, until, type RunnerChild } from '../../support/runner-process.ts';

const ENV_VALUE = 'env-sourced-value-5d1e9a';
const FILE_VALUE = 'file-sourced-value-7c42b0';
const OUTSIDE_VALUE = 'outside-value-never-read-91f3';
const NOT_ALLOWED_VALUE = 'not-allowed-env-value-3e8d';
const REGISTRATION = 'sources-registration-5b0c';

/**
 * Keys and variable-group secrets read at task start from the server process's own environment
 * or a file (Semaphore's `source_storage_type` env / file), against a real `signalbox server`
 * process: only sources on the admin's `secret_sources` list may be named (400 otherwise), a
 * source refused or gone at start fails the task with one line, the value is masked and is
 * never in the database, a response or the server's output.
 */
describe.each(DIALECTS)('keys from the server environment or a file (%s)', (dialect) => {
  let tmp: string;
  let port: number;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess | null = null;
  let db: Db;
  let drop: () => Promise<void>;
  let cookie = '';
  let fixture: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
  let base: string;
  let secretsDir: string;
  let runner: RunnerChild | undefined;
  const responses: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method, headers: { 'content-type': 'application/json', cookie }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    responses.push(text);
    return { status: res.status, text, body: text ? JSON.parse(text) : null };
  };
  const signIn = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
    });
    cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  };
  const start = async (extra: NodeJS.ProcessEnv) => {
    server = await startServerProcess({ ...env, ...extra }, port);
    await signIn();
  };
  const restart = async (extra: NodeJS.ProcessEnv) => {
    server!.child.kill('SIGTERM');
    await new Promise((r) => server!.child.once('exit', r));
    await start(extra);
  };
  const group = async (name: string, secrets: Record<string, unknown>[]) => {
    const res = await call('POST', `${base}/environment`, { project_id: fixture.project.id, name, json: '{}', env: '{}', secrets });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; secrets: Record<string, unknown>[] };
  };
  const run = async (name: string, fields: Record<string, unknown>) => {
    const template = await insertTemplate(db, fixture.project.id, { name, repository_id: fixture.repository.id, inventory_id: fixture.inventory.id, playbook: 'check.sh', ...fields });
    const id = await startTaskOverHttp(port, fixture.project.id, template.id);
    const done = await waitForTask(db, id, undefined, 90_000);
    return { done, log: (await taskLog(db, id)).join('\n') };
  };
  const allowed = () => ({ SEMAPHORE_SECRET_SOURCES_ENV: 'DEPLOY_*, SINGLE_NAME', SEMAPHORE_SECRET_SOURCES_DIRS: secretsDir });

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-key-sources-'));
    port = await freePort();
    secretsDir = join(tmp, 'secrets');
    mkdirSync(secretsDir);
    mkdirSync(join(tmp, 'outside'));
    writeFileSync(join(secretsDir, 'deploy-token'), `${FILE_VALUE}\n`);
    writeFileSync(join(tmp, 'outside', 'token'), OUTSIDE_VALUE);
    symlinkSync(join(tmp, 'outside', 'token'), join(secretsDir, 'escape'));
    const scripts = join(tmp, 'scripts');
    mkdirSync(scripts);
    // compares inside the task and prints the value: the log must only ever show the mask
    writeFileSync(join(scripts, 'check.sh'), '[ -n "$GOT" ] && [ "$EXPECT" = "$GOT" ] && echo "value matches"; echo "value=$GOT"\n');
    const database = await freshDatabase(dialect, tmp);
    drop = database.drop;
    const settings = database.settings;
    env = {
      ...process.env, SEMAPHORE_DB_DIALECT: dialect, SEMAPHORE_DB_HOST: settings.host, SEMAPHORE_PORT: String(port),
      ...(settings.user ? { SEMAPHORE_DB_USER: settings.user } : {}), ...(settings.name ? { SEMAPHORE_DB: settings.name } : {}),
      SEMAPHORE_TMP_PATH: join(tmp, 'work'), SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password,
      DEPLOY_TOKEN: ENV_VALUE, OTHER_TOKEN: NOT_ALLOWED_VALUE,
      SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION, SIGNALBOX_RUNNER_POLL_HOLD_MS: '3000',
    };
    await start(allowed());
    db = openDatabase(settings);
    fixture = await insertProjectWithTemplate(db, { ownerId: 1, gitUrl: scripts, playbook: 'check.sh' });
    base = `/api/project/${fixture.project.id}`;
  }, 180_000);

  afterAll(async () => {
    await stopRunner(runner);
    server?.child.kill('SIGKILL');
    await db?.destroy();
    await drop?.();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('a key names an allowed variable or file: stored as a reference only, Semaphore\'s field names, unknown fields ignored', async () => {
    const fromEnv = await call('POST', `${base}/keys`, {
      project_id: fixture.project.id, name: 'From env', type: 'login_password', login_password: { login: 'deployer' },
      source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN', source_storage_mount: 'ignored', a_field_from_later: true,
    });
    expect(fromEnv.status, fromEnv.text).toBe(201);
    expect(fromEnv.body).toMatchObject({ source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN', source_storage_id: null, login_password: { login: '', password: '' } });
    const fromFile = await call('POST', `${base}/keys`, {
      project_id: fixture.project.id, name: 'From file', type: 'ssh', ssh: { login: 'root' },
      source_storage_type: 'file', source_storage_key: `${secretsDir}/./deploy-token`,
    });
    expect(fromFile.status, fromFile.text).toBe(201);
    expect(fromFile.body).toMatchObject({ source_storage_type: 'file', source_storage_key: join(secretsDir, 'deploy-token') });
    const list = await call('GET', `${base}/keys`);
    const listed = (list.body as { name: string; empty?: boolean; source_storage_type: string | null }[]).filter((k) => k.name.startsWith('From '));
    expect(listed.map((k) => [k.name, k.source_storage_type, k.empty ?? false])).toEqual([['From env', 'env', false], ['From file', 'file', false]]);
    const row = await db.selectFrom('access_key').selectAll().where('id', '=', fromEnv.body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN', source_storage_id: null });
  });

  it('a source outside the allow-list, a bad name or path, or a mixed source answers 400 and writes nothing', async () => {
    const before = await db.selectFrom('access_key').select('id').execute();
    const key = (fields: Record<string, unknown>) => ({ project_id: fixture.project.id, name: 'Refused', type: 'login_password', login_password: { login: 'x' }, ...fields });
    for (const [body, words] of [
      [key({ source_storage_type: 'env', source_storage_key: 'OTHER_TOKEN' }), 'OTHER_TOKEN is not among the allowed secret sources'],
      [key({ source_storage_type: 'env', source_storage_key: 'DEPLOY TOKEN' }), 'environment variable name'],
      [key({ source_storage_type: 'env', source_storage_key: '' }), 'source_storage_key: required'],
      [key({ source_storage_type: 'file', source_storage_key: join(tmp, 'outside', 'token') }), 'not inside an allowed directory'],
      [key({ source_storage_type: 'file', source_storage_key: `${secretsDir}/../outside/token` }), 'not inside an allowed directory'],
      [key({ source_storage_type: 'file', source_storage_key: 'secrets/deploy-token' }), 'absolute file path'],
      [key({ source_storage_type: 'file', source_storage_key: secretsDir }), 'not inside an allowed directory'],
      [key({ source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN', source_storage_id: 1 }), 'source_storage_id'],
      [key({ source_storage_type: 'vault' }), 'source_storage_id: required'],
      [key({ source_storage_type: 'disk', source_storage_key: 'x' }), 'source_storage_type'],
      [{ ...key({ source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN' }), type: 'none' }, 'type none holds nothing'],
    ] as const) {
      const res = await call('POST', `${base}/keys`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error, JSON.stringify(body)).toContain(words);
    }
    const secret = await call('POST', `${base}/environment`, {
      project_id: fixture.project.id, name: 'Refused group', json: '{}', env: '{}',
      secrets: [{ type: 'env', name: 'GOT', source_storage_type: 'env', source_storage_key: 'OTHER_TOKEN', operation: 'create' }],
    });
    expect(secret.status).toBe(400);
    expect(secret.body.error).toContain('secrets.0.source_storage_key: OTHER_TOKEN is not among the allowed secret sources');
    expect(await db.selectFrom('access_key').select('id').execute()).toHaveLength(before.length);
    // a change of source is checked the same way, and leaves the key as it was
    const existing = await db.selectFrom('access_key').selectAll().where('project_id', '=', fixture.project.id).where('name', '=', 'From env').executeTakeFirstOrThrow();
    const put = await call('PUT', `${base}/keys/${existing.id}`, { id: existing.id, project_id: fixture.project.id, name: 'From env', type: 'login_password', override_secret: true, login_password: { login: 'x' }, source_storage_type: 'env', source_storage_key: 'OTHER_TOKEN' });
    expect(put.status).toBe(400);
    expect(put.body.error).toContain('OTHER_TOKEN is not among the allowed secret sources');
    expect(await db.selectFrom('access_key').selectAll().where('id', '=', existing.id).executeTakeFirstOrThrow()).toEqual(existing);
  });

  it('variable-group secrets read at task start from the server\'s environment and from a file reach the task, masked', async () => {
    const fromEnv = await group('Env sourced', [
      { type: 'env', name: 'GOT', source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN', operation: 'create' },
      { type: 'env', name: 'EXPECT', secret: ENV_VALUE, operation: 'create' },
    ]);
    expect(fromEnv.secrets.find((s) => s.name === 'GOT')).toMatchObject({ source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN', secret: '' });
    const envRun = await run('Env secret', { environment_id: fromEnv.id });
    expect(envRun.done.status, envRun.log).toBe('success');
    expect(envRun.log).toContain('value matches');
    expect(envRun.log).toContain('value=********');
    const fromFile = await group('File sourced', [
      { type: 'env', name: 'GOT', source_storage_type: 'file', source_storage_key: join(secretsDir, 'deploy-token'), operation: 'create' },
      { type: 'env', name: 'EXPECT', secret: FILE_VALUE, operation: 'create' },
    ]);
    const fileRun = await run('File secret', { environment_id: fromFile.id });
    expect(fileRun.done.status, fileRun.log).toBe('success');
    expect(fileRun.log).toContain('value matches');
    expect(fileRun.log).toContain('value=********');
    // a new value in the file is read by the next task: nothing was kept
    writeFileSync(join(secretsDir, 'deploy-token'), `${FILE_VALUE}-2\n`);
    const stale = await run('File secret changed', { environment_id: fromFile.id });
    expect(stale.done.status, stale.log).toBe('success');
    expect(stale.log).not.toContain('value matches');
    writeFileSync(join(secretsDir, 'deploy-token'), `${FILE_VALUE}\n`);
  });

  it('a key used by the task is read at start; a link out of the allowed directory or a missing file fails the task with one line', async () => {
    const key = await call('POST', `${base}/keys`, {
      project_id: fixture.project.id, name: 'Become from env', type: 'login_password', login_password: { login: 'deployer' },
      source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN',
    });
    await db.updateTable('inventory').set({ become_key_id: key.body.id }).where('id', '=', fixture.inventory.id).execute();
    const ok = await run('Key from env', {});
    expect(ok.done.status, ok.log).toBe('success');
    const escape = await group('Escape', [{ type: 'env', name: 'GOT', source_storage_type: 'file', source_storage_key: join(secretsDir, 'escape'), operation: 'create' }]);
    const escaped = await run('Escape link', { environment_id: escape.id });
    expect(escaped.done.status).toBe('error');
    expect(escaped.log).toContain(`Secret source file ${join(secretsDir, 'escape')} could not be read: ${join(secretsDir, 'escape')} leads outside the allowed directories`);
    expect(escaped.log).not.toContain('value=');
    // a FIFO where a file was expected is refused, not waited on
    execFileSync('mkfifo', [join(secretsDir, 'pipe')]);
    const fifo = await group('Fifo', [{ type: 'env', name: 'GOT', source_storage_type: 'file', source_storage_key: join(secretsDir, 'pipe'), operation: 'create' }]);
    const piped = await run('Fifo file', { environment_id: fifo.id });
    expect(piped.done.status).toBe('error');
    expect(piped.log).toContain(`${join(secretsDir, 'pipe')} is not a regular file`);
    writeFileSync(join(secretsDir, 'soon-gone'), 'x');
    const gone = await group('Gone', [{ type: 'env', name: 'GOT', source_storage_type: 'file', source_storage_key: join(secretsDir, 'soon-gone'), operation: 'create' }]);
    unlinkSync(join(secretsDir, 'soon-gone'));
    const missing = await run('Missing file', { environment_id: gone.id });
    expect(missing.done.status).toBe('error');
    expect(missing.log).toContain(`Secret source file ${join(secretsDir, 'soon-gone')} could not be read: the file ${join(secretsDir, 'soon-gone')} cannot be read`);
    await db.updateTable('inventory').set({ become_key_id: null }).where('id', '=', fixture.inventory.id).execute();
  });

  it('a remote runner gets the value the server read from its own environment (the runner has no such variable)', async () => {
    const dir = join(tmp, 'runner');
    const runnerVars = runnerEnv(`http://127.0.0.1:${port}`, dir, { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: REGISTRATION });
    expect(runnerVars.DEPLOY_TOKEN).toBeUndefined();
    await registerRunner(runnerVars, ['--name', 'sources-runner', '--tags', 'remote']);
    runner = startRunner(runnerVars);
    await until('the runner polling', async () => runner!.output().includes('runner started'), 90_000);
    const remote = await group('Remote env', [
      { type: 'env', name: 'GOT', source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN', operation: 'create' },
      { type: 'env', name: 'EXPECT', secret: ENV_VALUE, operation: 'create' },
    ]);
    const { done, log } = await run('Remote env secret', { environment_id: remote.id, runner_tag: 'remote' });
    expect(done.status, log).toBe('success');
    expect(done.runner_id).not.toBeNull();
    expect(log).toContain('value matches');
    expect(log).toContain('value=********');
    expect(runner.output()).not.toContain(ENV_VALUE);
    await stopRunner(runner);
  });

  it('after the admin narrows the list, a key naming a source no longer allowed fails its task with a clear line', async () => {
    const key = await call('POST', `${base}/keys`, {
      project_id: fixture.project.id, name: 'Become narrowed', type: 'login_password', login_password: { login: 'deployer' },
      source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN',
    });
    expect(key.status, key.text).toBe(201);
    await restart({ SEMAPHORE_SECRET_SOURCES_ENV: 'SINGLE_NAME', SEMAPHORE_SECRET_SOURCES_DIRS: secretsDir });
    await db.updateTable('inventory').set({ become_key_id: key.body.id }).where('id', '=', fixture.inventory.id).execute();
    const refused = await run('Narrowed list', {});
    expect(refused.done.status).toBe('error');
    expect(refused.log).toContain('Secret source env DEPLOY_TOKEN could not be read: DEPLOY_TOKEN is not among the allowed secret sources (secret_sources.env)');
    await db.updateTable('inventory').set({ become_key_id: null }).where('id', '=', fixture.inventory.id).execute();
    await restart(allowed());
  });

  it('backups carry the reference; a restore keeps it only where this server allows the source', async () => {
    const backup = await call('GET', `${base}/backup`);
    expect(backup.status, backup.text).toBe(200);
    const keys = backup.body.keys as Record<string, unknown>[];
    expect(keys.find((k) => k.name === 'From env')).toMatchObject({ source_storage_type: 'env', source_storage_key: 'DEPLOY_TOKEN' });
    const restored = await call('POST', '/api/projects/restore', { ...backup.body, meta: { ...backup.body.meta, name: 'Restored sources' } });
    expect(restored.status, restored.text).toBe(200);
    const row = await db.selectFrom('access_key').selectAll().where('project_id', '=', restored.body.id).where('name', '=', 'From file').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ source_storage_type: 'file', source_storage_key: join(secretsDir, 'deploy-token'), secret: expect.not.stringContaining(FILE_VALUE) });
    const elsewhere = keys.map((k) => (k.name === 'From env' ? { ...k, source_storage_key: 'OTHER_TOKEN' } : k));
    const refused = await call('POST', '/api/projects/restore', { ...backup.body, keys: elsewhere, meta: { ...backup.body.meta, name: 'Refused sources' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('source_storage_key: OTHER_TOKEN is not among the allowed secret sources');
    expect(await db.selectFrom('project').select('id').where('name', '=', 'Refused sources').execute()).toEqual([]);
  });

  it('no value read is in the database, the task logs, the server\'s output or any response', async () => {
    const logs = (await db.selectFrom('task_output').select('output').execute()).map((r) => r.output).join('\n');
    const keys = JSON.stringify(await db.selectFrom('access_key').selectAll().execute());
    const file = dialect === 'sqlite' ? String(env.SEMAPHORE_DB_HOST) : '';
    const bytes = file ? [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('\n') : '';
    for (const value of [OUTSIDE_VALUE, NOT_ALLOWED_VALUE]) expect(logs + keys + bytes + responses.join('\n') + server!.output()).not.toContain(value);
    // ENV_VALUE / FILE_VALUE were stored sealed by the test itself (EXPECT): in clear they appear nowhere
    for (const value of [ENV_VALUE, FILE_VALUE]) {
      expect(logs).not.toContain(value);
      expect(keys).not.toContain(value);
      expect(bytes).not.toContain(value);
      expect(responses.join('\n')).not.toContain(value);
      expect(server!.output()).not.toContain(value);
    }
  });
});
