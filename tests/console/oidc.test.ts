import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';
import { freeLoopbackPort, OIDC_CLIENT, startOidcProvider, type OidcProvider } from '../support/oidc-provider.ts';

const DANA = { email: 'dana@corp.test', name: 'Dana Ops', preferred_username: 'dana', groups: ['ops'] };

let server: ConsoleServer;
let provider: OidcProvider;
let browser: Browser;

beforeAll(async () => {
  const providerPort = await freeLoopbackPort();
  server = await startConsoleServer({
    SEMAPHORE_OIDC_PROVIDERS: JSON.stringify({
      corp: {
        display_name: 'Corp ID', color: '#7b1fa2', provider_url: `http://127.0.0.1:${providerPort}`,
        client_id: OIDC_CLIENT.id, client_secret: OIDC_CLIENT.secret, scopes: ['openid', 'profile', 'email', 'groups'],
        name_claim: 'display_name | name',
      },
    }),
    SEMAPHORE_GROUP_MAPPINGS: JSON.stringify([{ group: 'ops', project_id: 1, role: 'manager' }]),
  });
  await insertProject(server.deps.db, 'Ops');
  provider = await startOidcProvider(providerPort, [`${server.url}/api/auth/oidc/corp/redirect`], { dana: DANA, admin: { ...DANA, email: 'admin@example.test' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await provider?.stop();
  await server?.close();
});

describe('sign-in through a real OpenID provider', { timeout: 90_000 }, () => {
  it('shows the provider button, signs in at the provider and lands signed in with the mapped project role', async () => {
    const context = await newContext(browser);
    // the provider's development pages load a web font; the test machine has no internet
    await context.route(/fonts\.googleapis\.com/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${server.url}/auth/login`);
    const button = page.locator('.oidc a', { hasText: 'Sign in with Corp ID' });
    expect(await button.getAttribute('style')).toContain('#7b1fa2');
    await screenshot(page, 'login-oidc');
    await Promise.all([page.waitForURL((u) => u.port !== new URL(server.url).port), button.click()]);
    await page.fill('input[name=login]', 'dana');
    await page.fill('input[name=password]', 'anything');
    await follow(page, 'button[type=submit]');
    await Promise.all([page.waitForURL((u) => u.origin === server.url && !u.pathname.startsWith('/api/')), page.click('button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe('/project/1/history');
    expect(await page.textContent('.user-menu summary')).toContain('Dana Ops');
    expect(await page.textContent('.project-selector summary')).toContain('Ops');
    expect(await page.textContent('.project-selector summary')).toContain('Manager');
    const dana = await server.deps.db.selectFrom('user').selectAll().where('email', '=', DANA.email).executeTakeFirstOrThrow();
    expect(dana).toMatchObject({ username: 'dana', external: 1, password: '' });
  });

  it('refuses to sign in as a local account that has the same email, back on the sign-in page', async () => {
    const context = await newContext(browser);
    await context.route(/fonts\.googleapis\.com/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${server.url}/auth/login`);
    await Promise.all([page.waitForURL((u) => u.port !== new URL(server.url).port), page.click('.oidc a')]);
    await page.fill('input[name=login]', 'admin');
    await page.fill('input[name=password]', 'anything');
    await follow(page, 'button[type=submit]');
    await Promise.all([page.waitForURL(`${server.url}/auth/login?error=oidc`), page.click('button[type=submit]')]);
    expect(await page.textContent('[role=alert]')).toContain('Sign-in through the identity provider failed');
  });
});
