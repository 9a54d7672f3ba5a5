import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from '../console/support/console-server.ts';
import { launchBrowser, newContext, signIn } from '../console/support/browser.ts';
import { adminApi, insertScriptProject, waitForTask } from '../console/support/real-tasks.ts';
import { hasStatus } from '../support/engine.ts';
import { autoSubmittingForm, startAttackerSite, type AttackerSite } from './support/attacker-site.ts';

let server: ConsoleServer;
let evil: AttackerSite;
let browser: Browser;
let victim: BrowserContext;

/** What the attacker's pages report back through `window.result`. */
const result = (page: Page) => page.waitForFunction(() => (window as unknown as { result?: string }).result).then((h) => h.jsonValue());

beforeAll(async () => {
  server = await startConsoleServer();
  const target = server.url;
  evil = await startAttackerSite({
    '/api-text-plain': `<script>
      fetch('${target}/api/users', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ username: 'mallory', name: 'Mallory', email: 'mallory@evil.test', password: 'mallory-pass-1', admin: true }) })
        .then(() => { window.result = 'sent'; }, () => { window.result = 'sent'; });
    </script>`,
    '/api-json-cors': `<script>
      fetch('${target}/api/projects', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{"name":"Evil JSON"}' })
        .then(() => { window.result = 'sent'; }, () => { window.result = 'sent'; });
    </script>`,
    '/form-project': autoSubmittingForm(`${target}/project/new`, { name: 'Evil form project' }),
    '/login-csrf': autoSubmittingForm(`${target}/auth/login?next=/`, { step: 'password', auth: 'attacker', password: 'attacker-pass-1' }),
    '/ws': `<script>
      const seen = [];
      const ws = new WebSocket('${target.replace('http', 'ws')}/api/ws');
      ws.onopen = () => seen.push('open');
      ws.onmessage = (m) => seen.push(m.data);
      ws.onerror = () => seen.push('error');
      ws.onclose = () => { window.result = JSON.stringify(seen); };
      setTimeout(() => ws.close(), 4000);
    </script>`,
  });
  browser = await launchBrowser();
  victim = await newContext(browser);
  const page = await victim.newPage();
  await signIn(page, server.url);
  await page.close();
});

afterAll(async () => {
  await browser?.close();
  await evil?.close();
  await server?.close();
});

describe('a page on another loopback port (same-site) acting with the signed-in admin\'s cookie', () => {
  it('cannot create an admin through the JSON API with a text/plain body', async () => {
    const page = await victim.newPage();
    await page.goto(`${evil.url}/api-text-plain`);
    await result(page);
    const mallory = await server.deps.db.selectFrom('user').select('id').where('username', '=', 'mallory').executeTakeFirst();
    expect(mallory).toBeUndefined();
    await page.close();
  });

  it('cannot create a project through the JSON API with a JSON body either', async () => {
    const page = await victim.newPage();
    await page.goto(`${evil.url}/api-json-cors`);
    await result(page);
    const rows = await server.deps.db.selectFrom('project').select('id').where('name', '=', 'Evil JSON').execute();
    expect(rows).toEqual([]);
    await page.close();
  });

  it('cannot create a project through a console form post (403)', async () => {
    const page = await victim.newPage();
    const answer = page.waitForResponse((r) => r.url().startsWith(`${server.url}/project/new`));
    await page.goto(`${evil.url}/form-project`);
    expect((await answer).status()).toBe(403);
    const rows = await server.deps.db.selectFrom('project').select('id').where('name', '=', 'Evil form project').execute();
    expect(rows).toEqual([]);
    await page.close();
  });

  it('cannot read task logs over /api/ws', async () => {
    const fixture = await insertScriptProject(server, { 'secret.sh': 'sleep 1\necho "the secret is hunter2"\n' }, 'secret.sh');
    const page = await victim.newPage();
    await page.goto(`${evil.url}/ws`);
    const api = await adminApi(server);
    const taskId = await api.runTask(fixture.project.id, { template_id: fixture.template.id });
    await waitForTask(server.deps.db, taskId, hasStatus('success'));
    const seen = JSON.parse(await result(page) as string) as string[];
    expect(seen).not.toContain('open');
    expect(seen.join('\n')).not.toContain('hunter2');
    await page.close();
  });

  it('still lets the console itself post its forms and open its websocket', async () => {
    const page = await victim.newPage();
    await page.goto(`${server.url}/project/new`);
    await page.fill('input[name=name]', 'Own form project');
    await Promise.all([page.waitForURL(/\/project\/\d+\/history/), page.click('main form button[type=submit]:not([name])')]);
    const opened = await page.evaluate((url) => new Promise<string>((resolve) => {
      const ws = new WebSocket(url);
      ws.onopen = () => { ws.close(); resolve('open'); };
      ws.onerror = () => resolve('error');
    }), `${server.url.replace('http', 'ws')}/api/ws`);
    expect(opened).toBe('open');
    await page.close();
  });
});

describe('sign-in from a foreign page (login CSRF)', () => {
  it('refuses a sign-in form posted from another origin and sets no session cookie', async () => {
    const api = await adminApi(server);
    const created = await fetch(`${server.url}/api/users`, {
      method: 'POST', headers: { 'content-type': 'application/json', cookie: api.cookie },
      body: JSON.stringify({ username: 'attacker', name: 'Attacker', email: 'attacker@evil.test', password: 'attacker-pass-1' }),
    });
    expect(created.status).toBe(201);
    const fresh = await newContext(browser);
    const page = await fresh.newPage();
    const answer = page.waitForResponse((r) => r.url().startsWith(`${server.url}/auth/login`));
    await page.goto(`${evil.url}/login-csrf`);
    const res = await answer;
    expect(res.status()).toBe(403);
    expect(await res.headerValue('set-cookie')).toBeNull();
    expect((await fresh.cookies(server.url)).map((c) => c.name)).not.toContain('semaphore');
    await fresh.close();
  });
});
