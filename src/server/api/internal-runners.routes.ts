import { Hono, type Context } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AppEnv } from '../http/context.ts';
import type { RunnerRow } from '../db/schema.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { readJson } from '../http/validation.ts';
import { apiBodyBudget } from '../http/body-limits.ts';
import { parseBoundedJson } from '../http/json-budget.ts';
import { newRunnerKeyPair, newRunnerToken, tokenHash } from '../domain/runners/runner-crypto.ts';
import { deleteRunner } from '../domain/runners/runner.service.ts';
import { smallCount } from '../domain/shared/project-refs.ts';
import { insertOutputLines } from '../engine/output/insert-output.ts';
import { autorunDeploys } from '../engine/queue/autorun-deploys.ts';
import { canMove, isFinished, setTaskStatus, TASK_STATUSES } from '../domain/tasks/task-status.ts';
import { runnerHub } from '../engine/remote/runner-hub.ts';
import { appendTaskLine, forgetSealedJob, pollRunner } from '../engine/remote/remote-dispatch.ts';
import { callRunnerWebhook } from '../engine/remote/runner-webhook.ts';
import { readTaskOutputs } from '../domain/workflows/workflow-outputs.ts';
import { saveTaskOutputs, workflowTaskContext } from '../domain/workflows/workflow-task.ts';
import type { TaskRow } from '../db/schema.ts';
import { saveFactsText } from '../domain/tasks/host-facts.ts';
import { executorImageField } from '../domain/templates/executor-fields.ts';

const text = (max: number) => z.string().max(max, `at most ${max} characters`);

/** `POST /api/internal/runners`: a runner registers with a registration token (the global or its own one-time token). */
export const runnerRegisterSchema = z.strictObject({
  registration_token: text(255).min(1, 'required'),
  name: text(255).optional(),
  webhook: text(1024).optional(),
  max_parallel_tasks: smallCount.optional(),
  tags: z.array(text(255)).max(32).optional(),
  project_id: z.number().int().positive().nullable().optional(),
  /** the runner's own X25519 public key (PEM); without it the server makes a pair and returns the private half once */
  public_key: text(4096).optional(),
});

/** `PUT /api/internal/runners`: progress of the runner's jobs (Semaphore's field names, any case). */
export const runnerProgressSchema = z.strictObject({
  jobs: z.array(z.strictObject({
    id: z.number().int().positive(),
    status: z.enum(TASK_STATUSES).optional(),
    log_records: z.array(z.strictObject({ time: text(64).optional(), message: z.string().max(1_000_000) })).max(100_000).optional(),
    commit_hash: text(64).nullable().optional(),
    commit_message: text(4096).optional(),
    /** the container image the runner ran the task in */
    executor_image: executorImageField,
    /** a workflow task's outputs file and its `.not-captured` list, as the JSON texts they are (sent with `success`) */
    outputs: z.string().max(1_000_000).optional(),
    not_captured: z.string().max(1_000_000).optional(),
    /** the host facts the job gathered, as the JSON text of the facts file (sent with its end; judged as one written here) */
    facts: z.string().max(8_000_000).optional(),
  })).max(1000),
});

/** Semaphore's runner sends `Jobs`, `ID`, `LogRecords`: Go decodes any case; so do we. */
function lowerKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = k === 'LogRecords' ? 'log_records' : k === 'CommitHash' ? 'commit_hash' : k === 'CommitMessage' ? 'commit_message' : k === 'ExecutorImage' ? 'executor_image' : k.toLowerCase();
    // `__PROTO__` would become the object's prototype, whose fields validation then reads
    if (key === '__proto__') continue;
    out[key] = lowerKeys(v);
  }
  return out;
}

/** The runner of the request's `X-Runner-Token`; its contact time is recorded (in the same statement: every poll and report pays it). */
async function runnerOf(c: Context<AppEnv>): Promise<RunnerRow> {
  const token = c.req.header('x-runner-token');
  if (!token) throw new ApiError('unauthorized', 'Invalid token');
  const runner = await touch(c, 'token_hash', tokenHash(token));
  if (!runner) throw new ApiError('not_found', 'Runner not found');
  return runner;
}

function touch(c: Context<AppEnv>, by: 'token_hash' | 'id', value: string | number): Promise<RunnerRow | undefined> {
  return c.var.deps.db.updateTable('runner').set({ touched: new Date().toISOString() }).where(by, '=', value).returningAll().executeTakeFirst();
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `X-Runner-Jobs: 12=running,13=starting`: what the runner believes about its jobs. */
function knownJobs(header: string | undefined): Map<number, string> {
  const known = new Map<number, string>();
  for (const part of (header ?? '').split(',')) {
    const m = /^\s*(\d{1,10})=([a-z_]{1,32})\s*$/.exec(part);
    if (m) known.set(Number(m[1]), m[2]!);
  }
  return known;
}

/**
 * `/api/internal/runners` (reference §8), authenticated by `X-Runner-Token` instead of a session.
 * GET is a long poll: it answers at once when there is a job or a change for the runner, else
 * when a task update wakes it, else after `runner_poll_hold_ms` (`?wait=0` answers at once).
 */
export const internalRunnerRoutes = new Hono<AppEnv>();

internalRunnerRoutes.post('/', async (c) => {
  const input = await readJson(c, runnerRegisterSchema);
  const { db, config } = c.var.deps;
  const token = newRunnerToken();
  const keys = input.public_key ? null : newRunnerKeyPair();
  const publicKey = input.public_key ?? keys!.publicKey;
  if (input.public_key && !/^-----BEGIN PUBLIC KEY-----/.test(input.public_key)) throw badRequest('public_key: must be a PEM public key');
  const fields = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.webhook !== undefined ? { webhook: input.webhook } : {}),
    ...(input.max_parallel_tasks !== undefined ? { max_parallel_tasks: input.max_parallel_tasks } : {}),
    ...(input.tags !== undefined ? { tags: JSON.stringify([...new Set(input.tags.map((t) => t.trim()).filter(Boolean))]) } : {}),
  };
  const own = await db.updateTable('runner')
    .set({ ...fields, token_hash: tokenHash(token), registration_token_hash: null, public_key: publicKey, active: 1, touched: new Date().toISOString() })
    .where('registration_token_hash', '=', tokenHash(input.registration_token)).where('token_hash', 'is', null)
    .returning('id').executeTakeFirst();
  if (!own) {
    if (!config.runner_registration_token || !sameSecret(input.registration_token, config.runner_registration_token)) throw badRequest('Invalid registration token');
    if (input.project_id) {
      const project = await db.selectFrom('project').select('id').where('id', '=', input.project_id).executeTakeFirst();
      if (!project) throw badRequest('project_id: no such project');
    }
    await db.insertInto('runner').values({
      project_id: input.project_id ?? null, name: '', webhook: '', max_parallel_tasks: 0, tags: '[]', ...fields, active: 1,
      token_hash: tokenHash(token), registration_token_hash: null, public_key: publicKey, touched: new Date().toISOString(), cleaning_requested: null,
      created: new Date().toISOString(),
    }).execute();
  }
  return c.json({ token, ...(keys ? { private_key: keys.privateKey } : {}) });
});

internalRunnerRoutes.get('/', async (c) => {
  const deps = c.var.deps;
  let runner = await runnerOf(c);
  const known = knownJobs(c.req.header('x-runner-jobs'));
  const hold = c.req.query('wait') === '0' ? 0 : deps.config.runner_poll_hold_ms;
  const deadline = Date.now() + hold;
  const signal = c.req.raw.signal;
  const hub = runnerHub(deps);
  for (;;) {
    const seen = hub.seq;
    const { state, interesting } = await pollRunner(deps, runner, known);
    if (interesting || Date.now() >= deadline || signal.aborted) return c.json(state);
    // look again (and touch the runner) well within the offline timeout while it waits
    const slice = Math.max(100, Math.min(5000, (deps.config.runner_offline_sec * 1000) / 4));
    await hub.wait(Math.min(deadline - Date.now(), slice), signal, seen);
    if (signal.aborted) return c.body(null, 204);
    const row = await touch(c, 'id', runner.id);
    if (!row) return c.json({ error: 'Runner not found' }, 404);
    runner = row;
  }
});

internalRunnerRoutes.put('/', async (c) => {
  const runner = await runnerOf(c);
  const deps = c.var.deps;
  let raw: unknown;
  try {
    raw = lowerKeys(parseBoundedJson(await c.req.text(), apiBodyBudget(c.req.method, c.req.path).values));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw badRequest('body: not valid JSON');
  }
  const parsed = runnerProgressSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw badRequest(`${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  for (const job of parsed.data.jobs) {
    const task = await deps.db.selectFrom('task').selectAll().where('id', '=', job.id).where('runner_id', '=', runner.id).executeTakeFirst();
    if (!task) continue;
    const received = new Date().toISOString();
    const lines = (job.log_records ?? []).map((r) => ({ time: r.time || received, output: r.message.replaceAll('\u0000', '') }));
    await insertOutputLines(deps.db, task.id, lines);
    for (const { time, output } of lines) deps.bus.publish({ type: 'log', project_id: task.project_id, task_id: task.id, time, output });
    if (job.commit_hash) await deps.db.updateTable('task').set({ commit_hash: job.commit_hash, commit_message: job.commit_message ?? '' }).where('id', '=', task.id).execute();
    if (job.executor_image) await deps.db.updateTable('task').set({ executor_image: job.executor_image }).where('id', '=', task.id).execute();
    if (job.facts) await keepReportedFacts(deps, task, job.facts);
    if (job.status && job.status !== task.status && job.status !== 'starting' && job.status !== 'waiting') {
      if (job.status === 'success') job.status = await keepReportedOutputs(deps, task, job);
      if (job.status !== 'waiting_confirmation' || task.status === 'running') forgetSealedJob(deps.db, task.id);
      // a quick job's `running` and its end can reach us in one batch: pass through running, as the job did
      const through = task.status === 'starting' && !canMove('starting', job.status) && canMove('running', job.status)
        ? await setTaskStatus(deps, task.id, 'running', {}, task) : null;
      const moved = await setTaskStatus(deps, task.id, job.status, {}, through ?? task);
      if (moved && isFinished(job.status)) void callRunnerWebhook(runner, task, 'finish');
      // a build that succeeded on a runner starts its autorun deploys, as one that succeeded here does
      if (moved && job.status === 'success') await autorunDeploys(deps, task).catch((err) => console.warn(`[runners] autorun after task ${task.id} failed: ${(err as Error).message}`));
    }
  }
  return c.body(null, 204);
});

/**
 * A workflow task's success carries its outputs: they are judged with the limits of a task run
 * here (`readTaskOutputs`) and stored before the success lands, so the run continues with them;
 * outputs that break the rules fail the task, with the reason in its log.
 */
async function keepReportedOutputs(deps: AppEnv['Variables']['deps'], task: TaskRow, job: { outputs?: string; not_captured?: string }): Promise<'success' | 'error'> {
  if (!(await workflowTaskContext(deps.db, task.id, ''))) return 'success';
  try {
    const { outputs, notCaptured } = readTaskOutputs(job.outputs ?? '', job.not_captured ?? '');
    await saveTaskOutputs(deps.db, task.id, outputs, notCaptured);
    return 'success';
  } catch (err) {
    await appendTaskLine(deps, task, `Outputs rejected: ${(err as Error).message}`);
    return 'error';
  }
}

/** Facts the runner's run gathered land in the server's host_facts; failing to store them does not fail the task. */
async function keepReportedFacts(deps: AppEnv['Variables']['deps'], task: TaskRow, text: string): Promise<void> {
  try {
    await saveFactsText(deps.db, task, text);
  } catch (err) {
    await appendTaskLine(deps, task, `Storing the gathered host facts failed: ${(err as Error).message}`);
  }
}

internalRunnerRoutes.delete('/', async (c) => {
  const runner = await runnerOf(c);
  await deleteRunner(c.var.deps.db, runner);
  return c.body(null, 204);
});
