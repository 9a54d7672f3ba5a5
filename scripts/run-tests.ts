// Runs vitest and prints its counts as the last line: "N passed, N failed", after a line with
// the run's wall time and the machine's load, so a slow run shows whether the machine was busy.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { FILE_TIMES, type FileTime } from '../tests/support/file-times-reporter.ts';

const loadNow = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const startedAt = Date.now();
const loadAtStart = loadNow();

const report = '.vitest-report.json';
rmSync(report, { force: true });
rmSync(FILE_TIMES, { force: true });
const run = spawnSync('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
  '--reporter=./tests/support/file-times-reporter.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
let passed = 0;
let failed = 0;
let slowest: string[] = [];
try {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed = result.numPassedTests;
  // A file that fails to load has no failed test of its own; count it once.
  const brokenFiles = result.testResults.filter(
    (file: { status: string; assertionResults: { status: string }[] }) =>
      file.status === 'failed' && !file.assertionResults.some((a) => a.status === 'failed'),
  ).length;
  failed = result.numFailedTests + brokenFiles;
} catch {
  failed = Math.max(1, failed);
}
rmSync(report, { force: true });
try {
  slowest = slowestFiles(JSON.parse(readFileSync(FILE_TIMES, 'utf8')));
} catch { /* no times: the run ended before its reporters did */ }
rmSync(FILE_TIMES, { force: true });
if (run.status !== 0 && failed === 0) failed = 1;
if (slowest.length > 1) console.log(`slowest files:\n${slowest.join('\n')}`);
const wall = Math.round((Date.now() - startedAt) / 1000);
console.log(`suite: ${wall} s wall (${Math.floor(wall / 60)} min ${wall % 60} s); load average (1, 5, 15 min) ${loadAtStart} at the start, ${loadNow()} at the end`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);

/** The 20 longest files of the run, set-up and hooks included, for tests/README.md's table: "  123.4 s  tests/…". */
function slowestFiles(times: FileTime[]): string[] {
  return [...times].sort((a, b) => b.seconds - a.seconds).slice(0, 20)
    .map((time) => `${time.seconds.toFixed(1).padStart(7)} s  ${time.file}`);
}
