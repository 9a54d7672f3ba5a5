import { describe, expect, it } from 'vitest';
import { screenshot } from './support/browser.ts';
import { atEachWidth, base, fx, server, setUpFirstHourDetails, SLOW } from './support/first-hour-details-world.ts';

// The first hour's smaller things, part 1: the template list, the schedule dialog, dialogs (part 2:
// first-hour-details-words.test.ts; the set-up: support/first-hour-details-world.ts).
setUpFirstHourDetails();

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
