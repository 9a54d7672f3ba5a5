import type pg from 'pg';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { loadPg, postgresClientConfig, type Db, type DbSettings } from '../db/database.ts';
import { isFinished } from '../domain/tasks/task-status.ts';
import type { BusMessage, EventBus } from './event-bus.ts';

/** The PostgreSQL channel all Signalbox servers of one database share. */
export const EVENTS_CHANNEL = 'signalbox_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes and more; stay clear of it. */
export const MAX_PAYLOAD_BYTES = 7_900;
/** A log line longer than this travels as a reference; receivers read it from `task_output`. */
export const BIG_LINE_BYTES = 3_000;
/** Messages published within this window leave together (log lines of a task as one batch). */
const FLUSH_MS = 15;
/** Pauses between attempts to (re)open the LISTEN connection. */
const RECONNECT_PAUSES_MS = [100, 250, 500, 1_000, 2_000, 5_000];
/** How often an idle LISTEN connection is checked (a silently dropped one would hear nothing). */
const PROBE_EVERY_MS = 20_000;

/**
 * What travels in a payload (`{o: origin, e: entries}`), short keys to fit more per NOTIFY:
 * `u` a task update as published; `l` lines of one task, in order, as `[time, output]`;
 * `r` one long line of a task: the `n`-th line (from 0) stored with that task and time;
 * `s` a schedule created/changed/deleted (`id`), or all to be re-read (`null`);
 * `w` a workflow run change as published.
 */
type Entry =
  | { k: 'u'; m: Extract<BusMessage, { type: 'update' }> }
  | { k: 'l'; p: number; t: number; l: [string, string][] }
  | { k: 'r'; p: number; t: number; time: string; n: number }
  | { k: 's'; id: number | null }
  | { k: 'w'; m: Extract<BusMessage, { type: 'workflow' }> };

export interface PgRelayOptions {
  log?: (line: string) => void;
  /** called after the LISTEN connection came back (messages sent meanwhile were missed) */
  onReconnect?: () => void;
  /** a schedule change another server announced */
  onScheduleChange?: (id: number | null) => void;
}

export interface PgRelay {
  /** this server's mark on its payloads (its own notifications come back to it and are skipped) */
  readonly origin: string;
  /** true while the LISTEN connection is up */
  readonly listening: boolean;
  /** announces a schedule change to the other servers */
  scheduleChanged(id: number | null): void;
  /** resolves once everything published so far was handed to PostgreSQL (tests, shutdown) */
  flushed(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Fans the bus out across servers on one PostgreSQL database: whatever this process publishes
 * is sent with `NOTIFY` on `signalbox_events` (small payloads; log lines of a task batched, long
 * lines as row references), and what the others send arrives through a dedicated `LISTEN`
 * connection and is delivered to `bus.subscribe` listeners in the order it was sent. The LISTEN
 * connection reopens by itself after PostgreSQL restarts or the connection drops; messages sent
 * while it was away are missed (dispatchers have their sweep; browsers re-read the log).
 * @example const relay = await startPgRelay(deps.bus, deps.db, config.db); ...; await relay.stop();
 */
export async function startPgRelay(bus: EventBus, db: Db, settings: DbSettings, options: PgRelayOptions = {}): Promise<PgRelay> {
  const log = options.log ?? ((line: string) => console.warn(`[relay] ${line}`));
  const origin = randomBytes(6).toString('hex');
  const clientConfig: pg.ClientConfig = { ...postgresClientConfig(settings), keepAlive: true };

  // ---- sending -------------------------------------------------------------------------------
  let queue: Entry[] = [];
  let timer: NodeJS.Timeout | null = null;
  let sending: Promise<void> = Promise.resolve();
  let sendFailing = false;
  /** per task: the timestamp of its latest line and how many lines carried it, for `r` entries */
  const groups = new Map<number, { time: string; n: number }>();

  const enqueue = (message: BusMessage) => {
    if (message.type === 'workflow') {
      queue.push({ k: 'w', m: message });
    } else if (message.type === 'update') {
      queue.push({ k: 'u', m: message });
      if (isFinished(message.status)) groups.delete(message.task_id);
    } else {
      const group = groups.get(message.task_id);
      let n = 0;
      if (group && group.time === message.time) n = ++group.n;
      else {
        // tasks that never report an end here (another server finished them) must not pile up
        if (groups.size >= 10_000) groups.delete(groups.keys().next().value!);
        groups.set(message.task_id, { time: message.time, n: 0 });
      }
      if (message.output.length > BIG_LINE_BYTES / 6 && Buffer.byteLength(JSON.stringify(message.output)) > BIG_LINE_BYTES) {
        queue.push({ k: 'r', p: message.project_id, t: message.task_id, time: message.time, n });
      } else {
        const last = queue[queue.length - 1];
        if (last?.k === 'l' && last.t === message.task_id) last.l.push([message.time, message.output]);
        else queue.push({ k: 'l', p: message.project_id, t: message.task_id, l: [[message.time, message.output]] });
      }
    }
    timer ??= setTimeout(flush, FLUSH_MS);
  };

  function flush(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!queue.length) return;
    const payloads = packPayloads(origin, queue);
    queue = [];
    sending = sending.then(async () => {
      try {
        // one round trip; PostgreSQL delivers one transaction's notifications in the order sent
        if (payloads.length === 1) await sql`select pg_notify(${EVENTS_CHANNEL}, ${payloads[0]})`.execute(db);
        else await sql`select pg_notify(${EVENTS_CHANNEL}, p) from unnest(${payloads}::text[]) with ordinality as x(p, n)`.execute(db);
        if (sendFailing) log('sending events works again');
        sendFailing = false;
      } catch (err) {
        if (!sendFailing) log(`sending events to the other servers failed (dropped): ${(err as Error).message}`);
        sendFailing = true;
      }
    });
  }

  // ---- receiving -----------------------------------------------------------------------------
  let client: pg.Client | null = null;
  let stopped = false;
  let receiving: Promise<void> = Promise.resolve();
  let probe: NodeJS.Timeout | null = null;

  const readLongLine = async (entry: Extract<Entry, { k: 'r' }>) => {
    const row = await db.selectFrom('task_output').select('output').where('task_id', '=', entry.t).where('time', '=', entry.time)
      .orderBy('id').limit(1).offset(entry.n).executeTakeFirst();
    if (row) bus.receive({ type: 'log', project_id: entry.p, task_id: entry.t, time: entry.time, output: row.output });
  };

  const deliver = async (entries: Entry[]) => {
    for (const entry of entries) {
      if (entry.k === 'u' || entry.k === 'w') bus.receive(entry.m);
      else if (entry.k === 's') options.onScheduleChange?.(entry.id);
      else if (entry.k === 'l') {
        for (const [time, output] of entry.l) bus.receive({ type: 'log', project_id: entry.p, task_id: entry.t, time, output });
      } else await readLongLine(entry).catch((err) => log(`task ${entry.t}: a long line could not be read: ${(err as Error).message}`));
    }
  };

  const onNotification = (note: pg.Notification) => {
    if (note.channel !== EVENTS_CHANNEL || !note.payload) return;
    let parsed: { o: string; e: Entry[] };
    try {
      parsed = JSON.parse(note.payload) as { o: string; e: Entry[] };
    } catch {
      return;
    }
    if (parsed.o === origin || !Array.isArray(parsed.e)) return;
    // one chain: a long line read from the table does not let later messages overtake it
    receiving = receiving.then(() => deliver(parsed.e));
  };

  let lost = false;
  const dropClient = (which: pg.Client, reason: string) => {
    if (client !== which) return;
    client = null;
    which.removeAllListeners('notification');
    which.end().catch(() => undefined);
    if (stopped) return;
    if (!lost) log(`LISTEN connection lost (${reason}); reconnecting`);
    lost = true;
    void connect();
  };

  async function connect(): Promise<void> {
    for (let attempt = 0; !stopped; attempt++) {
      const next = new (loadPg().Client)(clientConfig);
      next.on('error', (err) => dropClient(next, err.message));
      next.on('end', () => dropClient(next, 'closed'));
      try {
        await next.connect();
        await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      } catch (err) {
        next.removeAllListeners('end');
        await next.end().catch(() => undefined);
        if (attempt === 0 && !lost) log(`LISTEN connection failed: ${(err as Error).message}; retrying`);
        await new Promise((r) => setTimeout(r, RECONNECT_PAUSES_MS[Math.min(attempt, RECONNECT_PAUSES_MS.length - 1)]));
        continue;
      }
      if (stopped) {
        next.removeAllListeners('end');
        await next.end().catch(() => undefined);
        return;
      }
      next.on('notification', onNotification);
      client = next;
      if (lost) {
        log('LISTEN connection restored');
        lost = false;
        options.onReconnect?.();
      }
      return;
    }
  }

  await connect();
  probe = setInterval(() => {
    const current = client;
    if (!current) return;
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 5 s')), 5_000).unref());
    void Promise.race([current.query('select 1'), timeout]).catch((err: Error) => dropClient(current, err.message));
  }, PROBE_EVERY_MS);
  probe.unref();
  const detach = bus.relayTo(enqueue);

  return {
    origin,
    get listening() { return client !== null; },
    scheduleChanged(id) {
      queue.push({ k: 's', id });
      timer ??= setTimeout(flush, FLUSH_MS);
    },
    async flushed() {
      flush();
      await sending;
    },
    async stop() {
      detach();
      flush();
      await sending;
      stopped = true;
      if (probe) clearInterval(probe);
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners('end');
        await current.end().catch(() => undefined);
      }
      await receiving;
    },
  };
}

/**
 * Packs entries, in order, into as few payloads as fit under `MAX_PAYLOAD_BYTES`; a batch of
 * lines too large for one payload is split between payloads.
 */
export function packPayloads(origin: string, entries: Entry[]): string[] {
  const head = `{"o":${JSON.stringify(origin)},"e":[`;
  const room = MAX_PAYLOAD_BYTES - Buffer.byteLength(head) - 2;
  const payloads: string[] = [];
  let parts: string[] = [];
  let size = 0;
  const close = () => {
    if (parts.length) payloads.push(`${head}${parts.join(',')}]}`);
    parts = [];
    size = 0;
  };
  const add = (text: string) => {
    const bytes = Buffer.byteLength(text) + (parts.length ? 1 : 0);
    if (size + bytes > room) close();
    parts.push(text);
    size += Buffer.byteLength(text) + (parts.length > 1 ? 1 : 0);
  };
  for (const entry of entries) {
    if (entry.k !== 'l') {
      add(JSON.stringify(entry));
      continue;
    }
    const text = JSON.stringify(entry);
    if (Buffer.byteLength(text) <= room - size - 1) {
      add(text);
      continue;
    }
    // split the batch: as many lines as fit in what is left of this payload, then the next
    const prefix = `{"k":"l","p":${entry.p},"t":${entry.t},"l":[`;
    let lines: string[] = [];
    let used = Buffer.byteLength(prefix) + 2;
    const emit = () => {
      if (lines.length) add(`${prefix}${lines.join(',')}]}`);
      lines = [];
      used = Buffer.byteLength(prefix) + 2;
    };
    for (const line of entry.l) {
      const lineText = JSON.stringify(line);
      const bytes = Buffer.byteLength(lineText) + (lines.length ? 1 : 0);
      const free = room - size - (parts.length ? 1 : 0);
      if (used + bytes > free) {
        if (lines.length) emit();
        else close();
      }
      lines.push(lineText);
      used += Buffer.byteLength(lineText) + (lines.length > 1 ? 1 : 0);
    }
    emit();
  }
  close();
  return payloads;
}
