import type { Db } from '../db/database.ts';
import type { TaskRow } from '../db/schema.ts';
import { claimNextTask } from './queue/claim-task.ts';

/**
 * Starts waiting tasks as soon as the limits allow. It is woken (by a queued task or a
 * finished one) rather than ticking; each wake claims tasks until nothing more may start.
 * Wakes that arrive during a round make it go round once more, so none is lost.
 * @example const d = new Dispatcher(db, 'host:1', () => 10, startJob); d.wake();
 */
export class Dispatcher {
  readonly #db: Db;
  readonly #workerId: string;
  readonly #maxParallel: () => number;
  readonly #start: (task: TaskRow) => void;
  readonly #prepare: (task: TaskRow) => Promise<void>;
  readonly #explain: () => Promise<void>;
  #round: Promise<void> | null = null;
  #again = false;
  #stopped = false;

  /**
   * `prepare` runs between a claim and the start (fetching what the task needs from the
   * database); a failure is logged, the task starts. `explain` runs when a round found nothing
   * more to start: it tells the tasks still waiting why.
   */
  constructor(db: Db, workerId: string, maxParallel: () => number, start: (task: TaskRow) => void, prepare: (task: TaskRow) => Promise<void> = async () => {}, explain: () => Promise<void> = async () => {}) {
    this.#db = db;
    this.#workerId = workerId;
    this.#maxParallel = maxParallel;
    this.#start = start;
    this.#prepare = prepare;
    this.#explain = explain;
  }

  wake(): void {
    if (this.#stopped) return;
    if (this.#round) {
      this.#again = true;
      return;
    }
    this.#round = this.#claimAll().finally(() => {
      this.#round = null;
      if (this.#again) this.wake();
    });
  }

  /** Waits for the round in progress, then stays idle. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#round;
  }

  async #claimAll(): Promise<void> {
    do {
      this.#again = false;
      try {
        for (;;) {
          if (this.#stopped) return;
          const task = await claimNextTask(this.#db, this.#workerId, this.#maxParallel());
          if (!task) break;
          await this.#prepare(task).catch((err) => console.warn(`[engine] task ${task.id}: preparing the start failed: ${(err as Error).message}`));
          this.#start(task);
        }
        if (!this.#stopped) await this.#explain();
      } catch (err) {
        // A failed claim (database busy, connection lost) is retried by the next wake or sweep.
        if (!this.#stopped) console.warn(`[engine] claiming a task failed: ${(err as Error).message}`);
      }
    } while (this.#again && !this.#stopped);
  }
}
