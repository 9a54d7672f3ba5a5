import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { insertMember } from '../support/fixtures.ts';
import { api, atEachWidth, atEachWidthAtOnce, base, fx, server, setUpFirstHourDetails, SLOW } from './support/first-hour-details-world.ts';

// The first hour's smaller things, part 2: integrations, words, the snackbar, a running task's
// log without JavaScript (part 1: first-hour-details.test.ts).
setUpFirstHourDetails();

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
    // both widths at once: each mostly waits on the page's refresh (5 s) and the 7 s after
    await atEachWidthAtOnce(async (page) => {
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
