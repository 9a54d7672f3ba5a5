import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { TaskRow } from '../db/schema.ts';
import { Dispatcher } from './dispatcher.ts';
import { LocalJob } from './run/local-job.ts';
import { claimTaskSecrets, dropTaskSecrets, takeTaskSecrets } from '../domain/tasks/task-secrets.ts';
import { recoverInterruptedTasks, removeLeftoverContainers } from './queue/recover-tasks.ts';
import { beatHeartbeat, HEARTBEAT_MS, retireWorker, STALE_AFTER_MS, type WorkerIdentity } from './queue/engine-workers.ts';
import { thisHost } from './queue/this-machine.ts';
import { pruneTemplateTasks } from './queue/prune-template-tasks.ts';
import { autorunDeploys } from './queue/autorun-deploys.ts';
import { explainWaitingTasks } from './queue/explain-waiting.ts';
import { isFinished, publishTaskUpdate } from '../domain/tasks/task-status.ts';
import { taskIdentitySource } from './process/task-identity-source.ts';
import type { TaskIdentitySource } from './process/task-identity.ts';
import { startRunnerMonitor } from './remote/runner-monitor.ts';
import { startWorkflowDriver, type WorkflowDriver } from '../workflows/workflow-driver.ts';

/** A slow safety sweep for tasks queued where this process's bus cannot see them (another server). */
const SWEEP_MS = 15_000;

export interface Engine {
  /** this engine's claim marker (`task.locked_by`) */
  readonly workerId: string;
  /** task ids running here right now */
  runningTaskIds(): number[];
  /** resolves once nothing is running here (tests, benchmarks) */
  idle(): Promise<void>;
  /** stops dispatching, force-stops running tasks and waits for them to end */
  stop(): Promise<void>;
  /** moves workflow runs on as their tasks end, approvals are decided and delays expire */
  readonly workflows: WorkflowDriver;
}

/**
 * Starts the task engine on `deps`: registers itself (heartbeat every 10 s), recovers tasks that
 * engines no longer alive left active, then dispatches waiting tasks (woken by bus `update`s)
 * and runs them as local jobs. Stop/confirm/
 * reject requests reach a running job as bus `update`s written by the API. Each job takes its
 * OS identity from `identities` (Semaphore's `process` settings unless given).
 * @example const engine = await startEngine(deps); ... await engine.stop();
 */
export async function startEngine(deps: Deps, identities: TaskIdentitySource = taskIdentitySource(deps.config.process, deps.config.tmp_path)): Promise<Engine> {
  const host = thisHost();
  const self: WorkerIdentity = { host, pid: process.pid, id: `${host}:${process.pid}:${randomBytes(4).toString('hex')}` };
  const workerId = self.id;
  await beatHeartbeat(deps.db, self);
  await recoverInterruptedTasks(deps, self);
  void removeLeftoverContainers(deps, self).catch((err) => console.warn(`[engine] removing leftover task containers failed: ${(err as Error).message}`));
  const jobs = new Map<number, { job: LocalJob; done: Promise<void> }>();
  let idleWaiters: (() => void)[] = [];

  const startJob = (task: TaskRow) => {
    publishTaskUpdate(deps.bus, task);
    const job = new LocalJob(deps, task, takeTaskSecrets(task.id), identities);
    const done = job.run().then(async (status) => {
      if (status === 'success') await autorunDeploys(deps, task).catch((err) => console.warn(`[engine] autorun after task ${task.id} failed: ${err.message}`));
      if (deps.config.max_tasks_per_template > 0) await pruneTemplateTasks(deps.db, task.template_id, deps.config.max_tasks_per_template).catch(() => 0);
    }).catch((err) => {
      // Recording the end failed (database gone); the next start's recovery will mark the task.
      console.warn(`[engine] task ${task.id} could not be finished: ${(err as Error).message}`);
    }).finally(() => {
      jobs.delete(task.id);
      if (!jobs.size) {
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const w of waiters) w();
      }
      dispatcher.wake();
    });
    jobs.set(task.id, { job, done });
  };

  // With use_remote_runner every task goes to a remote runner; otherwise tasks whose template
  // names a runner tag do (engine/remote), the rest run here.
  const local = new Dispatcher(deps.db, workerId, () => deps.config.max_parallel_tasks, startJob, (task) => claimTaskSecrets(deps, task.id),
    () => explainWaitingTasks(deps, deps.config.max_parallel_tasks).catch((err) => console.warn(`[engine] explaining waiting tasks failed: ${(err as Error).message}`)));
  const dispatcher = { wake: () => { if (!deps.config.use_remote_runner) local.wake(); }, stop: () => local.stop() };
  const stopRunnerMonitor = startRunnerMonitor(deps);
  // Updates of every server on the database (through the PostgreSQL relay): a stop asked for
  // on another server reaches the job here; a task queued or ended there wakes the dispatcher.
  const unsubscribe = deps.bus.subscribe((message) => {
    if (message.type !== 'update') return;
    jobs.get(message.task_id)?.job.notify(message.status);
    if (isFinished(message.status)) dropTaskSecrets(message.task_id);
    if (message.status === 'waiting' || isFinished(message.status)) dispatcher.wake();
  });
  const sweep = setInterval(() => dispatcher.wake(), SWEEP_MS);
  sweep.unref();
  // The heartbeat keeps other servers from recovering our tasks; the same timer recovers tasks
  // of engines that went silent (another server that crashed).
  let beats = 0;
  const heartbeat = setInterval(() => {
    void beatHeartbeat(deps.db, self).then(async () => {
      if (++beats % Math.ceil(STALE_AFTER_MS / HEARTBEAT_MS / 2) === 0) await recoverInterruptedTasks(deps, self);
    }).catch((err) => console.warn(`[engine] heartbeat failed: ${(err as Error).message}`));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  dispatcher.wake();
  const workflows = await startWorkflowDriver(deps);

  return {
    workerId,
    workflows,
    runningTaskIds: () => [...jobs.keys()],
    idle: () => (jobs.size ? new Promise<void>((resolve) => idleWaiters.push(resolve)) : Promise.resolve()),
    async stop() {
      // first: a task ended by the shutdown must not move its workflow run on (the run continues after the restart)
      workflows.stop();
      clearInterval(sweep);
      clearInterval(heartbeat);
      stopRunnerMonitor();
      unsubscribe();
      await dispatcher.stop();
      for (const { job } of jobs.values()) {
        job.log('Task stopped: the server is shutting down');
        job.kill(true);
      }
      await Promise.all([...jobs.values()].map((j) => j.done));
      await retireWorker(deps.db, workerId).catch(() => undefined);
    },
  };
}

