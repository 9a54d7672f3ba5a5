import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type Auth, type TestServer } from '../support/harness.ts';
import { buildWorld, type World } from '../support/world.ts';
import { enrolConfirmedTotp, totpCode } from '../support/totp.ts';
import { findUserById } from '../../src/server/domain/users/user.repository.ts';
import { FRESH_SESSION_MS } from '../../src/server/auth/reauthentication.ts';

describe('account security changes need the current password or a TOTP code (issue 27, item 11)', () => {
  let s: TestServer;
  let w: World;
  let stolen: Auth;

  beforeAll(async () => { s = await startTestServer('sqlite', { SEMAPHORE_TOTP_ENABLED: 'true' }); });
  beforeEach(async () => {
    w = await buildWorld(s.deps.db);
    stolen = { authorization: `Bearer ${w.tokens.guest}` };
  });
  afterAll(async () => { await s.close(); });

  const enrolGuest = async () => {
    const { db, secrets, config } = s.deps;
    return enrolConfirmedTotp(db, (await findUserById(db, w.users.guest.id))!, secrets, config.totp);
  };
  const totpRows = () => s.deps.db.selectFrom('user_totp').select('id').where('user_id', '=', w.users.guest.id).execute();
  const signsIn = async (password: string) => (await s.call('POST', '/api/auth/login', { auth: w.users.guest.username, password })).status;

  it('a stolen token cannot remove two-factor authentication without the password', async () => {
    const totp = await enrolGuest();
    const path = `/api/users/${w.users.guest.id}/2fas/totp/${totp.id}`;
    const bare = await s.call('DELETE', path, undefined, stolen);
    expect(bare.status).toBe(400);
    expect(bare.body.error).toMatch(/^current_password: /);
    expect((await s.call('DELETE', path, { current_password: 'a guess' }, stolen)).status).toBe(400);
    expect(await totpRows()).toHaveLength(1);
    expect((await s.call('DELETE', path, { current_password: w.password }, stolen)).status).toBe(204);
    expect(await totpRows()).toHaveLength(0);
  });

  it('accepts a code from the authenticator app instead of the password', async () => {
    const totp = await enrolGuest();
    const code = totpCode(totp.url);
    expect((await s.call('DELETE', `/api/users/${w.users.guest.id}/2fas/totp/${totp.id}`, { passcode: code }, w.auth.guest)).status).toBe(204);
    expect(await totpRows()).toHaveLength(0);
  });

  it('a stolen token cannot change the password without the current one; guessing it is throttled', async () => {
    const path = `/api/users/${w.users.guest.id}/password`;
    expect((await s.call('POST', path, { password: 'taken-over-1' }, stolen)).status).toBe(400);
    const guesses: number[] = [];
    for (let i = 0; i < 7; i++) guesses.push((await s.call('POST', path, { password: 'taken-over-1', current_password: `guess-${i}` }, stolen)).status);
    expect(guesses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(guesses.slice(5)).toEqual([429, 429]);
    // the guesses count as failed sign-ins of the guest from this address: forget them, then the old password still works
    await s.deps.db.deleteFrom('login_attempt').execute();
    expect(await signsIn('taken-over-1')).toBe(401);
    expect(await signsIn(w.password)).toBe(204);
  });

  it('a change with the current password ends the other sessions and keeps the one that made it', async () => {
    const here = await s.login(w.users.guest.username, w.password);
    const elsewhere = w.auth.guest;
    const res = await s.call('POST', `/api/users/${w.users.guest.id}/password`, { password: 'rotated-pass-2', current_password: w.password }, here);
    expect(res.status, res.text).toBe(204);
    expect((await s.call('GET', '/api/user', undefined, here)).status).toBe(200);
    expect((await s.call('GET', '/api/user', undefined, elsewhere)).status).toBe(401);
    expect(await signsIn('rotated-pass-2')).toBe(204);
  });

  it("takes the own password change of a browser session signed in within the hour without a proof, as Semaphore's account dialog sends it", async () => {
    const here = await s.login(w.users.guest.username, w.password);
    const path = `/api/users/${w.users.guest.id}/password`;
    expect((await s.call('POST', path, { password: 'from-the-dialog-3' }, here)).status).toBe(204);
    expect(await signsIn('from-the-dialog-3')).toBe(204);
    // a session signed in longer ago proves who it is again, as a token always does
    const old = new Date(Date.now() - FRESH_SESSION_MS - 60_000).toISOString();
    await s.deps.db.updateTable('session').set({ created: old }).where('user_id', '=', w.users.guest.id).execute();
    const stale = await s.call('POST', path, { password: 'from-an-old-tab-4' }, here);
    expect([stale.status, stale.body.error]).toEqual([400, 'current_password: required to change your own account']);
    expect((await s.call('POST', path, { password: 'from-a-token-5' }, stolen)).status).toBe(400);
    expect(await signsIn('from-the-dialog-3')).toBe(204);
  });

  it('does not ask an admin who changes another user', async () => {
    const totp = await enrolGuest();
    expect((await s.call('POST', `/api/users/${w.users.guest.id}/password`, { password: 'set-by-admin-3' }, w.auth.admin)).status).toBe(204);
    expect((await s.call('DELETE', `/api/users/${w.users.guest.id}/2fas/totp/${totp.id}`, undefined, w.auth.admin)).status).toBe(204);
    expect(await signsIn('set-by-admin-3')).toBe(204);
  });
});
