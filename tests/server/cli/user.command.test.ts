import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/server/db/database.ts';
import { verifyPassword } from '../../../src/server/access/password.ts';
import { runCli } from '../../support/cli.ts';

describe('signalbox user (child process on a SQLite file)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-cli-'));
  const env = { SEMAPHORE_DB_HOST: join(tmp, 'cli.sqlite') };
  let db: Db;
  const user = (username: string) => db.selectFrom('user').selectAll().where('username', '=', username).executeTakeFirst();

  beforeAll(async () => {
    const r = await runCli(['migrate'], env);
    expect(r.code).toBe(0);
    db = openDatabase({ dialect: 'sqlite', host: env.SEMAPHORE_DB_HOST });
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('adds an admin with a bcrypt-hashed password', async () => {
    const r = await runCli(['user', 'add', '--login', 'jane', '--name', 'Jane Doe', '--email', 'jane@example.test', '--password', 'pw-jane-1', '--admin'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const row = await user('jane');
    expect(row).toMatchObject({ name: 'Jane Doe', email: 'jane@example.test', admin: 1, external: 0 });
    expect(await verifyPassword('pw-jane-1', row!.password)).toBe(true);
  });

  it('adds a non-admin when --admin is absent, accepting --flag=value too', async () => {
    const r = await runCli(['user', 'add', '--login=bob', '--name=Bob', '--email=bob@example.test', '--password=pw-bob-1'], env);
    expect(r.code).toBe(0);
    expect((await user('bob'))?.admin).toBe(0);
  });

  it('refuses a duplicate login with exit code 1 and a message, adding nothing', async () => {
    const r = await runCli(['user', 'add', '--login', 'jane', '--name', 'Other', '--email', 'other@example.test', '--password', 'x'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/username: "jane" is already taken/);
    expect(await db.selectFrom('user').select('id').where('email', '=', 'other@example.test').execute()).toEqual([]);
  });

  it('refuses add without a required flag', async () => {
    const r = await runCli(['user', 'add', '--login', 'nomail', '--name', 'No Mail', '--password', 'x'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/email: required/);
    expect(await user('nomail')).toBeUndefined();
  });

  it('changes name, email, password and admin flag by login', async () => {
    const r = await runCli(['user', 'change-by-login', '--login', 'bob', '--name', 'Robert', '--email', 'robert@example.test', '--password', 'pw-bob-2', '--admin'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const row = await user('bob');
    expect(row).toMatchObject({ name: 'Robert', email: 'robert@example.test', admin: 1 });
    expect(await verifyPassword('pw-bob-2', row!.password)).toBe(true);
    const demote = await runCli(['user', 'change-by-login', '--login', 'bob', '--no-admin'], env);
    expect(demote.code).toBe(0);
    expect((await user('bob'))).toMatchObject({ name: 'Robert', admin: 0 });
  });

  it('changes a user found by email, leaving unnamed fields alone', async () => {
    const r = await runCli(['user', 'change-by-email', '--email', 'robert@example.test', '--name', 'Bobby'], env);
    expect(r.code).toBe(0);
    expect(await user('bob')).toMatchObject({ name: 'Bobby', email: 'robert@example.test', admin: 0 });
  });

  it('gets a user as JSON without the password hash', async () => {
    const r = await runCli(['user', 'get', '--email', 'jane@example.test'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ username: 'jane', admin: true });
    expect(r.stdout).not.toContain('$2');
  });

  it('lists usernames one per line', async () => {
    const r = await runCli(['user', 'list'], env);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['bob', 'jane']);
  });

  it('deletes by login and by email; an unknown user exits 1', async () => {
    expect((await runCli(['user', 'delete', '--login', 'bob'], env)).code).toBe(0);
    expect((await runCli(['user', 'delete', '--email', 'jane@example.test'], env)).code).toBe(0);
    expect(await db.selectFrom('user').select('id').execute()).toEqual([]);
    const missing = await runCli(['user', 'get', '--login', 'ghost'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no user "ghost"/);
  });

  it('rejects unknown actions and flags with exit code 2', async () => {
    expect((await runCli(['user', 'frobnicate'], env)).code).toBe(2);
    expect((await runCli(['user', 'add', '--bogus', 'x'], env)).code).toBe(2);
  });
});
