// The layout checks that run in every language (look-languages-*.test.ts): other languages' words
// are longer, and a screen that fits in English may not in German. The languages are shared out
// between files so that they run side by side; each page is loaded once a language, at 375 px,
// and resized to 1280 px. English is checked in look-layout-widths.test.ts, on the walk that
// already loads every page in English at both widths.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findInLanguages, LANGUAGE_CODES, look, screensOf, SLOW, type Look } from './look-world.ts';

/** The languages of western Europe; every other language but English (a new one too) is in the east. */
export const WEST = ['es', 'de', 'nl', 'fr', 'it', 'pt', 'pt_br'];
export const EAST = LANGUAGE_CODES.filter((code) => code !== 'en' && !WEST.includes(code));

/** Tables wider than their box: a list that scrolls sideways. */
const overflowingTables = (page: Page) => page.$$eval('.table-box', (boxes) => boxes
  .filter((b) => b.getClientRects().length > 0 && b.scrollWidth > b.clientWidth)
  .map((b) => `${b.getAttribute('aria-label')}: ${b.scrollWidth} px in ${b.clientWidth} px`));

const hasList = async (page: Page) => ((await page.locator('.table-box').count()) ? ['list'] : []);

/** What does not fit on a phone: the page or a dialog scrolling sideways, a status or a table cut short, a task list's first columns out of view. */
const phoneFaults = (page: Page) => page.evaluate(() => {
  const faults: string[] = [];
  const overflow = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  if (overflow > 0) faults.push(`page scrolls ${overflow} px sideways`);
  for (const chip of document.querySelectorAll<HTMLElement>('.chip')) {
    if (chip.scrollWidth > chip.clientWidth + 1) faults.push(`status "${chip.textContent!.trim()}" cut: ${chip.scrollWidth} px in ${chip.clientWidth} px`);
  }
  for (const dialog of document.querySelectorAll('dialog[open] article')) {
    if (dialog.scrollWidth > dialog.clientWidth) faults.push(`dialog scrolls sideways: ${dialog.scrollWidth} px in ${dialog.clientWidth} px`);
    const edge = dialog.getBoundingClientRect().right;
    // a wide table belongs in a box of its own that scrolls sideways, not in the dialog's body
    for (const table of dialog.querySelectorAll('table')) {
      if (table.getBoundingClientRect().right > edge + 1 && !table.closest('.overflow-auto, .table-box')) faults.push(`a table of the dialog is cut: ${table.className}`);
    }
  }
  for (const table of document.querySelectorAll('.table-box:has(.chip)')) {
    const right = table.getBoundingClientRect().right;
    for (const th of [...table.querySelectorAll('thead th')].slice(0, 3)) {
      const text = document.createRange();
      text.selectNodeContents(th);
      if (text.getBoundingClientRect().right > right) faults.push(`column "${th.textContent!.trim()}" out of view`);
    }
  }
  return faults;
});

/** What the language checks found, each line "lang page: finding". */
export interface LanguageFindings {
  phone: string[];
  tables: string[];
  lists: string[];
}

/**
 * The language checks as looks for `lookAtEveryPage`, in the order of `LanguageFindings`: a
 * phone's faults at 375 px on every screen and the task dialog's tabs (whose words differ most),
 * and at 1280 px the tables wider than their box and the pages with a list.
 */
export function languageLooks(): Look[] {
  // The components catalogue shows a table in a half-width card on purpose, scrolling in its box.
  const tableScreens = screensOf(look.routes.filter(([name]) => !name.startsWith('components')));
  const phoneScreens = [...screensOf(look.routes), ...look.routes.filter(([name]) => name.startsWith('task-'))];
  return [
    { width: 375, find: phoneFaults, routes: phoneScreens },
    { width: 1280, find: overflowingTables, routes: tableScreens },
    { width: 1280, find: hasList, routes: tableScreens },
  ];
}

/** The two tests of the language checks' findings in `langs`. */
export function languageTests(langs: string[], findings: () => LanguageFindings): void {
  it('fits every list in its box at 1280 px in every language: no table scrolls sideways on a desktop screen', () => {
    // the check has lists to look at, in each language
    for (const lang of langs) expect(findings().lists.filter((line) => line.startsWith(`${lang} `)).length, lang).toBeGreaterThan(10);
    expect(findings().tables).toEqual([]);
  });

  it('fits every screen on a 375 px phone in every language: no sideways page or dialog scroll, no status or table cut short, a task list\'s task, status and start in view', () => {
    expect(findings().phone).toEqual([]);
  });
}

/** Declares the every-language layout tests for `langs` (language codes). */
export function describeLayoutInLanguages(langs: string[]): void {
  describe(`console layout in ${langs.join(', ')}`, () => {
    let found: LanguageFindings;
    beforeAll(async () => {
      const looks = languageLooks();
      const [phone, tables, lists] = await findInLanguages(langs, looks, looks[0]!.routes!);
      found = { phone: phone!, tables: tables!, lists: lists! };
    }, SLOW);
    languageTests(langs, () => found);
  });
}
