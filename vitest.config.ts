import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Generous: CI shares 2 cores between two test files, browsers and task processes; a test
    // asserts what happens, never how fast, so only a hang should reach this.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // the same for what a test waits to see: expect.poll's own default (1 s) failed a console
    // test on a loaded CI machine although the page was right
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
