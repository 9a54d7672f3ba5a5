import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { insertProject } from '../support/fixtures.ts';

let server: ConsoleServer;
let browser: Browser;
let projectId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  projectId = (await insertProject(server.deps.db, 'Runners')).id;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Registers a runner the way `signalbox runner register` does; the status the server answers. */
async function register(token: string): Promise<number> {
  const res = await fetch(`${server.url}/api/internal/runners`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ registration_token: token, tags: ['edge'] }),
  });
  await res.body?.cancel();
  return res.status;
}

const shownToken = async (page: Page) => (await page.locator('[data-registration-token]').textContent())!.trim();
const runnerRow = (name: string) => server.deps.db.selectFrom('runner').select(['id', 'token_hash', 'registration_token_hash']).where('name', '=', name).executeTakeFirstOrThrow();

describe('runner registration tokens in the console', { timeout: 120_000 }, () => {
  it('creates a runner to register later and shows its one-time registration token and command (1280 px)', async () => {
    const page = await signedInPage(browser, server.url, 1280);
    await page.goto(`${server.url}/project/${projectId}/runners?dialog=new`);
    await page.fill('#runner-form input[name=name]', 'later');
    await page.fill('#runner-form input[name=tag]', 'edge');
    await page.check('#runner-form input[name=register_later]');
    await page.click('dialog[open] button[type=submit]');
    await page.waitForSelector('[data-registration-token]');
    const token = await shownToken(page);
    const command = await page.locator('[data-register-command]').textContent();
    expect(command).toContain(`SEMAPHORE_RUNNER_REGISTRATION_TOKEN=${token} npm run --silent cli -- runner register`);
    expect(command).toContain('npm run --silent cli -- runner start');
    expect(await page.locator('tbody tr', { hasText: 'later' }).textContent()).toContain('not registered');
    expect((await runnerRow('later')).token_hash).toBeNull();
    await screenshot(page, 'runner-registration-1280');
    // the token is real, and good once
    expect(await register(token)).toBe(200);
    expect(await register(token)).toBe(400);
    expect((await runnerRow('later')).token_hash).not.toBeNull();
    await page.goto(`${server.url}/project/${projectId}/runners`);
    expect(await page.getByRole('button', { name: 'Registration token for later' }).count()).toBe(0);
    await page.context().close();
  });

  it('gives an unregistered runner a new registration token from its row, replacing the old one (375 px)', async () => {
    const admin = await signedInPage(browser, server.url, 375);
    const created = await admin.request.post(`${server.url}/api/project/${projectId}/runners`, { data: { name: 'spare', tag: 'edge', registered: false } });
    expect(created.status()).toBe(201);
    const first = (await (await admin.request.post(`${server.url}/api/project/${projectId}/runners/${(await created.json()).id}/registration-token`)).json()).registration_token;
    await admin.goto(`${server.url}/project/${projectId}/runners`);
    const button = admin.getByRole('button', { name: 'Registration token for spare' });
    await button.scrollIntoViewIfNeeded();
    await button.click();
    await admin.waitForSelector('[data-registration-token]');
    const second = await shownToken(admin);
    expect(second).not.toBe(first);
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(admin, 'runner-registration-375');
    expect(await register(first)).toBe(400);
    expect(await register(second)).toBe(200);
    await admin.context().close();
  });
});
