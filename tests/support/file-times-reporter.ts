import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** Where `npm test` finds each file's time (scripts/run-tests.ts reads it, then removes it). */
export const FILE_TIMES = '.vitest-file-times.json';

export interface FileTime {
  file: string;
  /** the file's whole time in its worker: set-up, import, hooks and tests */
  seconds: number;
  /** when it ended, in seconds after the run began: with `seconds`, which files ran side by side */
  endedAt: number;
}

/**
 * Records how long each test file took, hooks included. vitest's JSON report spans only a file's
 * tests, so a file whose work is in `beforeAll` (the look and language checks) showed as 0 s there.
 */
export default class FileTimesReporter implements Reporter {
  #began = Date.now();
  #times: FileTime[] = [];

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    const ms = d.environmentSetupDuration + d.prepareDuration + d.setupDuration + d.collectDuration + d.duration;
    this.#times.push({ file: module.relativeModuleId, seconds: ms / 1000, endedAt: (Date.now() - this.#began) / 1000 });
  }

  onTestRunEnd(): void {
    writeFileSync(FILE_TIMES, JSON.stringify(this.#times));
  }
}
