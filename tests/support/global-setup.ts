// Once per `vitest run`, before any test file: what every file would otherwise make for itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { DIALECTS } from './dialects.ts';
import { ensureTemplate } from './database-template.ts';
import { startSharedBrowser } from '../console/support/shared-browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** the run's Chromium (playwright's browser server), or '' when this run has no browser */
    browserEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // one migrated template per dialect, copied by every test database (database-template.ts)
  await ensureTemplate('sqlite');
  if (DIALECTS.includes('postgres')) await ensureTemplate('postgres');
  // one Chromium for the run; each test file connects and opens its own contexts.
  // `npm run test:quick` runs no browser test and starts none.
  const browser = process.env.SIGNALBOX_TEST_NO_BROWSER ? undefined : await startSharedBrowser();
  project.provide('browserEndpoint', browser?.wsEndpoint ?? '');
  // bcrypt results the test processes share (bcrypt-memo.ts)
  const bcryptMemo = mkdtempSync(join(tmpdir(), 'signalbox-bcrypt-'));
  project.provide('bcryptMemoDir', bcryptMemo);
  return async () => {
    rmSync(bcryptMemo, { recursive: true, force: true });
    await browser?.close();
  };
}
