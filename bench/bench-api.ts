import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/server/config/config.ts';
import { boot } from '../src/server/boot.ts';
import { createApi } from '../src/server/app.ts';
import { freshDatabase, type DialectName } from '../tests/support/dialects.ts';
import { insertProjectWithTemplate } from '../tests/support/fixtures.ts';
import type { Deps } from '../src/server/deps.ts';

export const BENCH_PASSWORD = 'bench-password-1';

/**
 * A runner API on a fresh database of `dialect`, in a new temporary folder named after `name`,
 * with the admin `admin` / BENCH_PASSWORD; what a bench measures against.
 * @example const { deps, api, database } = await bootBenchApi('search', 'sqlite');
 */
export async function bootBenchApi(name: string, dialect: DialectName) {
  const tmp = mkdtempSync(join(tmpdir(), `signalbox-${name}-`));
  const database = await freshDatabase(dialect, tmp);
  const config = loadConfig({ SEMAPHORE_ADMIN: 'admin', SEMAPHORE_ADMIN_PASSWORD: BENCH_PASSWORD, SEMAPHORE_TMP_PATH: join(tmp, 'work') });
  config.db = database.settings;
  const deps = await boot(config, () => {});
  return { tmp, database, config, deps, api: createApi(deps) };
}

/**
 * A project whose template runs `quick.sh` (`exit 0`) from a local folder under `tmp`, used in
 * place: the cheapest real task, what latency benches start.
 * @example const fx = await quickTaskProject(deps, tmp); // fx.template runs quick.sh
 */
export async function quickTaskProject(deps: Deps, tmp: string) {
  const scripts = join(tmp, 'scripts');
  mkdirSync(scripts);
  writeFileSync(join(scripts, 'quick.sh'), 'exit 0\n');
  return insertProjectWithTemplate(deps.db, { ownerId: 1, gitUrl: scripts, playbook: 'quick.sh' });
}
