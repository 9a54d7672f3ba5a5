import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import { ACTIVE_STATUSES, publishTaskUpdate, setTaskStatus } from '../../domain/tasks/task-status.ts';
import { parseTags } from '../../domain/runners/runner.ts';
import { appendTaskLine, forgetSealedJob, onlineSince } from './remote-dispatch.ts';
import { noteWaitReason } from '../queue/explain-waiting.ts';

/**
 * Watches remote runners from every server (each step is a conditional update, so several
 * servers doing it at once is harmless):
 * - a runner silent for `runner_offline_sec` is offline: its `starting` tasks go back to the queue;
 * - a task running on a runner silent for `runner_fail_sec` fails, with a log line;
 * - a waiting task no runner can take gets one log line saying why it waits.
 * @example const stop = startRunnerMonitor(deps); ... stop();
 */
export function startRunnerMonitor(deps: Deps): () => void {
  const told = new Set<number>();
  const periodMs = Math.max(250, Math.min(deps.config.runner_offline_sec, deps.config.runner_fail_sec, 20) * 250);
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void checkRunners(deps, told).catch((err) => console.warn(`[runners] check failed: ${(err as Error).message}`)).finally(() => { busy = false; });
  }, periodMs);
  timer.unref();
  return () => clearInterval(timer);
}

export async function checkRunners(deps: Deps, told: Set<number>): Promise<void> {
  const { db } = deps;
  const runners = await db.selectFrom('runner').selectAll().execute();
  const byId = new Map(runners.map((r) => [r.id, r]));
  const offlineCutoff = onlineSince(deps);
  const failCutoff = new Date(Date.now() - deps.config.runner_fail_sec * 1000).toISOString();
  const silentSince = (id: number, cutoff: string) => {
    const r = byId.get(id);
    return !r || !r.touched || r.touched < cutoff;
  };
  const remote = await db.selectFrom('task').selectAll().where('runner_id', 'is not', null).where('status', 'in', [...ACTIVE_STATUSES]).execute();
  for (const task of remote) {
    const runnerId = task.runner_id!;
    if (task.status === 'starting' && silentSince(runnerId, offlineCutoff)) {
      const back = await db.updateTable('task').set({ status: 'waiting', locked_by: null, runner_id: null })
        .where('id', '=', task.id).where('status', '=', 'starting').where('runner_id', '=', runnerId).returningAll().executeTakeFirst();
      if (back) {
        await appendTaskLine(deps, task, `Runner #${runnerId} went offline before starting the task; the task goes back to the queue`);
        publishTaskUpdate(deps.bus, back);
      }
    } else if (task.status !== 'starting' && silentSince(runnerId, failCutoff)) {
      await appendTaskLine(deps, task, `Runner #${runnerId} has not been in contact for ${deps.config.runner_fail_sec} seconds; the task failed`);
      await setTaskStatus(deps, task.id, 'error');
      forgetSealedJob(deps.db, task.id);
    }
  }
  // Waiting tasks that need a runner: say once why they wait when no online active runner fits.
  const waiting = await db.selectFrom('task').innerJoin('template as tp', 'tp.id', 'task.template_id')
    .select(['task.id', 'task.project_id', sql<string>`coalesce(tp.runner_tag, '')`.as('tag')])
    .where('task.status', '=', 'waiting').execute();
  const online = runners.filter((r) => r.active && r.token_hash && r.touched && r.touched >= offlineCutoff);
  for (const t of waiting) {
    if (told.has(t.id) || (!t.tag && !deps.config.use_remote_runner)) continue;
    const fits = online.some((r) => (r.project_id === null || r.project_id === t.project_id) && (t.tag ? parseTags(r.tags).includes(t.tag) : true));
    if (fits) continue;
    told.add(t.id);
    await noteWaitReason(deps, t, { kind: 'runner', tag: t.tag || null });
  }
  if (told.size > 10_000) told.clear();
}
