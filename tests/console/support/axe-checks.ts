// What accessibility-*.test.ts share: the axe checks (support/axe.ts) of every fixture page in
// one theme (a file a theme, so that the two themes run side by side).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signIn } from './browser.ts';
import { seriousViolations } from './axe.ts';
import { LOOK_ROUTE_NAMES, startRunnersServer } from './look-fixture.ts';
import { browser, look, openPage, server } from './look-world.ts';

// Browser journeys over many pages: generous limits for a loaded machine (none is a speed target).
export const SLOW = 300_000;

/** A task dialog's route: waits for its island to have hydrated. */
export async function waitForIsland(page: Page, path: string): Promise<void> {
  if (path.includes('?t=')) await page.waitForSelector('dialog astro-island:not([ssr])');
}

/**
 * Declares the axe checks of the sign-in page, the global runners screen and every fixture page
 * in `theme`: one test per page, each with its own time limit (the routes come from the fixture,
 * so they are declared here by name).
 */
export function describeAxeChecks(theme: 'light' | 'dark'): void {
  describe(`accessibility (axe-core, WCAG 2 A and AA), ${theme} theme: no serious or critical violation`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await openPage({ width: 1280, height: 800, theme });
    }, SLOW);
    afterAll(async () => {
      await page?.context().close();
    });

    it('finds the violations of a page made to have them, so the checks below can fail', async () => {
      const probe = await openPage({ width: 1280, height: 800, theme, signedIn: false });
      await probe.setContent('<!doctype html><html lang="en"><title>Probe</title><main><img src="data:,"><button></button></main></html>');
      expect((await seriousViolations(probe)).sort()).toEqual(['button-name: button', 'image-alt: img']);
      await probe.context().close();
    }, SLOW);

    it('on the sign-in page', async () => {
      const signedOut = await openPage({ width: 1280, height: 800, theme, signedIn: false });
      await signedOut.goto(`${server.url}/auth/login`);
      expect(await seriousViolations(signedOut)).toEqual([]);
      await signedOut.context().close();
    }, SLOW);

    it('on the global runners screen', async () => {
      const runners = await startRunnersServer();
      try {
        const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
        await context.addCookies([{ name: 'theme', value: theme, url: runners.url }]);
        const runnersPage = await context.newPage();
        await signIn(runnersPage, runners.url, '/runners');
        expect(await seriousViolations(runnersPage)).toEqual([]);
        await context.close();
      } finally {
        await runners.close();
      }
    }, SLOW);

    for (const name of LOOK_ROUTE_NAMES) {
      it(`on ${name}`, async () => {
        const path = look.routes.find(([n]) => n === name)![1];
        await page.goto(server.url + path);
        await waitForIsland(page, path);
        expect(await seriousViolations(page)).toEqual([]);
      }, SLOW);
    }
  });
}
