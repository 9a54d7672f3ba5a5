import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files measured longest (tests/README.md), slowest first: the twenty longest of the full run
 * of 30 Nov on `c9b3dd8` with four workers (file wall times, set-up included). Only a run without
 * durations of its own (a fresh clone, CI) reads this list.
 */
export const LONGEST_FILES = [
  'tests/console/look-languages-east.test.ts',
  'tests/console/look-languages-west.test.ts',
  'tests/server/db/migrations.test.ts',
  'tests/console/accessibility-dark.test.ts',
  'tests/server/scheduler/scheduler.realclock.test.ts',
  'tests/console/accessibility-light.test.ts',
  'tests/console/templates-scroll.test.ts',
  'tests/server/executor/container-tasks.test.ts',
  'tests/server/api/permission-matrix/single-bit-roles.test.ts',
  'tests/compat/semaphore-dredd-develop.test.ts',
  'tests/console/look-layout-widths.test.ts',
  'tests/console/board-week.test.ts',
  'tests/contract/api-contract.test.ts',
  'tests/console/templates-list.test.ts',
  'tests/compat/semaphore-dredd-release.test.ts',
  'tests/console/first-hour.test.ts',
  'tests/console/first-hour-details-words.test.ts',
  'tests/server/storages/key-sources.test.ts',
  'tests/compat/ansible-uri.test.ts',
  'tests/console/workflow-screens.test.ts',
];

/**
 * Orders test files longest first, so no long file starts last and keeps one worker busy after
 * the others are done. vitest does this from the durations of an earlier run; without one (a
 * fresh clone, CI) it falls back to file size, and a file whose set-up and steps live in a
 * support module (first-hour-journey*.test.ts) looks small. Here, unless every file has a
 * duration, LONGEST_FILES run first (in that order), then files without a duration by their size
 * with the test helpers they import (one level: console servers and browsers are what cost),
 * then the rest as vitest orders them.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = new Map(files.map((spec) => [spec, this.ctx.cache.getTestSpecificationResult(spec)]));
    if (files.every((spec) => known.get(spec))) return super.sort(files);
    const weight = new Map(files.map((spec) => [spec, weigh(spec.moduleId)]));
    const sorted = await super.sort(files);
    const listed = sorted.filter((spec) => weight.get(spec)! > LISTED).sort((a, b) => weight.get(b)! - weight.get(a)!);
    const without = sorted.filter((spec) => !known.get(spec) && weight.get(spec)! <= LISTED).sort((a, b) => weight.get(b)! - weight.get(a)!);
    const withResults = sorted.filter((spec) => known.get(spec) && weight.get(spec)! <= LISTED);
    return [...listed, ...without, ...withResults];
  }
}

const IMPORT = /^import [^;]*? from '(\.[^']+)';$/gm;

/** Weights above this are LONGEST_FILES'. */
const LISTED = Number.MAX_SAFE_INTEGER - 1000;

/** A listed long file outweighs any other; the others weigh their size with their helpers'. */
function weigh(file: string): number {
  const listed = LONGEST_FILES.findIndex((long) => file.endsWith(`/${long}`));
  return listed >= 0 ? Number.MAX_SAFE_INTEGER - listed : sizeWithHelpers(file);
}

/** The file's size plus the sizes of the files it imports from the test folders. */
function sizeWithHelpers(file: string): number {
  const text = readFileSync(file, 'utf8');
  let bytes = text.length;
  for (const [, spec] of text.matchAll(IMPORT)) {
    const path = resolve(dirname(file), spec!);
    if (!path.includes('/tests/')) continue;
    try {
      bytes += statSync(path).size;
    } catch { /* not a file we can weigh */ }
  }
  return bytes;
}
