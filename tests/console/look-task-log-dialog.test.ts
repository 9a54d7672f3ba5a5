import { describe, expect, it } from 'vitest';
import { follow } from './support/browser.ts';
import { box, look, openPage, server, setUpLook, SLOW } from './support/look-world.ts';

// The task log dialog's size and header (what the look files share: support/look-world.ts).
setUpLook();

describe('task log dialog layout', () => {
  it('is 1000 px wide, fills the viewport in full screen, and its toggle label follows the state across reloads', async () => {
    const page = await openPage({ width: 1280, height: 800 });
    const url = `${server.url}/project/${look.projectId}/history?t=${look.taskId}`;
    await page.goto(url);
    await page.waitForSelector('dialog .log-row');
    const normal = await box(page, 'dialog.task-log > article');
    expect(normal.width).toBe(1000);
    const normalLog = await box(page, 'dialog .log');
    const toggle = page.locator('dialog .task-log-header button');
    expect(await toggle.getAttribute('aria-label')).toBe('Full screen');

    await toggle.click();
    await page.waitForFunction(() => document.querySelector('dialog.task-log')?.classList.contains('fullscreen'));
    const full = await box(page, 'dialog.task-log > article');
    expect(full).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
    expect((await box(page, 'dialog .log')).height).toBeGreaterThan(normalLog.height);
    expect(await toggle.getAttribute('aria-label')).toBe('Exit full screen');

    await page.reload();
    await page.waitForFunction(() => document.querySelector('dialog.task-log')?.classList.contains('fullscreen'));
    expect(await page.locator('dialog .task-log-header button').getAttribute('aria-label')).toBe('Exit full screen');
    await page.locator('dialog .task-log-header button').click();
    await page.waitForFunction(() => !document.querySelector('dialog.task-log')?.classList.contains('fullscreen'));
    expect((await box(page, 'dialog.task-log > article')).width).toBe(1000);
    expect(await page.locator('dialog .task-log-header button').getAttribute('aria-label')).toBe('Full screen');
    await page.context().close();
  }, SLOW);

  it('shows template › task number, status chip, starter, time and duration in one header, and the Details and Summary tabs', async () => {
    const page = await openPage({ width: 1280, height: 800 });
    await page.goto(`${server.url}/project/${look.projectId}/history?t=${look.taskId}`);
    await page.waitForSelector('dialog .log-row');
    expect(await page.textContent('dialog h2')).toMatch(/^Build web\s*Task #\d+$/);
    expect(await page.getAttribute('dialog .task-log-facts .chip', 'data-status')).toBe('success');
    const facts = await page.textContent('dialog .task-log-facts');
    expect(facts).toContain('Success');
    expect(facts).toContain('Started by Admin');
    expect(facts).toMatch(/\d+ s/);
    // the tabs are links (the island switches them in place once it has loaded): read the tab once it is there
    await follow(page, 'dialog .task-log-tabs >> text=Details');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('details');
    expect(await page.textContent('dialog .task-details')).toContain('Nightly build');
    expect(await page.locator('dialog .log').isVisible()).toBe(false);
    await follow(page, 'dialog .task-log-tabs >> text=Summary');
    expect(new URL(page.url()).searchParams.get('tab')).toBe('summary');
    expect(await page.locator('dialog .task-summary').isVisible()).toBe(true);
    expect(await page.textContent('dialog .task-summary [data-stage=running]')).toContain('Run');
    expect(await page.locator('dialog .log').isVisible()).toBe(false);
    await follow(page, 'dialog .task-log-tabs >> text=Log');
    expect(await page.locator('dialog .log').isVisible()).toBe(true);
    await page.context().close();
  }, SLOW);
});
