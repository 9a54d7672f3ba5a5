import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser, screenshot, signedInPage } from './support/browser.ts';
import { adminApi, insertScriptProject } from './support/real-tasks.ts';
import { insertMember } from '../support/fixtures.ts';

/** The smaller things a new user trips on in the first hour (issue 29, item 10), at 1280 and 375 px. */
let server: ConsoleServer;
let browser: Browser;
let api: Awaited<ReturnType<typeof adminApi>>;
let fx: Awaited<ReturnType<typeof insertScriptProject>>;
let base: string;

beforeAll(async () => {
  server = await startConsoleServer();
  browser = await launchBrowser();
  api = await adminApi(server);
  fx = await insertScriptProject(server, { 'run.sh': 'echo hi\n' }, 'run.sh', 'Nightly backup');
  base = `${server.url}/project/${fx.project.id}`;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const SLOW = 180_000;
const WIDTHS = [1280, 375] as const;

const openPage = (width: number, javaScriptEnabled = true) => signedInPage(browser, server.url, width, javaScriptEnabled);

/** Runs `check` on a fresh signed-in page at each width, closing it after. */
async function atEachWidth(check: (page: Page, width: number) => Promise<void>, javaScriptEnabled = true): Promise<void> {
  for (const width of WIDTHS) {
    const page = await openPage(width, javaScriptEnabled);
    try {
      await check(page, width);
    } finally {
      await page.context().close();
    }
  }
}

describe('the template list', () => {
  it('shows every app\'s whole name in the New template menu, and each built-in app\'s own logo', async () => {
    await atEachWidth(async (page, width) => {
      await page.goto(`${base}/templates`);
      await page.locator('.new-template > summary').click();
      const items = await page.$$eval('.new-template li a', (links) => links.map((a) => ({
        text: a.textContent!.trim(), cut: a.scrollWidth > a.clientWidth + 1, right: a.getBoundingClientRect().right, left: a.getBoundingClientRect().left,
      })));
      // the menu lists the apps installed here; the Apps page below has every one
      expect(items.map((i) => i.text)).toEqual(expect.arrayContaining(['Ansible Playbook', 'Terraform Code']));
      for (const item of items) {
        expect(item.cut, `${item.text} at ${width} px`).toBe(false);
        expect(item.left, item.text).toBeGreaterThanOrEqual(0);
        expect(item.right, item.text).toBeLessThanOrEqual(width);
      }
      await screenshot(page, `first-hour-new-template-menu-${width}`, { fullPage: false });
      await page.goto(`${server.url}/apps`);
      const logos = await page.$$eval('main .app-icon', (icons) => icons.map((i) => ({ app: i.getAttribute('data-app'), logo: i.querySelector('svg.app-logo path')?.getAttribute('d') ?? null, letter: i.textContent })));
      for (const app of ['ansible', 'terraform', 'tofu', 'bash', 'powershell', 'python', 'pulumi']) {
        const icon = logos.find((l) => l.app === app);
        expect(icon?.logo, app).toMatch(/^[Mm]/);
        expect(icon?.letter, app).toBe('');
      }
      // every logo is its own drawing
      expect(new Set(logos.map((l) => l.logo)).size).toBe(logos.length);
      await screenshot(page, `first-hour-apps-${width}`, { fullPage: false });
    });
  }, SLOW);

  it('draws Columns and Edit views alike (outline, with an icon), and New user, New app and New key alike', async () => {
    await atEachWidth(async (page) => {
      const look = (selector: string) => page.$eval(selector, (el) => ({
        background: getComputedStyle(el).backgroundColor, border: getComputedStyle(el).borderColor, icon: el.querySelector('svg') !== null,
      }));
      await page.goto(`${base}/templates`);
      await page.waitForSelector('.column-sheet:not([hidden])');
      const columns = await look('.column-sheet > summary');
      const editViews = await look('main a.btn[href*="views=edit"]');
      expect(columns).toEqual(editViews);
      expect(columns.icon).toBe(true);
      const newButtons = [];
      for (const [path, selector] of [['/users', 'main a.btn[href="/users/new"]'], ['/apps', 'main a.btn[href="/apps/new"]'], [`/project/${fx.project.id}/keys`, 'main a.btn[href*="edit=new"]']] as const) {
        await page.goto(server.url + path);
        newButtons.push(await look(selector));
      }
      expect(newButtons[1]).toEqual(newButtons[0]);
      expect(newButtons[2]).toEqual(newButtons[0]);
      expect(newButtons[0]!.icon).toBe(true);
    });
  }, SLOW);
});

describe('the schedule dialog', () => {
  it('starts a new schedule daily at a quiet hour, with and without JavaScript', async () => {
    await atEachWidth(async (page) => {
      await page.goto(`${base}/schedule?edit=new`);
      expect(await page.inputValue('input[name=cron_format]')).toBe('0 3 * * *');
    }, false);
    await atEachWidth(async (page, width) => {
      await page.goto(`${base}/schedule?edit=new`);
      await page.locator('[data-cron-builder]').waitFor();
      expect(await page.inputValue('[data-cron-mode]')).toBe('daily');
      expect(await page.locator('[data-cron-words]').innerText()).toBe('At 03:00');
      // "Cron" heads the builder; its "Timing" label sits under it, apart
      const heading = await page.locator('[data-field=cron_format] > .sb-field-label').boundingBox();
      const timing = await page.locator('.cron-builder > label').first().boundingBox();
      expect(timing!.y, `${width} px`).toBeGreaterThanOrEqual(heading!.y + heading!.height + 4);
      await screenshot(page, `first-hour-schedule-new-${width}`);
    });
  }, SLOW);

  it('does not say an invalid cron twice, and its error speaks of five fields as the hint does', async () => {
    await atEachWidth(async (page) => {
      await page.goto(`${base}/schedule?edit=new`);
      await page.locator('[data-cron-raw]').check();
      await page.fill('input[name=cron_format]', 'nonsense here');
      await page.locator('.cron-builder .field-error').waitFor();
      const preview = await page.locator('.cron-preview').innerText();
      expect(preview.split('nonsense here')).toHaveLength(2);
      expect(await page.locator('[data-cron-words]').count()).toBe(0);
      const error = await page.locator('.cron-builder .field-error').innerText();
      expect(error).toContain('five fields');
      expect(error).not.toMatch(/six|seven/);
      expect(await page.locator('#cron-hint').innerText()).toContain('minute hour day month weekday');
    });
  }, SLOW);
});

describe('dialogs', () => {
  it('draw no ring round the whole dialog when they open', async () => {
    await atEachWidth(async (page, width) => {
      for (const path of [`/project/${fx.project.id}/environment?edit=new`, `/project/${fx.project.id}/keys?edit=new`, `/project/${fx.project.id}/schedule?edit=new`]) {
        await page.goto(server.url + path);
        await page.waitForFunction(() => document.querySelector('dialog')?.matches(':modal'));
        const rings = await page.$$eval('dialog, dialog > article', (boxes) => boxes
          .filter((box) => box.matches(':focus-visible') && getComputedStyle(box).outlineStyle !== 'none')
          .map((box) => `${box.tagName} ${getComputedStyle(box).outlineWidth}`));
        expect(rings, `${path} at ${width} px`).toEqual([]);
      }
    });
  }, SLOW);

  it('use one look for Cancel: the template dialog\'s like every other form\'s', async () => {
    await atEachWidth(async (page) => {
      const cancelLook = async (path: string) => {
        await page.goto(server.url + path);
        return page.$eval('dialog a.btn[href]:not(.dialog-close):is(.btn-secondary, .btn-outline)', (a) => ({ text: a.textContent!.trim(), background: getComputedStyle(a).backgroundColor, classes: a.className }));
      };
      const template = await cancelLook(`/project/${fx.project.id}/templates/${fx.template.id}/edit`);
      const key = await cancelLook(`/project/${fx.project.id}/keys?edit=new`);
      expect(template.text).toBe('Cancel');
      expect(template.background).toBe(key.background);
    });
  }, SLOW);
});

describe('integrations', () => {
  it('show the auth header and secret fields only for the methods that use them (no JavaScript needed)', async () => {
    for (const js of [true, false]) {
      await atEachWidth(async (page) => {
        await page.goto(`${base}/integrations?edit=new`);
        const shown = async () => ({
          header: await page.locator('[data-field=auth_header]').isVisible(), secret: await page.locator('[data-field=auth_secret_id]').isVisible(),
        });
        expect(await page.inputValue('select[name=auth_method]')).toBe('none');
        expect(await shown()).toEqual({ header: false, secret: false });
        await page.selectOption('select[name=auth_method]', 'token');
        expect(await shown()).toEqual({ header: true, secret: true });
        await page.selectOption('select[name=auth_method]', 'github');
        expect(await shown()).toEqual({ header: false, secret: true });
      }, js);
    }
  }, SLOW);
});

describe('words', () => {
  it('a new variable group does not speak of keeping values; an existing one does', async () => {
    await atEachWidth(async (page) => {
      await page.goto(`${base}/environment?edit=new`);
      expect(await page.locator('dialog .secrets').innerText()).not.toContain('leave a value empty');
      await page.goto(`${base}/environment?edit=${fx.environment.id}`);
      expect(await page.locator('dialog .secrets').innerText()).toContain('leave a value empty to keep it');
    }, false);
  }, SLOW);

  it('describes the task runner role as what it may do', async () => {
    await insertMember(server.deps.db, fx.project.id, 'runner-of-tasks', 'task_runner');
    await atEachWidth(async (page) => {
      await page.goto(`${base}/team`);
      const row = page.locator('tr', { hasText: 'runner-of-tasks' });
      const text = await row.innerText();
      expect(text).toContain('Runs any task; sees the project\'s resources without changing them');
      expect(text).not.toContain('User: you can run any tasks');
    }, false);
  }, SLOW);

  it('the activity names a repository by its name, not its URL', async () => {
    const repo = await api.send<{ id: number }>('POST', `/api/project/${fx.project.id}/repositories`, {
      name: 'Site playbooks', git_url: 'https://git.example.test/ops/site-playbooks.git', git_branch: 'main', ssh_key_id: fx.key.id,
    });
    expect(repo.id).toBeGreaterThan(0);
    await atEachWidth(async (page) => {
      await page.goto(`${base}/activity`);
      const text = await page.locator('main').innerText();
      expect(text).toContain('Repository "Site playbooks" created');
      expect(text).not.toContain('Repository https://git.example.test/ops/site-playbooks.git created');
    }, false);
  }, SLOW);
});

describe('the snackbar', () => {
  it('has a close ✕ that reads well on it, and leaves no ?flash= in the address', async () => {
    await atEachWidth(async (page, width) => {
      await page.goto(`${base}/keys?flash=key_saved&name=Deploy%20key`);
      await page.locator('.snackbar').waitFor();
      expect(await page.locator('.snackbar').innerText()).toContain('Deploy key');
      await page.waitForFunction(() => !location.search.includes('flash='));
      expect(new URL(page.url()).searchParams.has('name')).toBe(false);
      const [close, bar] = await page.$$eval('.snackbar label, .snackbar', (els) => els.map((el) => getComputedStyle(el).color + '|' + getComputedStyle(el).backgroundColor));
      const rgb = (css: string) => css.match(/[\d.]+/g)!.slice(0, 3).map(Number);
      const luminance = (css: string) => {
        const [r, g, b] = rgb(css).map((c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const foreground = luminance(close!.split('|')[0]!);
      const background = luminance(bar!.split('|')[1]!);
      const contrast = (Math.max(foreground, background) + 0.05) / (Math.min(foreground, background) + 0.05);
      expect(contrast, `✕ at ${width} px`).toBeGreaterThanOrEqual(4.5);
      await screenshot(page, `first-hour-snackbar-${width}`, { fullPage: false });
    });
  }, SLOW);
});

describe('a running task\'s log without JavaScript', () => {
  it('is read again while the task runs, and stays put once it ended', async () => {
    const now = new Date().toISOString();
    const row = (status: string) => ({
      project_id: fx.project.id, template_id: fx.template.id, status, user_id: fx.adminId, playbook: '', environment: '{}',
      message: '', commit_message: '', params: '{}', created: now, start: now, end: status === 'success' ? now : null,
    });
    // rows written straight to the table: the engine never picks up a task that is already
    // "running", and leaves one locked by itself (a live engine) running
    const running = await server.deps.db.insertInto('task').values({ ...row('running'), locked_by: server.engine.workerId }).returning('id').executeTakeFirstOrThrow();
    const done = await server.deps.db.insertInto('task').values(row('success')).returning('id').executeTakeFirstOrThrow();
    await atEachWidth(async (page) => {
      let loads = 0;
      page.on('load', () => { loads += 1; });
      await page.goto(`${base}/history?t=${running.id}`);
      await page.waitForEvent('load', { timeout: 30_000 }); // the page reads itself again
      expect(loads).toBeGreaterThanOrEqual(2);
      expect(new URL(page.url()).searchParams.get('t')).toBe(String(running.id));
      loads = 0;
      await page.goto(`${base}/history?t=${done.id}`);
      await page.waitForTimeout(7_000); // longer than the refresh: an ended task's log stays put
      expect(loads).toBe(1);
    }, false);
  }, SLOW);
});
