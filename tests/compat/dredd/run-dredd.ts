import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type DialectName } from '../../support/dialects.ts';
import { freePort, startServerProcess } from '../../support/server-process.ts';
import { ADMIN } from '../../support/harness.ts';
import type { SemaphoreDocument } from '../../contract/openapi-spec.ts';

const ROOT = join(import.meta.dirname, '../../..');
const DREDD = join(ROOT, 'node_modules/dredd/bin/dredd');
const HOOKS = join(import.meta.dirname, 'semaphore-hooks.cjs');

/** One transaction as Dredd ended it: its name (`tag > /api/path > summary > status > type`) and outcome. */
export interface DreddResult { name: string; status: 'pass' | 'fail' | 'skip'; message: string }

export interface DreddRun { results: DreddResult[]; output: string; serverOutput: string }

/**
 * Runs Semaphore's API test suite (`dredd` with Semaphore's hooks, ported) against a real
 * Signalbox server process on a fresh database of the dialect, as Semaphore's CI runs it against
 * its own server: one document, one server, the transactions in the document's order.
 * @example const { results } = await runDredd('release', docPath, 'sqlite');
 */
export async function runDredd(document: SemaphoreDocument, documentPath: string, dialect: DialectName): Promise<DreddRun> {
  const tmp = mkdtempSync(join(tmpdir(), 'signalbox-dredd-'));
  const database = await freshDatabase(dialect, tmp);
  const port = await freePort();
  const { settings } = database;
  const server = await startServerProcess({
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '',
    SEMAPHORE_DB_DIALECT: dialect, SEMAPHORE_DB_HOST: settings.host, SEMAPHORE_DB_USER: settings.user ?? '', SEMAPHORE_DB: settings.name ?? '',
    SEMAPHORE_PORT: `:${port}`, SEMAPHORE_INTERFACE: '127.0.0.1', SEMAPHORE_TMP_PATH: join(tmp, 'work'),
    SEMAPHORE_ADMIN: ADMIN.login, SEMAPHORE_ADMIN_PASSWORD: ADMIN.password, SEMAPHORE_ADMIN_NAME: ADMIN.name, SEMAPHORE_ADMIN_EMAIL: ADMIN.email,
    // as Semaphore's .dredd/server-wrapper.sh: the suite makes many tasks of one template
    SEMAPHORE_MAX_TASKS_PER_TEMPLATE: '300',
  }, port);
  const url = `http://127.0.0.1:${port}`;
  const resultsFile = join(tmp, 'results.jsonl');
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [DREDD, documentPath, url, `--hookfiles=${HOOKS}`, '--language=nodejs', '--no-color', '--loglevel=warning'], {
        cwd: ROOT,
        env: {
          ...process.env, SIGNALBOX_DREDD_URL: url, SIGNALBOX_DREDD_HOOKS: document, SIGNALBOX_DREDD_RESULTS: resultsFile,
          SIGNALBOX_DREDD_ADMIN: ADMIN.login, SIGNALBOX_DREDD_ADMIN_PASSWORD: ADMIN.password,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (d) => { text += d; });
      child.stderr.on('data', (d) => { text += d; });
      child.once('error', reject);
      // Dredd exits 1 when a transaction failed: the results say which
      child.once('exit', () => resolve(text));
    });
    const results = readFileSync(resultsFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as DreddResult);
    return { results, output, serverOutput: server.output() };
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve)));
    await database.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A transaction the suite runs that Signalbox answers unlike the document, and the reason, with the Go code behind it. */
export interface Exception {
  name: string;
  why: string;
  /** true when the transaction passes or fails depending on the minute the suite runs at */
  either?: boolean;
}

/** `passing, failing (excepted), skipped` of one run, for the log. */
export function summary(results: DreddResult[], exceptions: Exception[]): string {
  const count = (status: DreddResult['status']) => results.filter((r) => r.status === status).length;
  const excepted = results.filter((r) => r.status === 'fail' && exceptions.some((e) => e.name === r.name)).length;
  return `${count('pass')} passing, ${count('fail')} failing (${excepted} of them excepted), ${count('skip')} skipped`;
}
