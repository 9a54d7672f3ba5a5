import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient, type PageResponse } from './support/http-client.ts';
import { launchBrowser, newContext, signIn } from './support/browser.ts';

let server: ConsoleServer;
let projectId: number;

beforeAll(async () => {
  server = await startConsoleServer();
  const client = createClient(server.url);
  await client.signIn();
  projectId = Number((await client.post('/project/new', { name: 'Demo One' })).location!.split('/')[2]);
});

afterAll(async () => {
  await server?.close();
});

/** Console paths no page serves: typos, unknown project and user screens, screens not built yet. */
const unknownPaths = () => ['/foo', '/foo/bar.html', `/project/${projectId}/nosuch`, `/project/${projectId}/templates/1/nosuch`,
  `/project/${projectId}/schedule/nosuch`, `/project/${projectId}/inventory/nosuch`, `/project/${projectId}/team/1`, '/users/1/nosuch', '/runners/nosuch'];

/** Collects what the server writes to the console while `run` is under way. */
async function capturedLog(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => { lines.push(args.map(String).join(' ')); };
  const spies = [vi.spyOn(console, 'error').mockImplementation(keep), vi.spyOn(console, 'log').mockImplementation(keep),
    vi.spyOn(console, 'warn').mockImplementation(keep), vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => { keep(chunk); return true; })];
  try { await run(); } finally { spies.forEach((s) => s.mockRestore()); }
  return lines.join('\n');
}

describe('unknown console paths', () => {
  it('answer the 404 page inside the shell for a signed-in user, and log no error', async () => {
    const client = createClient(server.url);
    await client.signIn();
    const log = await capturedLog(async () => {
      for (const path of unknownPaths()) {
        const res = await client.get(path);
        expect(res.status, path).toBe(404);
        expect(res.html, path).toContain('Page not found');
        expect(res.html, path).toContain('class="drawer"');
        expect(res.html, path).toContain('Demo One');
      }
    });
    expect(log).not.toMatch(/error|\n\s+at /i);
  });

  it('answer a plain 404 page without a session instead of a detour through sign-in', async () => {
    const client = createClient(server.url);
    for (const path of unknownPaths()) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(res.html, path).toContain('Page not found');
      expect(res.html, path).not.toContain('class="drawer"');
    }
    // known pages still ask for a session
    expect((await client.get(`/project/${projectId}/history`)).status).toBe(303);
    expect((await client.get('/users')).status).toBe(303);
  });

  it('include a favicon in both forms browsers ask for', async () => {
    const client = createClient(server.url);
    const ico = await fetch(`${server.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await ico.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    expect((await client.get('/favicon.svg')).html).toContain('<svg');
    expect(readFileSync(new URL('../../public/favicon.ico', import.meta.url)).length).toBeGreaterThan(22);
  });
});

describe('the error screen', () => {
  it('keeps the drawer, Refresh page and Re-login when a page fails', async () => {
    const client = createClient(server.url);
    await client.signIn();
    // a real fault: the task table is gone, so the history page's API call fails with a 500
    await sql`ALTER TABLE task RENAME TO task_hidden`.execute(server.deps.db);
    let res!: PageResponse;
    let log = '';
    try {
      log = await capturedLog(async () => { res = await client.get(`/project/${projectId}/history`); });
    } finally {
      await sql`ALTER TABLE task_hidden RENAME TO task`.execute(server.deps.db);
    }
    expect(res.status).toBe(500);
    expect(res.html).toContain('Something went wrong');
    expect(res.html).toContain('Refresh page');
    expect(res.html).toContain('Re-login');
    expect(res.html).toContain('class="drawer"');
    // one line from the API (the cause) and one from the console (the page), no stack trace
    expect(log).not.toMatch(/\n\s+at /);
    expect(log).toMatch(/GET \/project\/\d+\/history: internal server error/);
    expect(log.split('\n').length).toBeLessThanOrEqual(2);
  });
});

describe('the 404 page in Chromium', () => {
  it('fits a 375 px screen signed in and signed out; both buttons of the error screen are of one height', async () => {
    const browser = await launchBrowser();
    try {
      const context = await newContext(browser);
      const page = await context.newPage();
      await page.setViewportSize({ width: 375, height: 740 });
      const check = async () => {
        const res = await page.goto(`${server.url}/foo`);
        expect(res?.status()).toBe(404);
        expect(await page.textContent('body')).toContain('Page not found');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      };
      await check();
      await signIn(page, server.url, '/project/new');
      await check();
      expect(await page.locator('.drawer').count()).toBe(1);
      await sql`ALTER TABLE task RENAME TO task_hidden`.execute(server.deps.db);
      try {
        await capturedLog(async () => { expect((await page.goto(`${server.url}/project/${projectId}/history`))?.status()).toBe(500); });
      } finally {
        await sql`ALTER TABLE task_hidden RENAME TO task`.execute(server.deps.db);
      }
      const heights = await page.locator('.error-actions a, .error-actions button').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
      expect(heights).toHaveLength(2);
      expect(heights[0]).toBe(heights[1]);
    } finally {
      await browser.close();
    }
  });
});
