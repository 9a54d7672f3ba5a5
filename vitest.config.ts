import { globSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './tests/support/slow-first-sequencer.ts';

/**
 * Server and console files (or folders) that change what a process shares (process.env, PATH, a
 * cache of what is on PATH): each runs in a process of its own. Every other file under
 * tests/server and tests/console runs in a process it shares with other such files
 * (tests/README.md, "Files that share a process").
 */
const OWN_PROCESS = [
  'tests/server/api/apps.test.ts', // PATH
  'tests/server/api/survey-options-url.test.ts', // process.env
  'tests/server/api/system.test.ts', // `ansible --version`, detected once per process
  'tests/server/engine/run-apps.test.ts', // PATH
  'tests/server/executor/', // DOCKER_HOST, CONTAINERS_CONF, PATH
  'tests/server/scheduler/remote-head.test.ts', // PATH
  'tests/server/terraform/state-backend.test.ts', // PATH
  'tests/server/workflows/workflow-runs.test.ts', // PATH
  'tests/console/task-log.test.ts', // PATH
];

/** Files whose imports are loaded once per worker, not once per file. */
const SHARED_PROCESS = globSync('tests/{server,console}/**/*.test.ts').filter((file) => !OWN_PROCESS.some((own) => file.startsWith(own)));

export default defineConfig({
  test: {
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
    // Four files at once on two cores: much of a file's time is spent waiting on other processes
    // (Chromium, PostgreSQL, git, ansible, task scripts) or on a real clock; with three, a full run
    // left about a quarter of the cores idle, with four it keeps both busy (tests/README.md).
    // SIGNALBOX_TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.SIGNALBOX_TEST_WORKERS ?? 4),
    // longest files first, also on a fresh clone with no durations from an earlier run
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      // Importing the server costs a file about a second of CPU; files whose modules keep no state
      // between files (tests/README.md) import it once per worker.
      { extends: true, test: { name: 'shared-process', include: SHARED_PROCESS, isolate: false } },
      { extends: true, test: { name: 'own-process', include: ['tests/**/*.test.ts'], exclude: [...configDefaults.exclude, ...SHARED_PROCESS] } },
    ],
  },
});
