import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { launchBrowser, newContext, signIn } from '../console/support/browser.ts';
import { adminApi, insertScriptProject, waitForTask } from '../console/support/real-tasks.ts';
import { startAttackerSite, type AttackerSite } from './support/attacker-site.ts';

let server: ConsoleServer;
let evil: AttackerSite;
let browser: Browser;
let context: BrowserContext;
let fixture: Awaited<ReturnType<typeof insertScriptProject>>;
let taskId = 0;

beforeAll(async () => {
  server = await startConsoleServer();
  evil = await startAttackerSite({ '/frame': `<!doctype html><iframe id="victim" src="${server.url}/auth/login" width="600" height="400"></iframe>` });
  fixture = await insertScriptProject(server, { 'lines.sh': 'for i in $(seq 1 50); do echo "csp line $i"; done\n' }, 'lines.sh');
  taskId = await (await adminApi(server)).runTask(fixture.project.id, { template_id: fixture.template.id });
  await waitForTask(server.deps.db, taskId);
  browser = await launchBrowser();
  context = await newContext(browser);
});

afterAll(async () => {
  await browser?.close();
  await evil?.close();
  await server?.close();
});

/** A page that records CSP violations (the DOM event and Chromium's console report) and script errors. */
async function watchedPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => { if (/content security policy/i.test(m.text())) problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, problems };
}

describe('security headers', () => {
  it('sends a strict Content-Security-Policy and frame protection on console pages', async () => {
    const res = await fetch(`${server.url}/auth/login`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
  });

  it('sends nosniff and Referrer-Policy on API answers and static files too', async () => {
    for (const path of ['/api/ping', '/api/projects', '/favicon.svg']) {
      const res = await fetch(server.url + path);
      expect([path, res.headers.get('x-content-type-options'), res.headers.get('referrer-policy')]).toEqual([path, 'nosniff', 'same-origin']);
    }
  });

  it('keeps the console working in Chromium with the policy on: no violations, the task log island renders', async () => {
    const { page, problems } = await watchedPage();
    await signIn(page, server.url);
    const id = fixture.project.id;
    for (const path of ['/', '/project/new', '/tasks', `/project/${id}/history`, `/project/${id}/stats`, `/project/${id}/activity`, `/project/${id}/settings`]) {
      await page.goto(server.url + path);
    }
    await page.goto(`${server.url}/project/${id}/history?t=${taskId}`);
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr]'));
    // A finished task opens at its start and only the rows near the screen exist: the island's
    // own End key brings the last line into the page.
    await page.focus('dialog .log');
    await page.keyboard.press('End');
    await page.waitForFunction(() => [...document.querySelectorAll('.log-row')].some((r) => r.textContent?.includes('csp line 50')));
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000); // nine page loads: 2 s alone, past 30 s once on a loaded machine

  it('refuses to be framed by another site', async () => {
    const { page } = await watchedPage();
    await page.goto(`${evil.url}/frame`);
    await page.waitForTimeout(1000);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    const framedText = await frame?.evaluate(() => document.body?.innerText ?? '').catch(() => '') ?? '';
    expect(framedText).not.toContain('Sign in');
    await page.close();
  });
});
