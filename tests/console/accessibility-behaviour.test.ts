import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SLOW, waitForIsland } from './support/axe-checks.ts';
import { look, openPage, server, setUpLook } from './support/look-world.ts';

// Keyboard, dialogs, self-refreshing pages and form messages (axe-core on every page:
// accessibility-light.test.ts and accessibility-dark.test.ts; shared set-up: support/look-world.ts).
setUpLook();

const inDialog = (page: Page) => page.evaluate(() => Boolean(document.activeElement?.closest('dialog')));

describe('dialogs and keyboard', () => {
  it('keeps focus inside every open dialog and closes it with Escape', async () => {
    const page = await openPage({ width: 1280, height: 800 });
    const dialogs: [string, string][] = [
      [`/project/${look.projectId}/history?t=${look.taskId}`, 't'],
      [`/project/${look.projectId}/settings?confirm=delete`, 'confirm'],
      [`/project/${look.projectId}/history?new_project`, 'new_project'],
      ['/components?dialog=1', 'dialog'],
    ];
    for (const [path, param] of dialogs) {
      await page.goto(server.url + path);
      await waitForIsland(page, path);
      expect(await page.evaluate(() => document.querySelector('dialog')!.matches(':modal')), path).toBe(true);
      for (const key of [...Array(12).fill('Tab'), ...Array(12).fill('Shift+Tab')] as string[]) {
        await page.keyboard.press(key);
        expect(await inDialog(page), `${path}, ${key}`).toBe(true);
      }
      await Promise.all([page.waitForURL((u) => !u.searchParams.has(param)), page.keyboard.press('Escape')]);
      expect(await page.locator('dialog[open]').count(), path).toBe(0);
    }
    await page.context().close();
  }, SLOW);

  it('reaches the drawer, the dashboard tabs and a task from the keyboard, and opens the task with Enter', async () => {
    const page = await openPage({ width: 1280, height: 800 });
    await page.goto(`${server.url}/project/${look.projectId}/history`);
    const reached: string[] = [];
    for (let i = 0; i < 60 && !reached.some((r) => r.startsWith('#')); i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => (document.activeElement?.textContent ?? '').trim()));
    }
    expect(reached).toContain('Task templates');
    expect(reached).toContain('Stats');
    const task = reached.find((r) => r.startsWith('#'))!;
    expect(task).toMatch(/^#\d+ Build web/);
    await Promise.all([page.waitForURL((u) => u.searchParams.has('t')), page.keyboard.press('Enter')]);
    expect(await page.locator('dialog.task-log').isVisible()).toBe(true);
    await page.context().close();
  }, SLOW);
});

describe('self-refreshing pages', () => {
  it('refresh with a meta tag only inside <noscript>, and live with JavaScript', async () => {
    const cookie = look.api.cookie;
    const live = ['/tasks', `/project/${look.projectId}/history`, `/project/${look.projectId}/history?kiosk=1`,
      `/project/${look.projectId}/stats?kiosk=1`, `/project/${look.projectId}/activity?kiosk=1`];
    for (const [, path] of [...look.routes, ['', `/project/${look.projectId}/stats?kiosk=1`], ['', `/project/${look.projectId}/activity?kiosk=1`]]) {
      const html = await (await fetch(server.url + path, { headers: { cookie } })).text();
      expect(html.replace(/<noscript>[\s\S]*?<\/noscript>/g, ''), path).not.toMatch(/http-equiv="refresh"/i);
      if (live.includes(path)) {
        expect(html, path).toContain('id="live-region"');
        expect(html, path).toMatch(/<script type="module" src="[^"]+"/);
        if (path !== `/project/${look.projectId}/history`) expect(html, path).toMatch(/<noscript><meta http-equiv="refresh"/);
      }
    }
  }, SLOW);
});

describe('field messages', () => {
  it('tie each message of an empty form sent back to its control: marked invalid and described by the message', async () => {
    const page = await openPage({ width: 1280, height: 800 });
    const project = `/project/${look.projectId}`;
    const dialogs = [`${project}/keys?edit=new`, `${project}/repositories?edit=new`, `${project}/inventory?edit=new`,
      `${project}/environment?edit=new`, `${project}/schedule?edit=new`, `${project}/templates/new/edit`, `${project}/runners?dialog=new`,
      `${project}/storages?edit=new`, `${project}/alerts?edit=new`, `${project}/event-webhooks?edit=new`];
    for (const path of dialogs) {
      await page.goto(server.url + path);
      await page.evaluate(() => document.querySelectorAll('form').forEach((form) => { form.noValidate = true; }));
      // the form is sent back as a new page: read it once it has loaded, not while it streams
      await Promise.all([page.waitForEvent('load'), page.waitForResponse((r) => r.request().method() === 'POST'),
        page.locator('dialog [type=submit]').first().click()]);
      const fields = await page.$$eval('dialog .field-error[id$="-error"]', (messages) => messages.map((message) => {
        const control = message.closest('dialog')!.querySelector(`[name="${message.id.slice(0, -'-error'.length)}"]`);
        return { id: message.id, invalid: control?.getAttribute('aria-invalid'), describedBy: control?.getAttribute('aria-describedby') };
      }));
      expect(fields.length, path).toBeGreaterThan(0);
      for (const field of fields) expect(field, path).toEqual({ id: field.id, invalid: 'true', describedBy: field.id });
      const unexplained = await page.$$eval('dialog [aria-invalid="true"]', (controls) => controls
        .filter((c) => !document.getElementById(c.getAttribute('aria-describedby') ?? '')).map((c) => c.getAttribute('name')));
      expect(unexplained, path).toEqual([]);
    }
    await page.context().close();
  }, SLOW);
});
