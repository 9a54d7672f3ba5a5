import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { LDAP_BASE, LDAP_SERVICE, slapdAvailable, startSlapd, type Slapd } from '../support/slapd.ts';

// Linked sign-ins on the account's Security tab (issue 51), against a real OpenLDAP: a local
// account links its directory account with the directory password (a wrong one is refused in
// words), sees the link and unlinks it; at 375 and 1280 px in both themes.
const DANA_DIR = { uid: 'dana.dir', cn: 'Dana', mail: 'dana@example.test', password: 'dana-dir-password-1', groups: [] };
const DANA_PASSWORD = 'dana-local-password-1';
const runLdap = slapdAvailable() ? describe : describe.skip;

let server: ConsoleServer;
let slapd: Slapd;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let danaId: number;

runLdap('linked sign-ins in the console', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    slapd = await startSlapd([DANA_DIR]);
    server = await startConsoleServer({
      SEMAPHORE_LDAP_ENABLE: 'true', SEMAPHORE_LDAP_SERVER: slapd.server,
      SEMAPHORE_LDAP_BIND_DN: LDAP_SERVICE.dn, SEMAPHORE_LDAP_BIND_PASSWORD: LDAP_SERVICE.password,
      SEMAPHORE_LDAP_SEARCH_DN: `ou=people,${LDAP_BASE}`,
    });
    browser = await launchBrowser();
    const admin = await (await newContext(browser)).newPage();
    await signIn(admin, server.url, '/');
    const made = await admin.request.post(`${server.url}/api/users`, { data: { username: 'dana', name: 'Dana', email: DANA_DIR.mail, password: DANA_PASSWORD }, headers: { Origin: server.url } });
    expect(made.status(), await made.text()).toBe(201);
    danaId = (await made.json()).id;
    await admin.context().close();
    context = await newContext(browser);
    page = await context.newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.fill('input[name=auth]', 'dana');
    await page.fill('input[name=password]', DANA_PASSWORD);
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/auth/')), page.click('button[type=submit]')]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await slapd?.stop();
  });

  const links = () => server.deps.db.selectFrom('external_identity').select(['provider', 'subject']).where('user_id', '=', danaId).execute();

  it('links the directory account with its password, shows it, and unlinks it', async () => {
    await page.goto(`${server.url}/users/${danaId}/edit?tab=security`);
    await page.fill('input[name=ldap_username]', 'dana.dir');
    await page.fill('input[name=ldap_password]', 'not-the-password');
    await follow(page, 'form:has(input[value=link_ldap]) button[type=submit]');
    expect(await page.textContent('[role=alert]')).toContain('Incorrect login or password');
    expect(await links()).toEqual([]);
    await page.fill('input[name=ldap_username]', 'dana.dir');
    await page.fill('input[name=ldap_password]', DANA_DIR.password);
    await follow(page, 'form:has(input[value=link_ldap]) button[type=submit]');
    expect(await page.textContent('body')).toContain('Directory account linked');
    expect(await page.textContent('[data-identities] .identity-list')).toContain('LDAP dana.dir');
    expect(await page.locator('input[name=ldap_username]').count()).toBe(0);
    expect(await links()).toEqual([{ provider: 'ldap', subject: 'dana.dir' }]);
    for (const theme of ['light', 'dark']) {
      await context.addCookies([{ name: 'theme', value: theme, url: server.url }]);
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.url}/users/${danaId}/edit?tab=security`);
        expect(await page.getAttribute('html', 'data-theme')).toBe(theme);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${theme} ${width}`).toBeLessThanOrEqual(0);
        await screenshot(page, `identity-links-${width}-${theme}`);
      }
    }
    await follow(page, 'form:has(input[value=unlink_identity]) button[type=submit]');
    expect(await page.textContent('body')).toContain('Sign-in unlinked');
    expect(await links()).toEqual([]);
    expect(await page.locator('input[name=ldap_username]').count()).toBe(1);
  });
});
