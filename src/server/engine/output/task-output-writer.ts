import type { Db } from '../../db/database.ts';
import type { EventBus } from '../../events/event-bus.ts';
import { now } from '../../lib/time.ts';
import { insertOutputGroup, type OutputGroup } from './insert-output.ts';
import { SecretMask } from './secret-mask.ts';
import { isDatabaseUnavailable } from '../../db/db-faults.ts';

/** Pauses between attempts to store held output while the database is unavailable. */
const RETRY_PAUSES_MS = [250, 500, 1000, 2000];

export interface OutputWriterOptions {
  /** write when this many lines wait */
  batchLines?: number;
  /** ...or when the oldest waiting line is this old */
  flushMs?: number;
  /** above this many waiting lines `write` returns false: the producer should pause */
  highWater?: number;
}

/**
 * A task's log: lines are buffered and written in batches (one INSERT per batch, never per
 * line), each written line is published as a bus `log` message, and `write` reports
 * back-pressure so a process printing millions of lines is paused instead of filling memory.
 * @example const out = new TaskOutputWriter(deps, task); if (!out.write('hello')) await out.drained(); await out.close();
 */
export class TaskOutputWriter {
  readonly #db: Db;
  readonly #bus: EventBus;
  readonly #taskId: number;
  readonly #projectId: number;
  readonly #batchLines: number;
  readonly #flushMs: number;
  readonly #highWater: number;
  /** waiting lines, grouped by timestamp (lines of one read share it) */
  #pending: OutputGroup[] = [];
  #pendingCount = 0;
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #drainWaiters: (() => void)[] = [];
  #failed = false;
  #closed = false;
  #mask: SecretMask | null = null;
  #outageRetries = 0;

  constructor(deps: { db: Db; bus: EventBus }, task: { id: number; project_id: number }, options: OutputWriterOptions = {}) {
    this.#db = deps.db;
    this.#bus = deps.bus;
    this.#taskId = task.id;
    this.#projectId = task.project_id;
    this.#batchLines = options.batchLines ?? 500;
    this.#flushMs = options.flushMs ?? 100;
    this.#highWater = options.highWater ?? 2000;
  }

  /** From now on every line is stored and published with these values replaced by `********`. */
  maskSecrets(secrets: Iterable<string>): void {
    const mask = new SecretMask(secrets);
    this.#mask = mask.empty ? null : mask;
  }

  /** Queues one line; false means "pause until `drained()`". Lines after `close()` are dropped. */
  write(line: string, time: string = now()): boolean {
    if (this.#closed) return true;
    const output = this.#mask ? this.#mask.apply(line) : line;
    const last = this.#pending[this.#pending.length - 1];
    if (last && last.time === time) last.outputs.push(output);
    else this.#pending.push({ time, outputs: [output] });
    this.#pendingCount++;
    if (this.#pendingCount >= this.#batchLines) this.#startFlush();
    else this.#timer ??= setTimeout(() => this.#startFlush(), this.#flushMs);
    return this.#pendingCount < this.#highWater;
  }

  /** Resolves once the waiting lines are below the high-water mark. */
  drained(): Promise<void> {
    if (this.#pendingCount < this.#highWater) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Writes everything queued so far. */
  async flush(): Promise<void> {
    while (this.#flushing || this.#pendingCount) {
      if (!this.#flushing) this.#startFlush();
      await this.#flushing;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #startFlush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#flushing || !this.#pendingCount) return;
    this.#flushing = this.#writeAll().finally(() => {
      this.#flushing = null;
      if (this.#pendingCount >= this.#batchLines) this.#startFlush();
      else if (this.#pendingCount) this.#timer ??= setTimeout(() => this.#startFlush(), this.#flushMs);
    });
  }

  async #writeAll(): Promise<void> {
    while (this.#pendingCount) {
      const batch = this.#pending;
      this.#pending = [];
      this.#pendingCount = 0;
      this.#releaseWaiters();
      for (let i = 0; i < batch.length; i++) {
        const group = batch[i]!;
        const progress = { written: 0 };
        if (!this.#failed) {
          try {
            await insertOutputGroup(this.#db, this.#taskId, group.time, group.outputs, progress);
            this.#outageRetries = 0;
          } catch (err) {
            if (isDatabaseUnavailable(err)) return this.#holdForRetry(batch.slice(i), progress.written, err as Error);
            // The task row may be gone (deleted mid-run); keep the process running, stop storing.
            this.#failed = true;
            console.warn(`[engine] task ${this.#taskId}: output not stored: ${(err as Error).message}`);
          }
        }
        for (const output of group.outputs) {
          this.#bus.publish({ type: 'log', project_id: this.#projectId, task_id: this.#taskId, time: group.time, output });
        }
      }
    }
    this.#releaseWaiters();
  }

  /**
   * The database is away or locked: the unwritten lines go back to the front of the queue (so
   * the producer stays paused once they pass the high-water mark) and are tried again after a
   * growing pause. Lines are never dropped for this; `close()` waits until they are written.
   */
  async #holdForRetry(unwritten: OutputGroup[], writtenOfFirst: number, err: Error): Promise<void> {
    const [first, ...rest] = unwritten;
    const held = [{ time: first!.time, outputs: first!.outputs.slice(writtenOfFirst) }, ...rest];
    this.#pending = [...held, ...this.#pending];
    this.#pendingCount += held.reduce((n, g) => n + g.outputs.length, 0);
    if (this.#outageRetries++ === 0) console.warn(`[engine] task ${this.#taskId}: database unavailable (${err.message}); holding output and retrying`);
    await new Promise((r) => setTimeout(r, RETRY_PAUSES_MS[Math.min(this.#outageRetries - 1, RETRY_PAUSES_MS.length - 1)]));
  }

  #releaseWaiters(): void {
    if (this.#pendingCount >= this.#highWater) return;
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
