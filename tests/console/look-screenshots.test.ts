import { copyFileSync, mkdirSync } from 'node:fs';
import { describe, it } from 'vitest';
import { screenshot, SCREENSHOTS, TAKING_SCREENSHOTS } from './support/browser.ts';
import { look, openPage, resize, server, setUpLook, SLOW } from './support/look-world.ts';

// Every screen written as a picture to look at, by `npm run screenshots` (what the look files
// share: support/look-world.ts). It asserts nothing, so a plain `npm test` skips it.
setUpLook();

describe.skipIf(!TAKING_SCREENSHOTS)('screenshots', () => {
  it('writes every screen at 1280 and 375 px, light and dark, under tests/screenshots/', async () => {
    const screens = look.routes.filter(([name]) => !name.endsWith('-dialog') && name !== 'settings-confirm');
    for (const theme of ['light', 'dark'] as const) {
      const page = await openPage({ width: 1280, height: 800, theme });
      for (const [name, path] of screens) {
        // each screen loaded once, at the width the one before was left at, then resized
        await page.goto(server.url + path);
        if (name.startsWith('task-')) await page.waitForSelector('dialog astro-island:not([ssr])');
        for (const width of page.viewportSize()!.width === 1280 ? [1280, 375] : [375, 1280]) {
          await resize(page, width);
          await screenshot(page, `look-${name}-${width}-${theme}`, { fullPage: !name.startsWith('task-') });
        }
      }
      await page.context().close();
    }
    // The README shows the history in both themes; they are refreshed on request, so that a test run
    // leaves the checkout as it found it.
    if (process.env.SIGNALBOX_DOCS_SCREENSHOTS !== '1') return;
    mkdirSync(new URL('../../docs/', import.meta.url), { recursive: true });
    for (const theme of ['light', 'dark']) {
      copyFileSync(new URL(`look-history-1280-${theme}.png`, SCREENSHOTS), new URL(`../../docs/history-${theme}.png`, import.meta.url));
    }
  }, SLOW);
});
