import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/config.ts';
import type { Deps } from '../deps.ts';
import { LocalJob } from '../engine/run/local-job.ts';
import { isFinished } from '../domain/tasks/task-status.ts';
import { factsTextOf } from '../domain/tasks/host-facts.ts';
import { taskIdentitySource } from '../engine/process/task-identity-source.ts';
import type { TaskIdentitySource } from '../engine/process/task-identity.ts';
import { openSealed, type SealedBox } from '../domain/runners/runner-crypto.ts';
import type { JobPayload } from '../engine/remote/job-payload.ts';
import type { PollState } from '../engine/remote/remote-dispatch.ts';
import { loadMirror, MirrorPool } from './mirror-deps.ts';
import { sweepTaskContainers } from '../engine/container/container-recovery.ts';
import { taskImageOf } from '../engine/container/container-plan.ts';

export interface RunnerSettings {
  apiUrl: string;
  token: string;
  privateKey: string;
  oneOff: boolean;
  /** how often collected output and statuses are sent (ms) */
  flushMs?: number;
}

interface Progress {
  status?: string;
  records: { time: string; message: string }[];
  commit_hash?: string | null;
  commit_message?: string;
  /** the container image the task runs in, told with its first progress */
  executor_image?: string;
  /** a workflow task's outputs and the list of those not captured, as JSON texts, sent with its `success` */
  outputs?: string;
  not_captured?: string;
  /** the host facts the job gathered (the facts file's JSON text), sent with its end */
  facts?: string;
}

interface RunningJob {
  job: LocalJob;
  mirror: Deps;
  /** the status the server last showed (or accepted from us) */
  serverStatus: string;
  /** the job ended; drop it once its progress is sent */
  ended: boolean;
  /** the task left this runner (reassigned, finished by the server): nothing more is sent */
  abandoned: boolean;
}

const BACKOFF_MS = [250, 500, 1000, 2000, 5000, 10_000, 30_000];

/**
 * The remote runner: holds one long poll open to the server, runs the jobs it is handed with
 * the server's engine code in a mirror database, streams their output and statuses in batches
 * (`PUT`), and mirrors stop, force stop, confirm and reject back into the job. Network errors
 * and server restarts are retried with backoff. A journal in its tmp path lists every task it
 * ever started, so a restarted runner never runs a task twice: it reports such a task as failed.
 * @example const runner = new RunnerProcess(config, settings); await runner.run();
 */
export class RunnerProcess {
  readonly #config: Config;
  readonly #s: RunnerSettings;
  readonly #jobs = new Map<number, RunningJob>();
  readonly #pending = new Map<number, Progress>();
  readonly #journalPath: string;
  readonly #started: Set<number>;
  #stopped = false;
  #poll: AbortController | null = null;
  #flushTimer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #ranOne = false;
  readonly #mirrors: MirrorPool;
  readonly #identities: TaskIdentitySource;

  constructor(config: Config, settings: RunnerSettings) {
    this.#config = config;
    this.#s = settings;
    this.#identities = taskIdentitySource(config.process, config.tmp_path);
    mkdirSync(config.tmp_path, { recursive: true, mode: 0o700 });
    this.#journalPath = join(config.tmp_path, 'runner-started-tasks.txt');
    this.#started = new Set(readJournal(this.#journalPath));
    this.#mirrors = new MirrorPool(config);
  }

  stop(): void {
    this.#stopped = true;
    this.#poll?.abort();
  }

  async run(): Promise<void> {
    await this.#mirrors.warm();
    await this.#removeLeftoverContainers();
    let failures = 0;
    this.#flushTimer = setInterval(() => void this.#flush(), this.#s.flushMs ?? 200);
    try {
      while (!this.#stopped) {
        try {
          const state = await this.#pollOnce();
          failures = 0;
          if (state) await this.#apply(state);
        } catch (err) {
          if (this.#stopped) break;
          const wait = BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]!;
          console.warn(`[runner] server unreachable (${(err as Error).message}); retrying in ${wait} ms`);
          await sleep(wait);
        }
        if (this.#s.oneOff && this.#ranOne && !this.#jobs.size) break;
      }
    } finally {
      for (const j of this.#jobs.values()) j.job.kill(true);
      await Promise.all([...this.#jobs.values()].map((j) => waitEnded(j)));
      await this.#flush();
      clearInterval(this.#flushTimer!);
    }
  }

  /** Containers of an earlier run of this runner are leftovers: its tasks never run again (the journal). */
  async #removeLeftoverContainers(): Promise<void> {
    try {
      const removed = await sweepTaskContainers({ tmpPath: this.#config.tmp_path, executor: this.#config.executor }, async () => new Set());
      if (removed.length) console.log(`[runner] removed the containers tasks ${removed.join(', ')} left behind`);
    } catch (err) {
      console.warn(`[runner] removing leftover task containers failed: ${(err as Error).message}`);
    }
  }

  async #pollOnce(): Promise<PollState | null> {
    this.#poll = new AbortController();
    const known = [...this.#jobs].filter(([, j]) => !j.abandoned).map(([id, j]) => `${id}=${j.serverStatus}`).join(',');
    const res = await fetch(`${this.#s.apiUrl}/api/internal/runners`, {
      headers: { 'x-runner-token': this.#s.token, ...(known ? { 'x-runner-jobs': known } : {}) },
      signal: this.#poll.signal,
    });
    if (res.status === 401 || res.status === 404) {
      await res.body?.cancel();
      throw new Error(`the server does not know this runner (${res.status}); register it again`);
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`poll answered ${res.status}`);
    }
    return (await res.json()) as PollState;
  }

  async #apply(state: PollState): Promise<void> {
    if (state.cleaning_requested) this.#clearCache();
    for (const { id, status } of state.current_jobs) {
      const running = this.#jobs.get(id);
      if (running) {
        this.#mirrorServerStatus(id, running, status);
      } else if (this.#started.has(id) && !isFinished(status) && status !== 'reassigned' && status !== 'starting') {
        // We started it before a restart and lost it: it must not run again.
        this.#report(id, { status: 'error', records: [{ time: new Date().toISOString(), message: `The runner restarted while the task was ${status}; it is not run again` }] });
      }
    }
    for (const job of state.new_jobs) {
      if (this.#jobs.has(job.task_id)) continue;
      if (this.#started.has(job.task_id)) {
        this.#report(job.task_id, { status: 'error', records: [{ time: new Date().toISOString(), message: 'The runner restarted after receiving the task; it is not run again' }] });
        continue;
      }
      await this.#start(job.task_id, job.sealed);
    }
  }

  #mirrorServerStatus(id: number, running: RunningJob, status: string): void {
    if (status === running.serverStatus) return;
    running.serverStatus = status;
    if (status === 'reassigned' || (isFinished(status) && !running.ended)) {
      running.abandoned = true;
      this.#pending.delete(id);
      running.job.kill(true);
      return;
    }
    if (status === 'confirmed' || status === 'rejected' || status === 'stopping') {
      void running.mirror.db.updateTable('task').set({ status }).where('id', '=', id).execute().then(() => running.job.notify(status), () => running.job.notify(status));
    } else if (status === 'stopped') {
      running.job.notify('stopped');
    }
  }

  async #start(taskId: number, sealed: SealedBox): Promise<void> {
    // Journal first: whatever happens next, this task is never started again by this runner.
    this.#started.add(taskId);
    noteInJournal(this.#journalPath, this.#started, taskId);
    let payload: JobPayload;
    try {
      payload = JSON.parse(openSealed(this.#s.privateKey, sealed)) as JobPayload;
    } catch (err) {
      this.#report(taskId, { status: 'error', records: [{ time: new Date().toISOString(), message: `The runner cannot open the task: ${(err as Error).message} (is its private key the one the server knows?)` }] });
      return;
    }
    const mirror = await this.#mirrors.take();
    const task = await loadMirror(mirror, payload);
    // the token comes from the server (null: none); the runner never mints one with its own keys
    const job = new LocalJob(mirror, task, payload.secret, this.#identities, { jwt: payload.jwt ?? null, workflow: payload.workflow ?? null });
    const running: RunningJob = { job, mirror, serverStatus: 'starting', ended: false, abandoned: false };
    this.#jobs.set(taskId, running);
    const image = containerImageOf(payload, this.#config);
    if (image) this.#progress(taskId).executor_image = image;
    this.#ranOne = true;
    const unsubscribe = mirror.bus.subscribe((m) => {
      if (m.type === 'workflow' || m.task_id !== taskId || running.abandoned) return;
      if (m.type === 'log') {
        this.#progress(taskId).records.push({ time: m.time, message: m.output });
      } else if (!isFinished(m.status)) {
        // a status change goes at once (output waits for the next batch); the end waits for
        // what travels with it (the facts gathered, a workflow task's outputs)
        this.#progress(taskId).status = m.status;
        void this.#flush();
      }
    });
    void job.run().then(async () => {
      const row = await mirror.db.selectFrom('task').select(['status', 'commit_hash', 'commit_message']).where('id', '=', taskId).executeTakeFirst();
      // read before the status is set: a flush in between must not send the success without them
      const outputs = row?.status === 'success' && payload.workflow ? await keptOutputs(mirror, taskId) : {};
      // the mirror goes with the job: what it gathered travels to the server's host_facts (unread facts do not fail the task)
      const facts = await factsTextOf(mirror.db, task).catch(() => null);
      if (row && !running.abandoned) {
        const p = this.#progress(taskId);
        Object.assign(p, { status: row.status, ...outputs, ...(facts ? { facts } : {}) });
        if (row.commit_hash) Object.assign(p, { commit_hash: row.commit_hash, commit_message: row.commit_message });
      }
    }).catch((err) => {
      console.warn(`[runner] task ${taskId}: ${(err as Error).message}`);
      // its end could not be read: the server must not wait for it until the runner times out
      if (!running.abandoned) this.#report(taskId, { status: 'error', records: [{ time: new Date().toISOString(), message: `The runner could not read the end of the task: ${(err as Error).message}` }] });
    }).finally(async () => {
      unsubscribe();
      running.ended = true;
      await this.#flush();
      await this.#mirrors.give(mirror).catch(() => undefined);
    });
  }

  #progress(id: number): Progress {
    let p = this.#pending.get(id);
    if (!p) this.#pending.set(id, (p = { records: [] }));
    return p;
  }

  #report(id: number, progress: Progress): void {
    const p = this.#progress(id);
    p.records.push(...progress.records);
    p.status = progress.status ?? p.status;
    void this.#flush();
  }

  /** Sends what has been collected; on failure it stays collected and is sent by a later flush. */
  #flush(): Promise<void> {
    if (this.#flushing) return this.#flushing.then(() => this.#flush());
    if (!this.#pending.size) {
      this.#dropEnded();
      return Promise.resolve();
    }
    const batch = [...this.#pending];
    this.#pending.clear();
    this.#flushing = (async () => {
      try {
        const res = await fetch(`${this.#s.apiUrl}/api/internal/runners`, {
          method: 'PUT', headers: { 'x-runner-token': this.#s.token, 'content-type': 'application/json' },
          body: JSON.stringify({ jobs: batch.map(([id, p]) => jobReport(id, p)) }),
          signal: AbortSignal.timeout(30_000),
        });
        await res.body?.cancel();
        if (!res.ok) throw new Error(`progress answered ${res.status}`);
        for (const [id, p] of batch) {
          const j = this.#jobs.get(id);
          if (j && p.status) j.serverStatus = p.status;
        }
      } catch (err) {
        // put the batch back in front of anything collected meanwhile
        for (const [id, p] of batch.reverse()) {
          const later = this.#pending.get(id);
          // what came later wins (a status, the outputs sent with it), the output lines are joined
          this.#pending.set(id, { ...p, ...later, status: later?.status ?? p.status, records: [...p.records, ...(later?.records ?? [])] });
        }
        if (!this.#stopped) console.warn(`[runner] sending progress failed: ${(err as Error).message}`);
      } finally {
        this.#flushing = null;
      }
      this.#dropEnded();
    })();
    return this.#flushing;
  }

  #dropEnded(): void {
    for (const [id, j] of this.#jobs) if (j.ended && !this.#pending.has(id)) this.#jobs.delete(id);
  }

  /**
   * `cleaning_requested`: the repositories' object caches go, and clones kept by earlier
   * versions (one per template). A running task's working copy may borrow a cache's objects,
   * so while a job runs the caches stay.
   */
  #clearCache(): void {
    const busy = [...this.#jobs.values()].some((j) => !j.ended);
    for (const name of existsSync(this.#config.tmp_path) ? readdirSync(this.#config.tmp_path) : []) {
      if (/^repository_\d+_\d+$/.test(name) || (!busy && /^repository_\d+_cache$/.test(name))) rmSync(join(this.#config.tmp_path, name), { recursive: true, force: true });
    }
    console.log('[runner] repository cache cleared');
  }
}

/** The image the job runs in on this runner ('' = on the host), told to the server with its first progress. */
function containerImageOf(payload: JobPayload, config: Config): string {
  const template = payload.rows.template?.[0] as { executor_image: string | null } | undefined;
  const project = payload.rows.project?.[0] as { executor_image: string | null } | undefined;
  return template && project ? taskImageOf(template, project, config.executor) : '';
}

/** One job's entry of a progress report. */
function jobReport(id: number, p: Progress): Record<string, unknown> {
  return {
    id, ...(p.status ? { status: p.status } : {}), log_records: p.records,
    ...(p.commit_hash ? { commit_hash: p.commit_hash, commit_message: p.commit_message ?? '' } : {}),
    ...(p.executor_image ? { executor_image: p.executor_image } : {}),
    ...(p.outputs !== undefined ? { outputs: p.outputs, not_captured: p.not_captured ?? '[]' } : {}),
    ...(p.facts ? { facts: p.facts } : {}),
  };
}

/** The outputs the job kept in its mirror (read from its outputs file by `LocalJob`, as on a server). */
async function keptOutputs(mirror: Deps, taskId: number): Promise<Pick<Progress, 'outputs' | 'not_captured'>> {
  const row = await mirror.db.selectFrom('task_output_value').select(['outputs', 'not_captured']).where('task_id', '=', taskId).executeTakeFirst();
  return row ? { outputs: row.outputs, not_captured: row.not_captured } : { outputs: '{}', not_captured: '[]' };
}

/** The journal is one task id a line. */
function readJournal(path: string): number[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter((line) => /^\d+$/.test(line)).map(Number);
  } catch {
    return [];
  }
}

const JOURNAL_KEEPS = 5000;

/** Appends the id (a line per task, not the whole list again); now and then the oldest ids are dropped. */
function noteInJournal(path: string, ids: Set<number>, id: number): void {
  if (ids.size <= JOURNAL_KEEPS * 2) {
    appendFileSync(path, `${id}\n`, { mode: 0o600 });
    return;
  }
  const kept = [...ids].slice(-JOURNAL_KEEPS);
  ids.clear();
  for (const k of kept) ids.add(k);
  writeFileSync(`${path}.tmp`, `${kept.join('\n')}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

async function waitEnded(j: RunningJob): Promise<void> {
  while (!j.ended) await sleep(50);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
