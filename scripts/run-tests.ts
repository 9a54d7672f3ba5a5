// Runs vitest and prints its counts as the last line: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const report = '.vitest-report.json';
rmSync(report, { force: true });
const run = spawnSync('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
let passed = 0;
let failed = 0;
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
if (run.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
