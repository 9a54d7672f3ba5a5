import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/server/config/config.ts';
import { otherUsersCanRunTheCli, runCli } from '../../support/cli.ts';
import { taskIdentitySource } from '../../../src/server/engine/process/task-identity-source.ts';
import { freePort, startServerProcess } from '../../support/server-process.ts';

const tmp = mkdtempSync(join(tmpdir(), 'signalbox-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('configuration', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000, interface: '', tmp_path: '/tmp/semaphore', web_host: 'http://localhost:3000', max_parallel_tasks: 10,
      non_admin_can_create_project: false, password_login_disable: false, schedule_timezone: 'UTC', admin: null,
    });
    expect(config.db).toMatchObject({ dialect: 'sqlite', host: './data/signalbox.sqlite' });
  });

  it('runs tasks on the host unless an executor image is set; Podman by default, Docker when asked', () => {
    expect(loadConfig({}).executor).toEqual({ engine: 'podman', image: '', pull: 'if-missing' });
    expect(loadConfig({ SEMAPHORE_EXECUTOR: 'docker', SEMAPHORE_EXECUTOR_IMAGE: 'quay.io/ansible/awx-ee:24.6.1', SEMAPHORE_EXECUTOR_PULL: 'always' }).executor)
      .toEqual({ engine: 'docker', image: 'quay.io/ansible/awx-ee:24.6.1', pull: 'always' });
    const file = join(tmp, 'executor.json');
    writeFileSync(file, JSON.stringify({ executor: 'docker', executor_image: 'alpine:3', executor_pull: 'never' }));
    expect(loadConfig({}, { configPath: file }).executor).toEqual({ engine: 'docker', image: 'alpine:3', pull: 'never' });
  });

  it('accepts a port written as ":3000", as Semaphore writes it', () => {
    expect(loadConfig({ SEMAPHORE_PORT: ':3000' }).port).toBe(3000);
    expect(loadConfig({ SEMAPHORE_PORT: '8081' }).port).toBe(8081);
  });

  it('reads Semaphore JSON keys from --config, and lets the environment win', () => {
    const file = join(tmp, 'semaphore.json');
    writeFileSync(file, JSON.stringify({
      dialect: 'postgres', postgres: { host: 'db.internal:5433', user: 'sema', pass: 'secret', name: 'semaphore' },
      port: ':8080', interface: '127.0.0.1', tmp_path: '/srv/tmp', web_host: 'https://ci.example.org/', max_parallel_tasks: 4,
      non_admin_can_create_project: true, password_login_disable: true, schedule: { timezone: 'Europe/Berlin' },
    }));
    const config = loadConfig({}, { configPath: file });
    expect(config).toMatchObject({
      port: 8080, interface: '127.0.0.1', tmp_path: '/srv/tmp', web_host: 'https://ci.example.org', max_parallel_tasks: 4,
      non_admin_can_create_project: true, password_login_disable: true, schedule_timezone: 'Europe/Berlin',
    });
    expect(config.db).toMatchObject({ dialect: 'postgres', host: 'db.internal:5433', user: 'sema', password: 'secret', name: 'semaphore' });
    expect(loadConfig({ SEMAPHORE_PORT: '9000', SEMAPHORE_DB_USER: 'env-user' }, { configPath: file })).toMatchObject({ port: 9000, db: { user: 'env-user' } });
  });

  it.each([
    ['SEMAPHORE_PORT', 'abc'],
    ['SEMAPHORE_PORT', '70000'],
    ['SEMAPHORE_DB_DIALECT', 'mysql'],
    ['SEMAPHORE_MAX_PARALLEL_TASKS', '-1'],
    ['SEMAPHORE_ACCESS_KEY_ENCRYPTION', 'short'],
    ['SEMAPHORE_NON_ADMIN_CAN_CREATE_PROJECT', 'perhaps'],
    ['SEMAPHORE_SCHEDULE_TIMEZONE', 'Mars/Olympus'],
    ['SEMAPHORE_WEB_ROOT', 'not a url'],
    ['SEMAPHORE_PROCESS_UID', 'nobody'],
    ['SEMAPHORE_PROCESS_GID', '-5'],
    ['SEMAPHORE_PROCESS_CHROOT', 'relative/root'],
    ['SEMAPHORE_PROCESS_UID_POOL', '61000'],
    ['SEMAPHORE_PROCESS_UID_POOL', '0-99'],
    ['SEMAPHORE_PROCESS_UID_POOL', '61099-61000'],
    ['SEMAPHORE_TRUSTED_PROXIES', '10.0.0.0/8, proxy.local'],
    ['SEMAPHORE_TRUSTED_PROXIES', '10.0.0.0/33'],
    ['SEMAPHORE_EXECUTOR', 'kubernetes'],
    ['SEMAPHORE_EXECUTOR_IMAGE', '--privileged'],
    ['SEMAPHORE_EXECUTOR_PULL', 'sometimes'],
    ['SEMAPHORE_SECRET_SOURCES_DIRS', 'relative/dir'],
    ['SEMAPHORE_SECRET_SOURCES_DIRS', '/'],
    ['SEMAPHORE_SECRETS_PATH', 'relative'],
    ['SEMAPHORE_EXTERNAL_AUTH_EMAIL_MATCHING', 'sometimes'],
  ])('refuses %s=%s with a ConfigError naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: `));
  });

  it('reads SEMAPHORE_TRUSTED_PROXIES as a list of addresses and CIDRs, empty by default', () => {
    expect(loadConfig({}).trusted_proxies).toEqual([]);
    expect(loadConfig({ SEMAPHORE_TRUSTED_PROXIES: '10.0.0.0/8, ::1 192.168.1.2' }).trusted_proxies).toEqual(['10.0.0.0/8', '::1', '192.168.1.2']);
  });
});

describe('secret sources (keys read from the server environment or files)', () => {
  it('allows nothing by default; reads names, prefixes and directories from config.json or SEMAPHORE_SECRET_SOURCES_*', () => {
    expect(loadConfig({}).secret_sources).toEqual({ env: [], dirs: [] });
    const file = join(tmp, 'sources.json');
    writeFileSync(file, JSON.stringify({ secret_sources: { env: ['DEPLOY_*', 'TOKEN'], dirs: ['/run/secrets'] }, dirs: { secrets_path: '/etc/semaphore/secrets' } }));
    expect(loadConfig({}, { configPath: file }).secret_sources).toEqual({ env: ['DEPLOY_*', 'TOKEN'], dirs: ['/run/secrets', '/etc/semaphore/secrets'] });
    expect(loadConfig({ SEMAPHORE_SECRET_SOURCES_ENV: 'A_*, B', SEMAPHORE_SECRET_SOURCES_DIRS: '/x /y' }, { configPath: file }).secret_sources)
      .toEqual({ env: ['A_*', 'B'], dirs: ['/x', '/y', '/etc/semaphore/secrets'] });
  });
});

describe('external_auth_email_matching', () => {
  it('is never by default; takes Semaphore\'s modes from config.json or SEMAPHORE_EXTERNAL_AUTH_EMAIL_MATCHING', () => {
    expect(loadConfig({}).external_auth_email_matching).toBe('never');
    const file = join(tmp, 'matching.json');
    writeFileSync(file, JSON.stringify({ external_auth_email_matching: 'auto' }));
    expect(loadConfig({}, { configPath: file }).external_auth_email_matching).toBe('auto');
    expect(loadConfig({ SEMAPHORE_EXTERNAL_AUTH_EMAIL_MATCHING: 'always' }, { configPath: file }).external_auth_email_matching).toBe('always');
  });
});

describe('the task process user', () => {
  it('reads Semaphore\'s process section from config.json and SEMAPHORE_PROCESS_* from the environment', () => {
    const file = join(tmp, 'process.json');
    writeFileSync(file, JSON.stringify({ process: { user: 'runner', uid: 1500, gid: 1600, chroot: '/srv/jail', uid_pool: '61000-61099' } }));
    expect(loadConfig({}, { configPath: file }).process).toEqual({ user: 'runner', uid: 1500, gid: 1600, chroot: '/srv/jail', uid_pool: { first: 61000, last: 61099 } });
    expect(loadConfig({ SEMAPHORE_PROCESS_USER: 'other', SEMAPHORE_PROCESS_UID: '1700' }, { configPath: file }).process).toMatchObject({ user: 'other', uid: 1700 });
    expect(loadConfig({ SEMAPHORE_PROCESS_UID_POOL: '62000 - 62000' }).process.uid_pool).toEqual({ first: 62000, last: 62000 });
    expect(loadConfig({}).process).toEqual({ user: '', uid: null, gid: null, chroot: '', uid_pool: null });
  });

  it('takes either a uid pool or one process user, not both', () => {
    const settings = loadConfig({ SEMAPHORE_PROCESS_UID_POOL: '61000-61099', SEMAPHORE_PROCESS_USER: 'runner' }).process;
    expect(() => taskIdentitySource(settings, tmp)).toThrow('SEMAPHORE_PROCESS_UID_POOL: set either a pool or SEMAPHORE_PROCESS_USER/UID/GID, not both');
  });

  const isRoot = process.getuid?.() === 0;
  // As root the test drops to nobody, who cannot start the CLI from a checkout in a private folder.
  it.runIf(!isRoot || otherUsersCanRunTheCli())('stops a server that is not root with one line when a uid pool is set (tasks would all share its user)', async () => {
    const db = join(tmp, 'never-pool.sqlite');
    const nobody = isRoot ? { uid: 65534, gid: 65534 } : null;
    const r = await runCli(['server'], { SEMAPHORE_PROCESS_UID_POOL: '61000-61099', SEMAPHORE_DB_HOST: db }, 20_000, nobody);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual(['signalbox: SEMAPHORE_PROCESS_UID_POOL: running each task as a user of its own needs the server to run as root']);
    expect(existsSync(db)).toBe(false);
  });

  it('stops the server with one line when the process user does not exist', async () => {
    const db = join(tmp, 'never-user.sqlite');
    const r = await runCli(['server'], { SEMAPHORE_PROCESS_USER: 'no-such-user-sb42', SEMAPHORE_DB_HOST: db });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toEqual(['signalbox: SEMAPHORE_PROCESS_USER: no such user "no-such-user-sb42"']);
    expect(existsSync(db)).toBe(false);
  });

  it.runIf(isRoot)('warns once at start when the server runs as root with no process user', async () => {
    const port = await freePort();
    const server = await startServerProcess({ PATH: process.env.PATH ?? '', SEMAPHORE_DB_HOST: join(tmp, 'root.sqlite'), SEMAPHORE_PORT: String(port), SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_TMP_PATH: join(tmp, 'work') }, port);
    server.child.kill('SIGKILL');
    expect(server.output().match(/SEMAPHORE_PROCESS_USER/g)).toHaveLength(1);
    expect(server.output()).toContain('the server runs as root and so does every task');
  });
});

describe('signalbox server with a bad setting', () => {
  it.each([
    ['SEMAPHORE_PORT', 'abc'],
    ['SEMAPHORE_DB_DIALECT', 'mysql'],
    ['SEMAPHORE_MAX_PARALLEL_TASKS', '-1'],
    ['SEMAPHORE_ACCESS_KEY_ENCRYPTION', 'short'],
  ])('exits non-zero with one line naming %s', async (name, value) => {
    const db = join(tmp, `never-${name}.sqlite`);
    const r = await runCli(['server'], { [name]: value, SEMAPHORE_DB_HOST: db });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBeNull();
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(r.stdout).toBe('');
    expect(existsSync(db)).toBe(false);
  });

  it('names the JSON key and file when config.json holds the bad value', async () => {
    const file = join(tmp, 'bad.json');
    writeFileSync(file, JSON.stringify({ port: 'abc' }));
    const r = await runCli(['server', '--config', file], {});
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toMatch(new RegExp(`^signalbox: port in ${file}: `));
  });

  it('migrates the SQLite file named by config.json given with --config', async () => {
    const db = join(tmp, 'from-config.sqlite');
    const file = join(tmp, 'good.json');
    writeFileSync(file, JSON.stringify({ dialect: 'sqlite', sqlite: { host: db }, port: ':3000' }));
    const r = await runCli(['migrate', '--config', file], {});
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/applied: 2026_11_22_00_foundation/);
    expect(existsSync(db)).toBe(true);
  });
});
