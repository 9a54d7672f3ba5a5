import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, ADMIN, type ConsoleServer } from './support/console-server.ts';
import { follow, launchBrowser, newContext, screenshot, signIn } from './support/browser.ts';
import { previousStepCode, totpCode as codeFor } from '../support/totp.ts';

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  server = await startConsoleServer({ SEMAPHORE_TOTP_ENABLED: 'true', SEMAPHORE_TOTP_ALLOW_RECOVERY: 'true' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signOut(page: Page, baseUrl: string): Promise<void> {
  await page.click('.user-menu summary');
  await Promise.all([page.waitForURL(`${baseUrl}/auth/login`), page.click('.user-menu form[action="/auth/logout"] button')]);
}

async function submitPassword(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await page.fill('input[name=auth]', ADMIN.login);
  await page.fill('input[name=password]', ADMIN.password);
  await follow(page, 'button[type=submit]');
}

describe('two-factor sign-in in the console', { timeout: 90_000 }, () => {
  let secret = '';
  let recoveryCode = '';

  it('enrols in the Security tab of Edit account with the password: QR image, secret and recovery code shown once, then a code confirms it', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server.url, '/');
    await page.click('.user-menu summary');
    await Promise.all([page.waitForURL(/\/users\/\d+\/edit$/), page.click('.user-menu >> text=Edit account')]);
    await Promise.all([page.waitForURL(/tab=security/), page.click('nav.tabs >> text=Security')]);
    const turnOn = 'form:has(input[value=totp_on])';
    await page.fill(`${turnOn} input[name=current_password]`, 'not-my-password');
    await follow(page, `${turnOn} button`);
    expect(await page.textContent('[role=alert]')).toContain('The current password or code is not correct');
    expect(await server.deps.db.selectFrom('user_totp').selectAll().execute()).toEqual([]);
    await page.fill(`${turnOn} input[name=current_password]`, ADMIN.password);
    await follow(page, `${turnOn} button`);
    expect(await page.getAttribute('.enrolment img', 'src')).toMatch(/^data:image\/png;base64,/);
    secret = (await page.textContent('[data-totp-secret]'))!.trim();
    recoveryCode = (await page.textContent('[data-recovery-code]'))!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(recoveryCode).toMatch(/^[A-Z2-7]{16}$/);
    await screenshot(page, 'two-factor-enrolment');
    // on a phone the QR image, the secret and the confirm form fit the screen
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await page.locator('.enrolment').evaluate((e) => e.getBoundingClientRect().right)).toBeLessThanOrEqual(375);
    await screenshot(page, 'two-factor-enrolment-375');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.click('.enrolment button[data-copied]');
    await page.waitForFunction(() => document.querySelector('.enrolment button[data-copied]')?.textContent === 'Recovery code copied', undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(recoveryCode);

    // a wrong code leaves it pending: the tab says so and asks again, without the secret
    await page.fill('.enrolment input[name=passcode]', codeFor(secret, 6));
    await follow(page, '.enrolment form.totp-confirm button');
    expect(await page.textContent('[role=alert]')).toContain('Incorrect verification code');
    expect(await page.textContent('main')).toContain('Two-factor authentication is not on yet');
    expect(await page.textContent('form:has(input[value=totp_off]) button')).toBe('Cancel the setup');
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'two-factor-pending');
    await page.fill('form.totp-confirm input[name=passcode]', await previousStepCode(secret));
    await follow(page, 'form.totp-confirm button');
    expect(await page.textContent('.snackbar')).toContain('Two-factor authentication turned on');
    // shown once: the Security tab afterwards only says two-factor is on
    await page.goto(`${server.url}${new URL(page.url()).pathname}?tab=security`);
    expect(await page.textContent('main')).toContain('Two-factor authentication is on');
    expect(await page.content()).not.toContain(secret);
    await signOut(page, server.url);
  });

  it('asks for the code after the password, refuses a wrong one and signs in with the right one', async () => {
    const page = await (await newContext(browser)).newPage();
    await submitPassword(page, server.url);
    expect(await page.isVisible('input[name=passcode]')).toBe(true);
    await screenshot(page, 'two-factor-verification');
    // the field submits by itself when six digits are in
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.waitForResponse((r) => r.request().method() === 'POST'), page.fill('input[name=passcode]', codeFor(secret, 6))]);
    await page.waitForSelector('[role=alert]');
    expect(await page.textContent('[role=alert]')).toContain('Incorrect verification code');
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/auth/')), page.fill('input[name=passcode]', codeFor(secret))]);
    expect(await page.textContent('.user-menu summary')).toContain(ADMIN.name);
    await signOut(page, server.url);
  });

  it('signs in with the recovery code without JavaScript, and says two-factor is now off', async () => {
    const page = await (await newContext(browser, { javaScriptEnabled: false })).newPage();
    await submitPassword(page, server.url);
    await follow(page, 'text=Use a recovery code');
    await page.fill('input[name=recovery_code]', recoveryCode);
    await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/auth/')), page.click('button[type=submit]')]);
    expect(await page.textContent('.snackbar')).toContain('two-factor authentication is now off');
    const rows = await server.deps.db.selectFrom('user_totp').selectAll().execute();
    expect(rows).toEqual([]);
  });
});
