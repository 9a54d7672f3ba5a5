// Issue #34 item 2 in the console: a project with hundreds of templates shows them 100 a page
// ("More templates", "First page") and searches them on the server with a plain GET form, so a
// search is a link to share. Checked as HTML without JavaScript and in Chromium at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { createClient } from './support/http-client.ts';
import { insertScriptProject } from './support/real-tasks.ts';
import { launchBrowser, screenshot, signedInPage } from './support/browser.ts';

let server: ConsoleServer;
let browser: Browser;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let client: ReturnType<typeof createClient>;
const COUNT = 230;
const nameOf = (i: number) => `${i % 5 === 0 ? 'Backup' : 'Deploy'} ${String(i).padStart(3, '0')}`;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Aardvark');
  const { id: _id, ...base } = await server.deps.db.selectFrom('template').selectAll().where('id', '=', fx.template.id).executeTakeFirstOrThrow();
  await server.deps.db.insertInto('template').values(Array.from({ length: COUNT }, (_, i) => ({ ...base, name: nameOf(i) }))).execute();
  client = createClient(server.url);
  await client.signIn();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const names = (html: string) => [...html.matchAll(/<a class="clamp" href="\/project\/\d+\/templates\/\d+\/tasks" title="([^"]+)"/g)].map((m) => m[1]!);
const nextLink = (html: string) => /<a href="([^"]+)" rel="next"/.exec(html)?.[1]?.replaceAll('&amp;', '&');

describe('templates at scale', () => {
  it('shows 100 templates a page in name order, every template once', async () => {
    const all = ['Aardvark', ...Array.from({ length: COUNT }, (_, i) => nameOf(i)).sort()];
    const seen: string[] = [];
    let page = await client.get(`/project/${fx.project.id}/templates?view=all`);
    expect(names(page.html)).toHaveLength(100);
    expect(page.html).not.toContain('First page');
    for (let guard = 0; guard < 5; guard++) {
      seen.push(...names(page.html));
      const next = nextLink(page.html);
      if (!next) break;
      page = await client.get(next);
      expect(page.html).toContain('First page');
    }
    expect(seen).toEqual(all);
  });

  it('searches on the server and says so when nothing matches', async () => {
    const found = await client.get(`/project/${fx.project.id}/templates?view=all&q=backup+04`);
    expect(names(found.html)).toEqual(['Backup 040', 'Backup 045']);
    expect(found.html).toContain('value="backup 04"');
    const none = await client.get(`/project/${fx.project.id}/templates?view=all&q=%3Cscript%3Ex`);
    expect(names(none.html)).toEqual([]);
    expect(none.html).toContain('No template matches “&lt;script&gt;x”.');
    // only ever text, or the value of the search field
    expect(none.html).not.toMatch(/<script>x(?!")/);
  });

  it('searches from the form at 1280 and 375 px without JavaScript, and fits the screen', async () => {
    for (const width of [1280, 375]) {
      const page = await signedInPage(browser, server.url, width, false);
      await page.goto(`${server.url}/project/${fx.project.id}/templates?view=all`);
      await page.fill('.tpl-search input[name=q]', 'Backup 1');
      await Promise.all([page.waitForNavigation(), page.locator('.tpl-search button').click()]);
      expect(await page.locator('tr[data-template]').count()).toBe(Array.from({ length: COUNT }, (_, i) => nameOf(i)).filter((n) => n.startsWith('Backup') && n.includes('1')).length);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await screenshot(page, `templates-search-${width}`);
      await page.context().close();
    }
  }, 120_000);
});
