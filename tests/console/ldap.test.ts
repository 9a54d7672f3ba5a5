import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, newContext, screenshot } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';
import { LDAP_BASE, LDAP_SERVICE, slapdAvailable, startSlapd, type Slapd } from '../support/slapd.ts';

const FRANK = { uid: 'frank', cn: 'Frank Runner', mail: 'frank@corp.test', password: 'frank-dir-password-1', groups: ['deployers'] };
const runLdap = slapdAvailable() ? describe : describe.skip;

let server: ConsoleServer;
let slapd: Slapd;
let browser: Browser;

runLdap('sign-in through a real OpenLDAP server in the console', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    slapd = await startSlapd([FRANK]);
    server = await startConsoleServer({
      SEMAPHORE_LDAP_ENABLE: 'true', SEMAPHORE_LDAP_SERVER: slapd.server,
      SEMAPHORE_LDAP_BIND_DN: LDAP_SERVICE.dn, SEMAPHORE_LDAP_BIND_PASSWORD: LDAP_SERVICE.password,
      SEMAPHORE_LDAP_SEARCH_DN: `ou=people,${LDAP_BASE}`, SEMAPHORE_LDAP_GROUP_SEARCH_DN: `ou=groups,${LDAP_BASE}`,
      SEMAPHORE_GROUP_MAPPINGS: JSON.stringify([{ group: 'deployers', project_id: 1, role: 'task_runner' }]),
    });
    await insertProject(server.deps.db, 'Deployments');
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await slapd?.stop();
  });

  it('signs a directory user in with the password form and shows the project their group maps to, with that role', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.fill('input[name=auth]', 'frank');
    await page.fill('input[name=password]', FRANK.password);
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/auth/')), page.click('button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe('/project/1/history');
    expect(await page.textContent('.user-menu summary')).toContain('Frank Runner');
    const selector = await page.textContent('.project-selector summary');
    expect(selector).toContain('Deployments');
    expect(selector).toContain('Task runner');
    await screenshot(page, 'ldap-signed-in');
  });
});
