// axe-core's verdict on a page, for every console test that asks for one.
//
// Run in the page itself (`axe.run`), not through @axe-core/playwright's AxeBuilder: for each page
// the builder sends axe-core's half-megabyte source twice, opens a second page to finish the run
// in and closes it again, which cost more than twice the analysis itself (measured over 30 look
// pages: 60 s through the builder, 27 s here, with the same violations on every page). Its one
// gain, cross-origin frames, the console has none of: its pages hold no iframe.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults } from 'axe-core';

// the axe-core that @axe-core/playwright depends on, so the rules are the ones it would run
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE: string = fromBuilder('axe-core').source;

/** WCAG 2.0 and 2.1, levels A and AA. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe-core's violations of the page as it is, with the rules of `tags` only. Every violating node
 * is reported; passes and the rest are cut to one node each (`resultTypes`), which nothing here
 * reads and which took about a third of the run.
 */
async function violations(page: Page, tags: string[]): Promise<AxeResults['violations']> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate((values) => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    return axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
  }, tags);
  return results.violations;
}

/** Violations of `tags` axe rates serious or critical, as "rule: targets" lines. */
export async function seriousViolations(page: Page, tags: string[] = WCAG_AA): Promise<string[]> {
  return (await violations(page, tags))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
