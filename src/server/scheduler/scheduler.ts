import type { Deps } from '../deps.ts';
import { computeNextDue, timingSignature } from './due-time.ts';
import { fireSchedule } from './fire-schedule.ts';
import { findSchedule, listActiveSchedules, pruneFirings, type ScheduleRow } from './schedule.repository.ts';
import { claimSyncFiring, findSyncSchedule, listSyncSchedules, nextSyncDue, pruneSyncFirings, type ScheduledSync } from './inventory-sync-schedule.ts';
import type { InventoryRow } from '../domain/inventories/inventory.ts';

export interface SchedulerOptions {
  /** the clock; tests inject a fake one */
  now?: () => Date;
  /** how often the schedule table is re-read as a safety net (default 30 s) */
  rescanIntervalMs?: number;
  /** false: no timers; the caller drives the scheduler with `tick()` (tests) */
  autoTick?: boolean;
  log?: (line: string) => void;
  /** syncs an inventory whose sync schedule is due; without it inventory sync schedules are not held */
  syncInventory?: ScheduledSync;
}

/** A running scheduler. */
export interface Scheduler {
  /** settles once the schedules were first read (or the first read failed; it is retried) */
  ready: Promise<void>;
  /** re-reads all schedules */
  reload(): Promise<void>;
  /** re-reads one schedule (created, updated, toggled or deleted) */
  scheduleChanged(id: number): Promise<void>;
  /** fires every schedule due by now (re-scanning first when a rescan is due); settles when those firings are done */
  tick(): Promise<void>;
  /** stops timers and waits for firings in progress */
  stop(): Promise<void>;
}

interface HeldSchedule {
  signature: string;
  dueAt: Date | null;
}

const RESCAN_INTERVAL_MS = 30_000;
const FIRING_CLAIM_RETENTION_MS = 24 * 3_600_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
const RETRY_AFTER_ERROR_MS = 1_000;

/** Schedulers running in this process, so the CRUD routes can notify them without holding one. */
const running = new Set<Scheduler>();

/** Where changes are announced to the other servers of the database (the PostgreSQL relay); null: none. */
let announce: ((id: number | null) => void) | null = null;

/**
 * Sends every schedule change of this process to `send` too (`null`: re-read all); returns the
 * detach. The relay delivers them to the other servers' `applyScheduleChange`.
 */
export function announceScheduleChangesTo(send: (id: number | null) => void): () => void {
  announce = send;
  return () => {
    if (announce === send) announce = null;
  };
}

/** A change another server announced: applied to this process's schedulers only. */
export async function applyScheduleChange(id: number | null): Promise<void> {
  await Promise.all([...running].map((s) => (id === null ? s.reload() : s.scheduleChanged(id))));
}

/**
 * Tells every scheduler of this process, and of the other servers, to re-read all schedules.
 * Call after bulk changes.
 * @example await reloadSchedules();
 */
export async function reloadSchedules(): Promise<void> {
  announce?.(null);
  await applyScheduleChange(null);
}

/**
 * Tells every scheduler of this process that one schedule was created, updated, toggled or
 * deleted; the change applies without a restart. Other servers on the same PostgreSQL database
 * hear of it through the relay (and would otherwise pick it up on their 30 s rescan).
 * @example await scheduleChanged(schedule.id);
 */
export async function scheduleChanged(id: number): Promise<void> {
  announce?.(id);
  await applyScheduleChange(id);
}

/**
 * Starts the scheduler: it holds the ids and due times of active schedules, wakes at the next
 * due time, re-reads the schedule row, claims the firing in the database and queues the task.
 * Times are read in each schedule's own zone, else in `config.schedule_timezone`. Missed firings
 * are not replayed (see `computeNextDue`): after a start, or a stall, it waits for the next due
 * time after "now".
 * @example const scheduler = startScheduler(deps); ...; await scheduler.stop();
 */
export function startScheduler(deps: Deps, options: SchedulerOptions = {}): Scheduler {
  const now = options.now ?? (() => new Date());
  const rescanIntervalMs = options.rescanIntervalMs ?? RESCAN_INTERVAL_MS;
  const log = options.log ?? ((line: string) => console.warn(`[scheduler] ${line}`));
  const timezone = deps.config.schedule_timezone || 'UTC';
  const held = new Map<number, HeldSchedule>();
  /** inventories with a sync schedule, by id */
  const heldSyncs = new Map<number, HeldSchedule>();
  let chain: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let nextRescanAt = 0;
  let nextPruneAt = 0;
  let retryNotBefore = 0;

  // Reads of the schedule table run one after another, so a reload never races a due check.
  function serially<T>(work: () => Promise<T>): Promise<T> {
    const result = chain.then(work);
    chain = result.catch((err) => {
      log(`failed: ${(err as Error).message}`);
      retryNotBefore = now().getTime() + RETRY_AFTER_ERROR_MS; // the database is away: do not spin
    });
    return result;
  }

  function hold(id: number, row: ScheduleRow | undefined): void {
    if (!row || !row.active) {
      held.delete(id);
      return;
    }
    const signature = timingSignature(row);
    if (held.get(id)?.signature === signature) return;
    held.set(id, { signature, dueAt: computeNextDue(row, now(), timezone) });
  }

  function holdSync(id: number, row: InventoryRow | undefined): void {
    if (!row || !options.syncInventory) {
      heldSyncs.delete(id);
      return;
    }
    const signature = row.sync_cron ?? '';
    if (heldSyncs.get(id)?.signature === signature) return;
    heldSyncs.set(id, { signature, dueAt: nextSyncDue(row, now(), timezone) });
  }

  async function rescan(): Promise<void> {
    nextRescanAt = now().getTime() + rescanIntervalMs;
    const rows = await listActiveSchedules(deps.db);
    const active = new Set(rows.map((row) => row.id));
    for (const id of held.keys()) if (!active.has(id)) held.delete(id);
    for (const row of rows) hold(row.id, row);
    const syncs = options.syncInventory ? await listSyncSchedules(deps.db) : [];
    const syncing = new Set(syncs.map((row) => row.id));
    for (const id of heldSyncs.keys()) if (!syncing.has(id)) heldSyncs.delete(id);
    for (const row of syncs) holdSync(row.id, row);
    if (now().getTime() >= nextPruneAt) {
      const before = new Date(now().getTime() - FIRING_CLAIM_RETENTION_MS).toISOString();
      await pruneFirings(deps.db, before);
      await pruneSyncFirings(deps.db, before);
      nextPruneAt = now().getTime() + FIRING_CLAIM_RETENTION_MS / 24;
    }
  }

  /** Re-reads a due schedule and, if it is still due, starts its firing (not awaited here). */
  async function startFiring(id: number, entry: HeldSchedule, current: Date): Promise<Promise<void> | undefined> {
    const dueAt = entry.dueAt!;
    const row = await findSchedule(deps.db, id);
    if (!row || !row.active || timingSignature(row) !== entry.signature) {
      // deleted, switched off or re-timed since it was read: follow the row as it is now
      held.delete(id);
      hold(id, row);
      return undefined;
    }
    // advance first, from "now": a stall that skipped several due times fires only once
    entry.dueAt = computeNextDue(row, current, timezone);
    const firing = fireSchedule(deps, row, dueAt).then(
      () => {},
      (err: Error) => log(`schedule ${id} (due ${dueAt.toISOString()}): ${err.message}`),
    );
    inFlight.add(firing);
    void firing.finally(() => inFlight.delete(firing));
    return firing;
  }

  /** Re-reads an inventory whose sync is due and, if it still is, syncs it once this process claimed the time (not awaited here). */
  async function startSync(id: number, entry: HeldSchedule, current: Date): Promise<Promise<void> | undefined> {
    const dueAt = entry.dueAt!;
    const row = await findSyncSchedule(deps.db, id);
    if (!row || row.sync_cron !== entry.signature) {
      heldSyncs.delete(id);
      holdSync(id, row);
      return undefined;
    }
    entry.dueAt = nextSyncDue(row, current, timezone);
    const sync = options.syncInventory!;
    const firing = claimSyncFiring(deps.db, id, dueAt.toISOString()).then(
      async (claimed) => { if (claimed) await sync(row, dueAt); },
    ).catch((err: Error) => log(`inventory ${id} sync (due ${dueAt.toISOString()}): ${err.message}`));
    inFlight.add(firing);
    void firing.finally(() => inFlight.delete(firing));
    return firing;
  }

  /**
   * Starts every due firing. Firings (a slow `git ls-remote`...) run outside the serial chain,
   * so a reload asked for by a CRUD route never waits for them.
   */
  async function startDueFirings(): Promise<Promise<void>[]> {
    if (now().getTime() >= nextRescanAt) await rescan();
    const current = now();
    const isDue = ([, entry]: [number, HeldSchedule]) => entry.dueAt !== null && entry.dueAt <= current;
    const started = await Promise.all([
      ...[...held].filter(isDue).map(([id, entry]) => startFiring(id, entry, current)),
      ...[...heldSyncs].filter(isDue).map(([id, entry]) => startSync(id, entry, current)),
    ]);
    return started.filter((firing) => firing !== undefined);
  }

  function arm(): void {
    if (stopped || options.autoTick === false) return;
    clearTimeout(timer);
    let wakeAt = nextRescanAt;
    for (const entry of [...held.values(), ...heldSyncs.values()]) if (entry.dueAt && entry.dueAt.getTime() < wakeAt) wakeAt = entry.dueAt.getTime();
    wakeAt = Math.max(wakeAt, retryNotBefore);
    const wait = Math.min(Math.max(0, wakeAt - now().getTime()), MAX_TIMER_MS);
    timer = setTimeout(() => void scheduler.tick().catch(() => {}), wait);
  }

  const after = <T>(work: () => Promise<T>) => serially(work).finally(arm);

  const scheduler: Scheduler = {
    ready: Promise.resolve(),
    reload: () => after(rescan),
    scheduleChanged: (id) => after(async () => hold(id, await findSchedule(deps.db, id))),
    tick: async () => {
      const firings = await after(startDueFirings);
      await Promise.all(firings);
    },
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      running.delete(scheduler);
      await chain;
      await Promise.all(inFlight);
    },
  };
  // a failed first read is logged and retried by the timer; `ready` itself never rejects
  scheduler.ready = scheduler.reload().catch(() => {});
  running.add(scheduler);
  return scheduler;
}
