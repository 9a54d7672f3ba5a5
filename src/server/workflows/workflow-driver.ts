import type { Deps } from '../deps.ts';
import { FINISHED_STATUSES, isFinished } from '../domain/tasks/task-status.ts';
import { ACTIVE_RUN_STATUSES, advanceRun, expireDue } from '../domain/workflows/workflow-run.service.ts';

/** setTimeout's ceiling; a longer wait is set again when it fires. */
const MAX_TIMER_MS = 2_147_000_000;
/**
 * A slow safety sweep, as the engine's: a server that dies within the relay's batching window
 * after starting a delay (or ending a task) never announced it, so the others read the database
 * for deadlines and task ends nobody acted on. Runs move on events; this only catches lost ones.
 */
const SWEEP_MS = 15_000;

export interface WorkflowDriver {
  /** resolves when every advance started so far has settled (tests, benchmarks) */
  settled(): Promise<void>;
  stop(): void;
}

/**
 * Drives workflow runs from the engine's own events, with no polling tick: a task that ends
 * (on this server or, through the PostgreSQL relay, on another) moves its run on; a run change
 * announcing a deadline (a delay, an approval timeout) sets a timer that moves it on when due.
 * At start every active run is moved on once (tasks that ended while no server listened) and
 * every deadline is set again with the time left; a 15 s sweep catches announcements a dying
 * server never sent. Every server may act on the same event:
 * node starts are claims in the database, so each happens once.
 * @example const driver = await startWorkflowDriver(deps); ... driver.stop();
 */
export async function startWorkflowDriver(deps: Deps): Promise<WorkflowDriver> {
  const timers = new Map<number, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  const track = (work: Promise<void>) => {
    const done = work.catch((err) => console.warn(`[workflows] ${(err as Error).message}`)).finally(() => inFlight.delete(done));
    inFlight.add(done);
  };
  const setTimer = (runNodeId: number, due: string) => {
    if (stopped || timers.has(runNodeId)) return;
    const wait = Math.min(Math.max(new Date(due).getTime() - Date.now(), 0), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      timers.delete(runNodeId);
      if (new Date(due).getTime() > Date.now()) setTimer(runNodeId, due);
      else track(expireDue(deps, runNodeId));
    }, wait);
    timer.unref();
    timers.set(runNodeId, timer);
  };
  const armRun = async (runId: number | null) => {
    let query = deps.db.selectFrom('workflow_run_node').select(['id', 'due']).where('due', 'is not', null).where('status', 'in', ['delay', 'approval']);
    if (runId !== null) query = query.where('run_id', '=', runId);
    for (const row of await query.execute()) setTimer(row.id, row.due!);
  };
  const unsubscribe = deps.bus.subscribe((message) => {
    if (stopped) return;
    if (message.type === 'update' && isFinished(message.status)) {
      track(deps.db.selectFrom('workflow_run_node').select('run_id').where('task_id', '=', message.task_id).executeTakeFirst()
        .then((row) => (row ? advanceRun(deps, row.run_id) : undefined)));
    } else if (message.type === 'workflow' && message.due) {
      track(armRun(message.run_id));
    }
  });
  const active = await deps.db.selectFrom('workflow_run').select('id').where('status', 'in', ACTIVE_RUN_STATUSES).execute();
  for (const run of active) track(advanceRun(deps, run.id));
  await armRun(null);
  const sweep = setInterval(() => {
    track(armRun(null));
    track(deps.db.selectFrom('workflow_run_node').innerJoin('task', 'task.id', 'workflow_run_node.task_id').select('workflow_run_node.run_id')
      .where('workflow_run_node.status', '=', 'running').where('task.status', 'in', [...FINISHED_STATUSES]).execute()
      .then((rows) => { for (const run of new Set(rows.map((r) => r.run_id))) track(advanceRun(deps, run)); }));
  }, SWEEP_MS);
  sweep.unref();
  return {
    settled: async () => { while (inFlight.size) await Promise.all([...inFlight]); },
    stop() {
      stopped = true;
      clearInterval(sweep);
      unsubscribe();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
