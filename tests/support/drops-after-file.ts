// Also a vitest `setupFiles` entry: the PostgreSQL test databases a file's servers used are
// dropped together after the file's last test (the hook is registered before the file's own, so
// it runs after them). Each DROP DATABASE forces a checkpoint of the whole shared server (about
// a second of waiting at load 14); drops made at the same time share one, so a file that boots a
// server per test no longer waits for a checkpoint per test (tests/README.md). Where files share
// a process (`isolate: false`, vitest.config.ts) this module runs again before each file: each
// run registers the hook for its own file, on the one list kept on globalThis.
import { afterAll } from 'vitest';

type Drop = () => Promise<void>;

const PENDING = Symbol.for('signalbox.dropsAfterFile');
const DROPS_AT_ONCE = 8;
const store = globalThis as Record<symbol, Drop[] | undefined>;

/** Drops the database after this test file's last test; outside a vitest run (bench/) at once. */
export function dropAfterFile(drop: Drop): Promise<void> {
  const pending = store[PENDING];
  if (!pending) return drop();
  pending.push(drop);
  return Promise.resolve();
}

if (process.env.VITEST) {
  const pending: Drop[] = (store[PENDING] ??= []);
  afterAll(async () => {
    const drops = pending.splice(0);
    for (let i = 0; i < drops.length; i += DROPS_AT_ONCE) await Promise.all(drops.slice(i, i + DROPS_AT_ONCE).map((drop) => drop()));
  }, 600_000); // a file of a hundred servers at a high load: a dozen rounds of checkpoints
}
