import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, type Db, type DbSettings } from '../../../src/server/db/database.ts';
import { EventBus, type BusMessage } from '../../../src/server/events/event-bus.ts';
import { MAX_PAYLOAD_BYTES, packPayloads, startPgRelay, type PgRelay } from '../../../src/server/events/pg-relay.ts';
import { insertOutputGroup } from '../../../src/server/engine/output/insert-output.ts';
import { freshDatabase, isPostgresReachable } from '../../support/dialects.ts';
import { createPgCluster, postgresBinDir, type PgCluster } from '../../support/pg-cluster.ts';
import { freePort } from '../../support/server-process.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { ensureAdminUser } from '../../../src/server/domain/users/admin-bootstrap.ts';
import { ADMIN } from '../../support/harness.ts';
import { now } from '../../../src/server/lib/time.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** the task messages this suite sends */
type TaskMessage = Exclude<BusMessage, { type: 'workflow' }>;
const log = (task: number, output: string, time = '2026-11-23T10:00:00.000Z'): TaskMessage => ({ type: 'log', project_id: 1, task_id: task, time, output });
const update = (task: number, status: string): TaskMessage => ({ type: 'update', project_id: 1, task_id: task, template_id: 1, status, start: null, end: null, version: null });

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(20);
  }
}

describe('packing relay payloads', () => {
  it('keeps every payload under the NOTIFY limit, in order, splitting big batches of lines', () => {
    const lines = Array.from({ length: 5000 }, (_, i): [string, string] => ['t', `line ${i} ${'ü'.repeat(i % 50)}`]);
    const payloads = packPayloads('abc', [
      { k: 'u', m: update(1, 'running') as Extract<BusMessage, { type: 'update' }> },
      { k: 'l', p: 1, t: 1, l: lines },
      { k: 'r', p: 1, t: 1, time: 't', n: 0 },
      { k: 'l', p: 1, t: 2, l: [['t', 'other task']] },
    ]);
    expect(payloads.length).toBeGreaterThan(5);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(MAX_PAYLOAD_BYTES);
    const entries = payloads.flatMap((p) => (JSON.parse(p) as { o: string; e: { k: string; l?: [string, string][]; t?: number }[] }).e);
    expect(entries[0]!.k).toBe('u');
    const relayed = entries.filter((e) => e.k === 'l' && e.t === 1).flatMap((e) => e.l!.map(([, o]) => o));
    expect(relayed).toEqual(lines.map(([, o]) => o));
    expect(entries.map((e) => e.k).slice(-2)).toEqual(['r', 'l']);
  });
});

describe.runIf(await isPostgresReachable())('the PostgreSQL relay between two buses (one database)', () => {
  let tmp: string;
  let drop: () => Promise<void>;
  let settings: DbSettings;
  let db: Db;
  const buses = [new EventBus(), new EventBus()];
  const relays: PgRelay[] = [];
  let taskId: number;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'signalbox-relay-'));
    ({ settings, drop } = await freshDatabase('postgres', tmp));
    db = openDatabase(settings);
    await migrateToLatest(db);
    await ensureAdminUser(db, ADMIN);
    const fx = await insertProjectWithTemplate(db, { ownerId: 1 });
    taskId = (await db.insertInto('task').values({
      project_id: fx.project.id, template_id: fx.template.id, status: 'running', playbook: '', environment: '{}', message: '', commit_message: '', params: '{}', created: now(),
    }).returning('id').executeTakeFirstOrThrow()).id;
    for (const bus of buses) relays.push(await startPgRelay(bus, db, settings, { log: () => {} }));
  });
  afterAll(async () => {
    for (const relay of relays) await relay.stop();
    await db?.destroy();
    await drop?.();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('delivers what one bus publishes to the other once, in order, and never back to the sender', async () => {
    const heardOnB: BusMessage[] = [];
    const localOnB: BusMessage[] = [];
    const heardOnA: BusMessage[] = [];
    const offs = [buses[1]!.subscribe((m) => heardOnB.push(m)), buses[1]!.subscribeLocal((m) => localOnB.push(m)), buses[0]!.subscribe((m) => heardOnA.push(m))];
    const long = `x${'y'.repeat(20_000)}z`;
    const time = now();
    await insertOutputGroup(db, taskId, time, ['short 1', long, 'short 2']);
    const sent = [update(taskId, 'running'), log(taskId, 'short 1', time), log(taskId, long, time), log(taskId, 'short 2', time), update(taskId, 'success')];
    for (const m of sent) buses[0]!.publish({ ...m, task_id: taskId });
    await until(() => heardOnB.length >= sent.length);
    await sleep(200);
    for (const off of offs) off();
    expect(heardOnB).toEqual(sent);
    expect(localOnB).toEqual([]); // alerts and metrics on B do not act on A's tasks
    expect(heardOnA).toEqual(sent); // A heard its own messages once (locally), not again from PostgreSQL
  });

  describe.runIf(process.getuid?.() === 0 && postgresBinDir() !== null)('with a private cluster restarted under it', () => {
    let cluster: PgCluster;
    let own: { db: Db; settings: DbSettings; relays: PgRelay[]; buses: EventBus[] };

    beforeAll(async () => {
      cluster = createPgCluster(postgresBinDir()!, await freePort());
      await cluster.createDatabase('relay');
      const s: DbSettings = { dialect: 'postgres', host: `127.0.0.1:${cluster.port}`, user: 'postgres', name: 'relay' };
      const ownDb = openDatabase(s);
      const ownBuses = [new EventBus(), new EventBus()];
      own = { db: ownDb, settings: s, buses: ownBuses, relays: [] };
      for (const bus of ownBuses) own.relays.push(await startPgRelay(bus, ownDb, s, { log: () => {} }));
    }, 180_000);
    afterAll(async () => {
      for (const relay of own?.relays ?? []) await relay.stop();
      await own?.db.destroy().catch(() => undefined);
      cluster?.remove();
    });

    it('listens again after PostgreSQL restarts, and messages flow again', async () => {
      const heard: BusMessage[] = [];
      own.buses[1]!.subscribe((m) => heard.push(m));
      own.buses[0]!.publish(update(7, 'running'));
      await until(() => heard.length === 1);

      cluster.stop('immediate');
      await until(() => !own.relays[1]!.listening);
      own.buses[0]!.publish(update(7, 'lost while down')); // dropped: nobody can hear it
      await sleep(300);
      cluster.start();
      await until(() => own.relays.every((r) => r.listening), 30_000);
      // the pool may still hand out a dead connection once; a later message gets through
      const deadline = Date.now() + 15_000;
      while (!heard.some((m) => m.type === 'update' && m.status === 'after restart') && Date.now() < deadline) {
        own.buses[0]!.publish(update(7, 'after restart'));
        await sleep(300);
      }
      expect(heard.map((m) => (m as { status: string }).status)).toContain('after restart');
      expect(heard.map((m) => (m as { status: string }).status)).not.toContain('lost while down');
    }, 90_000);
  });
});
