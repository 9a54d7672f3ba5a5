import type { Deps } from '../deps.ts';
import { purgeExpiredTasks, type PurgeResult } from './purge-tasks.ts';
import { reclaimSpace } from './reclaim-space.ts';
import { purgeExpiredDeliveries } from './purge-deliveries.ts';
import { purgeExpiredAudit } from './purge-audit.ts';

/** How often retention runs, and how long after start-up the first run waits. */
const EVERY_MS = 60 * 60 * 1000;
const FIRST_AFTER_MS = 60 * 1000;

/**
 * Purges expired tasks and output and expired webhook deliveries, then reclaims the space. One
 * run at a time per process: a second call while one runs waits for it and shares its result
 * (what was removed of tasks and output; deliveries are not counted there).
 * @example const removed = await runRetention(deps);
 */
export function runRetention(deps: Pick<Deps, 'db' | 'config'>): Promise<PurgeResult> {
  const key = deps.db as object;
  const running = inProgress.get(key);
  if (running) return running;
  const run = (async () => {
    const result = await purgeExpiredTasks(deps.db, deps.config);
    const deliveries = await purgeExpiredDeliveries(deps.db, deps.config);
    const audit = await purgeExpiredAudit(deps.db, deps.config);
    if (result.tasks || result.output_lines || deliveries || audit) await reclaimSpace(deps.db);
    return result;
  })().finally(() => inProgress.delete(key));
  inProgress.set(key, run);
  return run;
}

const inProgress = new WeakMap<object, Promise<PurgeResult>>();

/**
 * The background retention job: a minute after start, then hourly. Failures are logged and
 * retried at the next run.
 * @example const job = startRetention(deps); ... job.stop();
 */
export function startRetention(deps: Pick<Deps, 'db' | 'config'>, log: (line: string) => void = (l) => console.warn(`[retention] ${l}`)): { stop: () => void } {
  const tick = () => void runRetention(deps).then((r) => {
    if (r.tasks || r.output_lines) log(`removed ${r.tasks} tasks and ${r.output_lines} output lines`);
  }, (err) => log(`failed: ${(err as Error).message}`));
  const first = setTimeout(tick, FIRST_AFTER_MS);
  const every = setInterval(tick, EVERY_MS);
  first.unref();
  every.unref();
  return { stop: () => { clearTimeout(first); clearInterval(every); } };
}
