import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { EventBus } from '../events/event-bus.ts';
import { STALE_AFTER_MS } from '../engine/queue/engine-workers.ts';
import { isFinished } from '../domain/tasks/task-status.ts';

/** Seconds buckets from a second to a few hours: tasks run from quick scripts to long applies. */
const DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400];
const WAIT_BUCKETS = [0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600];

/**
 * The Prometheus metrics of one server, in a registry of its own. Counts of rows (queue,
 * running tasks, runners, webhook deliveries) are read from the database when scraped, so they
 * are right across several servers; task outcomes, durations and log lines are counted here
 * from the engine's bus; HTTP requests by the API middleware.
 * @example const metrics = new Metrics(db); metrics.listen(bus); await metrics.registry.metrics();
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly #tasks: Counter<'status' | 'app'>;
  readonly #duration: Histogram<'app'>;
  readonly #wait: Histogram<'app'>;
  readonly #logLines: Counter;
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'signalbox_' });
    this.httpRequests = new Counter({ name: 'signalbox_http_requests_total', help: 'API requests by route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.#tasks = new Counter({ name: 'signalbox_tasks_total', help: 'Tasks that finished, by status and app', labelNames: ['status', 'app'], registers });
    this.#duration = new Histogram({ name: 'signalbox_task_duration_seconds', help: 'Run time of finished tasks', labelNames: ['app'], buckets: DURATION_BUCKETS, registers });
    this.#wait = new Histogram({ name: 'signalbox_task_queue_wait_seconds', help: 'Time tasks waited in the queue before running', labelNames: ['app'], buckets: WAIT_BUCKETS, registers });
    this.#logLines = new Counter({ name: 'signalbox_task_log_lines_total', help: 'Task output lines written', registers });
    this.#defineStoredCounts(registers);
  }

  /** Counts task outcomes, durations, queue waits and log lines from the bus; returns the unsubscribe. */
  listen(bus: EventBus): () => void {
    return bus.subscribeLocal((message) => {
      if (message.type === 'log') this.#logLines.inc();
      else if (message.type === 'update' && (message.status === 'running' || isFinished(message.status))) {
        void this.#observeTask(message.task_id, message.status).catch(() => undefined);
      }
    });
  }

  async #observeTask(taskId: number, status: string): Promise<void> {
    const row = await this.#db.selectFrom('task').innerJoin('template', 'template.id', 'task.template_id')
      .select(['task.created', 'task.start', 'task.end', 'template.app']).where('task.id', '=', taskId).executeTakeFirst();
    if (!row) return;
    const app = row.app || 'ansible';
    const seconds = (from: string | null, to: string | null) => (from && to ? Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000) : null);
    if (status === 'running') {
      const waited = seconds(row.created, row.start);
      if (waited !== null) this.#wait.observe({ app }, waited);
      return;
    }
    this.#tasks.inc({ status, app });
    const ran = seconds(row.start, row.end);
    if (ran !== null) this.#duration.observe({ app }, ran);
  }

  #defineStoredCounts(registers: Registry[]): void {
    const db = this.#db;
    new Gauge({
      name: 'signalbox_task_queue_length', help: 'Tasks waiting to start', registers,
      async collect() {
        const row = await db.selectFrom('task').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'waiting').executeTakeFirst();
        this.set(Number(row?.n ?? 0));
      },
    });
    new Gauge({
      name: 'signalbox_tasks_running', help: 'Tasks running now (starting, running, waiting for confirmation, stopping)', registers,
      async collect() {
        const row = await db.selectFrom('task').select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['starting', 'running', 'waiting_confirmation', 'confirmed', 'stopping']).executeTakeFirst();
        this.set(Number(row?.n ?? 0));
      },
    });
    new Gauge({
      name: 'signalbox_runners', help: 'Task engines on this database, by state (active: heartbeat recent; stale: silent)', labelNames: ['state'], registers,
      async collect() {
        const fresh = new Date(Date.now() - STALE_AFTER_MS).toISOString();
        const rows = await db.selectFrom('engine_worker').select('heartbeat_at').execute();
        const active = rows.filter((r) => r.heartbeat_at >= fresh).length;
        this.set({ state: 'active' }, active);
        this.set({ state: 'stale' }, rows.length - active);
      },
    });
    new Counter({
      name: 'signalbox_webhook_deliveries_total', help: 'Incoming webhook deliveries by outcome (task_started, not_matched, failed)', labelNames: ['outcome'], registers,
      async collect() {
        const rows = await db.selectFrom('integration_delivery')
          .select(['matched', sql<number>`case when task_id is null then 0 else 1 end`.as('started'), (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy(['matched', sql`case when task_id is null then 0 else 1 end`]).execute();
        this.reset();
        for (const outcome of ['task_started', 'not_matched', 'failed']) this.inc({ outcome }, 0);
        for (const r of rows) {
          const outcome = Number(r.started) ? 'task_started' : r.matched ? 'failed' : 'not_matched';
          this.inc({ outcome }, Number(r.n));
        }
      },
    });
  }
}
