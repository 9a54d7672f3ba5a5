import type { Deps } from '../../deps.ts';
import type { RunnerRow, TaskRow } from '../../db/schema.ts';
import { claimNextTask } from '../queue/claim-task.ts';
import { claimTaskSecrets, takeTaskSecrets } from '../../domain/tasks/task-secrets.ts';
import { ACTIVE_STATUSES, publishTaskUpdate } from '../../domain/tasks/task-status.ts';
import { insertOutputLines } from '../output/insert-output.ts';
import { now } from '../../lib/time.ts';
import { parseTags } from '../../domain/runners/runner.ts';
import { sealFor, type SealedBox } from '../../domain/runners/runner-crypto.ts';
import { buildJobPayload } from './job-payload.ts';
import { mintTaskToken } from '../../identity/task-token.ts';
import { callRunnerWebhook } from './runner-webhook.ts';
import { workflowTaskContext } from '../../domain/workflows/workflow-task.ts';

/** What a poll tells a runner. */
export interface PollState {
  /** tasks handed to this runner that it has not reported yet, sealed to its key */
  new_jobs: { task_id: number; sealed: SealedBox }[];
  /** the server's status of every task the runner has or reported ("reassigned" when no longer its) */
  current_jobs: { id: number; status: string }[];
  cleaning_requested: boolean;
}

/** Sealed payloads of tasks handed out and not yet running, per database: a lost answer is sent again, secrets included. */
const sealedByDb = new WeakMap<object, Map<number, { runnerId: number; box: SealedBox; secret: Record<string, string> }>>();
function sealedJobs(db: object): Map<number, { runnerId: number; box: SealedBox; secret: Record<string, string> }> {
  let map = sealedByDb.get(db);
  if (!map) sealedByDb.set(db, (map = new Map()));
  return map;
}

/** The claim marker of a runner's tasks (`task.locked_by`). */
export const runnerWorkerId = (runnerId: number) => `runner:${runnerId}`;

export function onlineSince(deps: Deps): string {
  return new Date(Date.now() - deps.config.runner_offline_sec * 1000).toISOString();
}

/**
 * Hands the runner every task it may take now (its tags, its project, its capacity), then
 * answers what it should know: new jobs, the status of its jobs, whether to clear its cache.
 * `interesting` is false when the answer tells the runner nothing it did not report itself.
 */
export async function pollRunner(deps: Deps, runner: RunnerRow, known: Map<number, string>): Promise<{ state: PollState; interesting: boolean }> {
  const { db } = deps;
  const active = [...ACTIVE_STATUSES];
  let mine = await db.selectFrom('task').selectAll().where('runner_id', '=', runner.id).where('status', 'in', active).execute();
  if (runner.active && runner.token_hash) {
    while (runner.max_parallel_tasks <= 0 || mine.length < runner.max_parallel_tasks) {
      const task = await claimNextTask(db, runnerWorkerId(runner.id), 0, {
        kind: 'runner', runnerId: runner.id, projectId: runner.project_id, tags: parseTags(runner.tags),
        untagged: deps.config.use_remote_runner || Boolean(runner.is_default), onlineSince: onlineSince(deps),
      });
      if (!task) break;
      mine.push(task);
      await handOut(deps, runner, task);
    }
  }
  const newJobs: PollState['new_jobs'] = [];
  for (const task of mine) {
    if (task.status !== 'starting' || known.has(task.id)) continue;
    const cached = sealedJobs(db).get(task.id);
    // sealed to this runner's key; a task that moved to another runner is sealed again for that one
    let sealed = cached?.runnerId === runner.id ? cached.box : undefined;
    if (!sealed) {
      const secret = cached?.secret ?? takeTaskSecrets(task.id);
      const template = await db.selectFrom('template').selectAll().where('id', '=', task.template_id).executeTakeFirst();
      const jwt = template ? await mintTaskToken(deps, task, template) : null;
      const workflow = await workflowTaskContext(db, task.id, deps.config.web_host);
      const payload = await buildJobPayload(db, deps.secrets, task, secret, jwt, workflow, deps.config.secret_sources);
      sealed = sealFor(runner.public_key ?? '', JSON.stringify(payload));
      sealedJobs(db).set(task.id, { runnerId: runner.id, box: sealed, secret });
    }
    newJobs.push({ task_id: task.id, sealed });
  }
  const current = new Map(mine.map((t) => [t.id, t.status]));
  const others = [...known.keys()].filter((id) => !current.has(id));
  if (others.length) {
    const rows = await db.selectFrom('task').select(['id', 'status', 'runner_id']).where('id', 'in', others).execute();
    for (const id of others) {
      const row = rows.find((r) => r.id === id);
      current.set(id, !row ? 'reassigned' : row.runner_id === runner.id ? row.status : 'reassigned');
    }
  }
  const state: PollState = {
    new_jobs: newJobs,
    current_jobs: [...current].map(([id, status]) => ({ id, status })),
    cleaning_requested: runner.cleaning_requested !== null,
  };
  if (runner.cleaning_requested) await db.updateTable('runner').set({ cleaning_requested: null }).where('id', '=', runner.id).execute();
  const changed = [...known].some(([id, status]) => current.get(id) !== status);
  return { state, interesting: newJobs.length > 0 || changed || state.cleaning_requested };
}

async function handOut(deps: Deps, runner: RunnerRow, task: TaskRow): Promise<void> {
  // survey secrets wait sealed in the database (whichever server queued the task) until claimed
  await claimTaskSecrets(deps, task.id);
  await appendTaskLine(deps, task, `Task handed to runner #${runner.id}${runner.name ? ` (${runner.name})` : ''}`);
  publishTaskUpdate(deps.bus, task);
  void callRunnerWebhook(runner, task, 'start');
}

/** Forget a payload once the runner has the task (it reported it) or the task left the runner. */
export function forgetSealedJob(db: object, taskId: number): void {
  sealedJobs(db).delete(taskId);
}

/** Adds one line to a task's log and shows it to live viewers. */
export async function appendTaskLine(deps: Pick<Deps, 'db' | 'bus'>, task: { id: number; project_id: number }, output: string): Promise<void> {
  const time = now();
  await insertOutputLines(deps.db, task.id, [{ time, output }]);
  deps.bus.publish({ type: 'log', project_id: task.project_id, task_id: task.id, time, output });
}
