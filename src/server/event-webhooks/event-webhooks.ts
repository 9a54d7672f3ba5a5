import { createHmac } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { Db } from '../db/database.ts';
import { openSecret } from '../crypto/sealed-secret.ts';
import { now } from '../lib/time.ts';
import { postOutgoing, OutgoingError } from '../lib/outgoing-http.ts';
import { startPassLoop } from '../lib/pass-loop.ts';
import { isFinished } from '../domain/tasks/task-status.ts';
import { APPROVAL_REQUESTED } from '../alerts/alerts.ts';
import { DELIVERIES_KEPT, enqueueWebhookEvent, onWebhookEventsQueued } from '../domain/event-webhooks/event-webhook.service.ts';

const POLL_MS = 2000;
const TIMEOUT_MS = 10_000;
/** How long a claimed row is left alone by other servers while it is being sent. */
const LEASE_MS = TIMEOUT_MS + 5000;
const BATCH = 50;

export interface EventWebhookOptions {
  /** wait before attempt n + 1 after n failed ones; default 10 s doubling, at most 1 h */
  backoffMs?: (attempts: number) => number;
  /** attempts before an event is given up; default 10 (about 2.5 hours of trying) */
  maxAttempts?: number;
}

export interface EventWebhooks {
  /** delivers everything due now (tests); resolves when done */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/** The default backoff: 10 s, 20 s, 40 s, … at most an hour. */
export const defaultBackoffMs = (attempts: number) => Math.min(10_000 * 2 ** Math.max(attempts - 1, 0), 3_600_000);

/**
 * The HMAC-SHA256 signature of a delivery: `sha256=` and the hex digest of `<timestamp>.<body>`
 * under the webhook's secret. Receivers recompute it from the X-Signalbox-Timestamp header and
 * the raw body, and refuse old timestamps to stop replays.
 * @example signBody('s3cret', '1767225600', '{"event":"task_started"}')
 */
export function signBody(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * Outgoing event webhooks. Task starts and ends and waiting approvals heard on this process's
 * bus are queued (`event_webhook_outbox`) for the webhooks subscribed to them; template changes
 * are queued by the template service in the change's own transaction. A loop beside requests
 * sends what is due, signed, records every attempt in the deliveries log and retries a failure
 * with backoff until `maxAttempts`. Rows are claimed with a conditional update, so servers
 * sharing a database never send the same attempt twice. Delivery is at least once: receivers
 * drop repeated `id`s (also in the X-Signalbox-Delivery header).
 * @example const hooks = startEventWebhooks(deps); ... await hooks.stop();
 */
export function startEventWebhooks(deps: Pick<Deps, 'db' | 'bus' | 'secrets'>, options: EventWebhookOptions = {}): EventWebhooks {
  const backoff = options.backoffMs ?? defaultBackoffMs;
  const maxAttempts = options.maxAttempts ?? 10;
  const queued = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work.catch((err) => console.warn(`[event-webhooks] could not queue an event: ${(err as Error).message}`)).finally(() => queued.delete(settled));
    queued.add(settled);
  };
  const unsubscribe = deps.bus.subscribeLocal((message) => {
    if (message.type === 'update' && (message.status === 'running' || isFinished(message.status))) {
      track(queueTaskEvent(deps.db, message.task_id, message.status === 'running' ? 'task_started' : 'task_finished'));
    }
    if (message.type === 'workflow' && message.status === APPROVAL_REQUESTED) track(queueApprovalEvent(deps.db, message.run_id));
  });
  const loop = startPassLoop(async () => {
    while (!loop.stopped && await deliverDue(deps, backoff, maxAttempts) === BATCH);
  }, POLL_MS);
  onWebhookEventsQueued(() => loop.wake());
  return {
    drain: async () => {
      while (queued.size) await Promise.all([...queued]);
      await loop.drain();
    },
    stop: async () => {
      unsubscribe();
      onWebhookEventsQueued(() => {});
      await Promise.all([...queued]);
      await loop.stop();
    },
  };
}

async function queueTaskEvent(db: Db, taskId: number, event: 'task_started' | 'task_finished'): Promise<void> {
  const task = await db.selectFrom('task').innerJoin('template', 'template.id', 'task.template_id').leftJoin('user', 'user.id', 'task.user_id')
    .select(['task.id', 'task.project_id', 'task.status', 'task.message', 'task.version', 'task.start', 'task.end', 'task.template_id', 'template.name as template_name', 'user.username'])
    .where('task.id', '=', taskId).executeTakeFirst();
  if (!task) return;
  await enqueueWebhookEvent(db, task.project_id, event, {
    task: { id: task.id, status: task.status, message: task.message, version: task.version, start: task.start, end: task.end, user: task.username ?? null },
    template: { id: task.template_id, name: task.template_name },
  });
}

async function queueApprovalEvent(db: Db, runId: number): Promise<void> {
  const run = await db.selectFrom('workflow_run').innerJoin('workflow', 'workflow.id', 'workflow_run.workflow_id')
    .select(['workflow_run.id', 'workflow_run.project_id', 'workflow_run.workflow_id', 'workflow.name']).where('workflow_run.id', '=', runId).executeTakeFirst();
  if (!run) return;
  await enqueueWebhookEvent(db, run.project_id, 'approval_waiting', { workflow: { id: run.workflow_id, name: run.name }, run: { id: run.id } });
}

/** Sends each due outbox row once; answers how many rows it looked at. */
async function deliverDue(deps: Pick<Deps, 'db' | 'secrets'>, backoff: (attempts: number) => number, maxAttempts: number): Promise<number> {
  const { db } = deps;
  const due = await db.selectFrom('event_webhook_outbox').innerJoin('event_webhook', 'event_webhook.id', 'event_webhook_outbox.webhook_id')
    .select(['event_webhook_outbox.id', 'event_webhook_outbox.webhook_id', 'event_webhook_outbox.event', 'event_webhook_outbox.payload',
      'event_webhook_outbox.attempts', 'event_webhook_outbox.next_at', 'event_webhook.url', 'event_webhook.secret'])
    .where('event_webhook_outbox.next_at', '<=', now()).orderBy('event_webhook_outbox.id').limit(BATCH).execute();
  for (const row of due) {
    const claimed = await db.updateTable('event_webhook_outbox').set({ next_at: new Date(Date.now() + LEASE_MS).toISOString() })
      .where('id', '=', row.id).where('next_at', '=', row.next_at).where('attempts', '=', row.attempts).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    const attempt = row.attempts + 1;
    const result = await send(deps, row);
    await db.insertInto('event_webhook_delivery').values({
      webhook_id: row.webhook_id, event: row.event, attempt, status_code: result.status, duration_ms: result.durationMs,
      error: result.error.slice(0, 500), created: now(),
    }).execute();
    await trimLog(db, row.webhook_id);
    if (!result.error || attempt >= maxAttempts) await db.deleteFrom('event_webhook_outbox').where('id', '=', row.id).execute();
    else {
      await db.updateTable('event_webhook_outbox').set({ attempts: attempt, next_at: new Date(Date.now() + backoff(attempt)).toISOString() })
        .where('id', '=', row.id).execute();
    }
  }
  return due.length;
}

/** One signed POST; `error` is empty when the receiver took it (2xx). */
async function send(deps: Pick<Deps, 'secrets'>, row: { payload: string; event: string; url: string; secret: string | null }) {
  let secret: string | null;
  try {
    secret = openSecret(deps.secrets, row.secret);
  } catch {
    return { status: null, durationMs: 0, error: 'the signing secret cannot be read (was the encryption key changed?); save it again' };
  }
  const timestamp = String(Math.floor(Date.now() / 1000));
  const id = (JSON.parse(row.payload) as { id: string }).id;
  const headers: Record<string, string> = {
    'content-type': 'application/json', 'user-agent': 'signalbox-webhooks',
    'x-signalbox-event': row.event, 'x-signalbox-delivery': id, 'x-signalbox-timestamp': timestamp,
    ...(secret ? { 'x-signalbox-signature': signBody(secret, timestamp, row.payload) } : {}),
  };
  try {
    const { status, durationMs } = await postOutgoing(row.url, headers, row.payload, TIMEOUT_MS);
    return { status, durationMs, error: status >= 200 && status < 300 ? '' : `HTTP ${status}` };
  } catch (err) {
    return { status: null, durationMs: err instanceof OutgoingError ? err.durationMs : 0, error: (err as Error).message };
  }
}

/** Keeps the newest DELIVERIES_KEPT attempts of a webhook. */
async function trimLog(db: Db, webhookId: number): Promise<void> {
  const edge = await db.selectFrom('event_webhook_delivery').select('id').where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc').offset(DELIVERIES_KEPT).limit(1).executeTakeFirst();
  if (edge) await db.deleteFrom('event_webhook_delivery').where('webhook_id', '=', webhookId).where('id', '<=', edge.id).execute();
}
