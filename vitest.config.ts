import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './tests/support/slow-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // migrated database templates and the run's one Chromium, made once for all files
    globalSetup: ['tests/support/global-setup.ts'],
    // bcrypt's work done once per password for the run (tests/support/bcrypt-memo.ts)
    // and a file's PostgreSQL test databases dropped together after it (tests/support/drops-after-file.ts)
    setupFiles: ['tests/support/bcrypt-memo.ts', 'tests/support/drops-after-file.ts'],
    // Generous: CI shares 2 cores between three test files, browsers and task processes; a test
    // asserts what happens, never how fast, so only a hang should reach this.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // the same for what a test waits to see: expect.poll's own default (1 s) failed a console
    // test on a loaded CI machine although the page was right
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    fileParallelism: true,
    // Three files at once on two cores: much of a file's time is spent waiting on other processes
    // (Chromium, PostgreSQL, git, ansible, task scripts), and a third file fills that idle time.
    // SIGNALBOX_TEST_WORKERS overrides it (tests/README.md).
    maxWorkers: Number(process.env.SIGNALBOX_TEST_WORKERS ?? 3),
    // longest files first, also on a fresh clone with no durations from an earlier run
    sequence: { sequencer: SlowFirstSequencer },
  },
});
