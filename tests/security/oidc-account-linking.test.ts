import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { launchBrowser, newContext } from '../console/support/browser.ts';
import { freeLoopbackPort, OIDC_CLIENT, startOidcProvider, type OidcAccount, type OidcProvider } from '../support/oidc-provider.ts';
import { now } from '../../src/server/lib/time.ts';

const VICTIM_EMAIL = 'victim@corp.example';
const account = (login: string, email: string, verified: boolean): OidcAccount =>
  ({ email, email_verified: verified, name: login, preferred_username: login, groups: [] });

/** Identities at the provider, by `sub` (the login typed at its form); tests change them between sign-ins. */
const ACCOUNTS: Record<string, OidcAccount> = {
  eve: account('eve', VICTIM_EMAIL, false),
  vic: account('vic', VICTIM_EMAIL, true),
  mallory: account('mallory', VICTIM_EMAIL, true),
  lara: account('lara', 'lara@corp.example', true),
  sam: account('sam', 'sam@corp.example', true),
};

let server: ConsoleServer;
/** the same provider, with external_auth_email_matching left at its default (never) */
let strict: ConsoleServer;
let samId: number;
let provider: OidcProvider;
let browser: Browser;
let victimId: number;

beforeAll(async () => {
  const providerPort = await freeLoopbackPort();
  const providers = JSON.stringify({
    corp: { display_name: 'Corp ID', provider_url: `http://127.0.0.1:${providerPort}`, client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret, scopes: ['openid', 'profile', 'email'] },
  });
  // the adoption of pre-link accounts by verified email is what these cases check (off by default)
  server = await startConsoleServer({ SEMAPHORE_EXTERNAL_AUTH_EMAIL_MATCHING: 'auto', SEMAPHORE_OIDC_PROVIDERS: providers });
  strict = await startConsoleServer({ SEMAPHORE_OIDC_PROVIDERS: providers });
  samId = (await strict.deps.db.insertInto('user').values({ created: now(), username: 'sam', name: 'sam', email: 'sam@corp.example', password: '', admin: 0, external: 1, alert: 0 })
    .returning('id').executeTakeFirstOrThrow()).id;
  const { db } = server.deps;
  const external = (username: string, email: string, admin: number) => db.insertInto('user')
    .values({ created: now(), username, name: username, email, password: '', admin, external: 1, alert: 0 }).returning('id').executeTakeFirstOrThrow();
  // the setup: an admin created the external user `victim`, an admin, before anyone signed in
  victimId = (await external('victim', VICTIM_EMAIL, 1)).id;
  // an LDAP user, linked by its directory sign-in
  const lara = await external('lara', 'lara@corp.example', 0);
  await db.insertInto('external_identity').values({ user_id: lara.id, provider: 'ldap', subject: 'lara', created: now() }).execute();
  provider = await startOidcProvider(providerPort, [`${server.url}/api/auth/oidc/corp/redirect`, `${strict.url}/api/auth/oidc/corp/redirect`], ACCOUNTS);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await provider?.stop();
  await server?.close();
  await strict?.close();
});

/** Signs in at the provider as `login` in a fresh browser; where the browser lands and who the console says is signed in. */
async function signInAs(login: string, at: ConsoleServer = server): Promise<{ url: URL; alert: string | null; user: { id: number } | null }> {
  const context = await newContext(browser);
  // the provider's development pages load a web font; the test machine has no internet
  await context.route(/fonts\.googleapis\.com/, (route) => route.abort());
  const page = await context.newPage();
  await page.goto(`${at.url}/api/auth/oidc/corp/login`);
  await page.fill('input[name=login]', login);
  await page.fill('input[name=password]', 'anything');
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
  await Promise.all([page.waitForURL((u) => u.origin === at.url && !u.pathname.startsWith('/api/')), page.click('button[type=submit]')]);
  const url = new URL(page.url());
  const alert = url.pathname === '/auth/login' ? await page.textContent('[role=alert]') : null;
  const me = await context.request.get(`${at.url}/api/user`);
  const user = me.ok() ? (await me.json()) as { id: number } : null;
  await context.close();
  return { url, alert, user };
}

const links = () => server.deps.db.selectFrom('external_identity').select(['user_id', 'provider', 'subject']).orderBy('id').execute();

describe('OIDC sign-in never takes over an account by an unverified or second identity (issue 27, item 4)', { timeout: 120_000 }, () => {
  it('refuses an identity whose email the provider has not verified, with a clear message', async () => {
    const eve = await signInAs('eve');
    expect(eve.user).toBeNull();
    expect(eve.url.searchParams.get('error')).toBe('oidc_unverified');
    expect(eve.alert).toContain('has not verified');
    expect(await links()).not.toContainEqual(expect.objectContaining({ user_id: victimId }));
  });

  it('links the external user to the first identity with a verified email, then signs it in by its sub alone', async () => {
    expect((await signInAs('vic')).user?.id).toBe(victimId);
    expect(await links()).toContainEqual({ user_id: victimId, provider: 'oidc:corp', subject: 'vic' });
    // the provider now says something else about the email: the link, not the email, decides
    ACCOUNTS.vic = account('vic', 'vic.new@corp.example', false);
    expect((await signInAs('vic')).user?.id).toBe(victimId);
  });

  it('refuses a second identity with the same verified email once the user is linked', async () => {
    await server.deps.db.updateTable('user').set({ email: VICTIM_EMAIL }).where('id', '=', victimId).execute();
    const mallory = await signInAs('mallory');
    expect(mallory.user).toBeNull();
    expect(mallory.url.searchParams.get('error')).toBe('oidc_linked');
    expect(mallory.alert).toContain('already signs in another way');
  });

  it('refuses to take over a user linked to LDAP, even with a verified email', async () => {
    const lara = await signInAs('lara');
    expect(lara.user).toBeNull();
    expect(lara.url.searchParams.get('error')).toBe('oidc_linked');
  });
});

describe('with external_auth_email_matching at its default (never)', { timeout: 120_000 }, () => {
  it('an unlinked identity does not take the external user its verified email names', async () => {
    const sam = await signInAs('sam', strict);
    expect(sam.user).toBeNull();
    expect(sam.url.searchParams.get('error')).toBe('oidc');
    const links = await strict.deps.db.selectFrom('external_identity').select('user_id').execute();
    expect(links).not.toContainEqual({ user_id: samId });
    expect(await strict.deps.db.selectFrom('user').select('id').where('email', '=', 'sam@corp.example').execute()).toEqual([{ id: samId }]);
  });
});
