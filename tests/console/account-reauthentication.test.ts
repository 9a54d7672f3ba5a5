import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, ADMIN, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, signIn } from './support/browser.ts';
import { enrolConfirmedTotp } from '../support/totp.ts';
import { findUserByLogin } from '../../src/server/domain/users/user.repository.ts';

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  server = await startConsoleServer({ SEMAPHORE_TOTP_ENABLED: 'true' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function openSecurityTab(page: Page): Promise<void> {
  const admin = (await findUserByLogin(server.deps.db, ADMIN.login))!;
  await page.goto(`${server.url}/users/${admin.id}/edit?tab=security`);
}

describe('the account page asks for the current password before security changes', { timeout: 90_000 }, () => {
  it('turns two-factor off only with the current password, and says so in words when it is wrong', async () => {
    const { db, secrets, config } = server.deps;
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server.url, '/');
    // enrolled after signing in: the session stays verified, the page shows "Turn off"
    await enrolConfirmedTotp(db, (await findUserByLogin(db, ADMIN.login))!, secrets, config.totp);
    await openSecurityTab(page);
    const form = 'form:has(input[value=totp_off])';
    expect(await page.getAttribute(`${form} input[name=current_password]`, 'autocomplete')).toBe('current-password');
    await page.fill(`${form} input[name=current_password]`, 'not-my-password');
    await follow(page, `${form} button`);
    expect(await page.textContent('[role=alert]')).toContain('The current password or code is not correct');
    expect(await db.selectFrom('user_totp').selectAll().execute()).toHaveLength(1);
    await page.fill(`${form} input[name=current_password]`, ADMIN.password);
    await follow(page, `${form} button`);
    expect(await db.selectFrom('user_totp').selectAll().execute()).toEqual([]);
  });

  it('changes the password with the current one, and the new one signs in', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server.url, '/');
    await openSecurityTab(page);
    const form = 'form:has(input[value=password])';
    await page.fill(`${form} input[name=current_password]`, ADMIN.password);
    await page.fill(`${form} input[name=password]`, 'brand-new-password-7');
    await page.fill(`${form} input[name=password_confirm]`, 'brand-new-password-7');
    await follow(page, `${form} button`);
    expect(await page.isVisible('[role=alert]')).toBe(false);
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ auth: ADMIN.login, password: 'brand-new-password-7' }),
    });
    expect(res.status).toBe(204);
  });
});
