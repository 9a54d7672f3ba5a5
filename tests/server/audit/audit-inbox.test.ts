import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { migrateToLatest, openDatabase, type Db } from '../../../src/server/db/database.ts';
import { migrations } from '../../../src/server/db/migrations/index.ts';
import { configureAudit, writeAudit } from '../../../src/server/domain/audit/audit.writer.ts';
import { runWithAuditRequest, type AuditRequest } from '../../../src/server/domain/audit/audit-context.ts';
import { recordEvent } from '../../../src/server/domain/events/event.repository.ts';
import { moveAuditInbox, settleAuditInbox, SEQUENCE_ROW } from '../../../src/server/domain/audit/audit-inbox.ts';
import { DIALECTS, freshDatabase } from '../../support/dialects.ts';

const INBOX_MIGRATION = '2026_11_26_s_audit_inbox';

for (const dialect of DIALECTS) {
  describe(`audit inbox (${dialect})`, () => {
    const tmp = mkdtempSync(join(tmpdir(), 'signalbox-audit-inbox-'));
    const closers: (() => Promise<void>)[] = [];
    afterAll(async () => {
      for (const close of closers) await close();
      rmSync(tmp, { recursive: true, force: true });
    }, 120_000);

    async function open(upTo?: string): Promise<Db> {
      const fresh = await freshDatabase(dialect, tmp);
      const db = openDatabase(fresh.settings);
      closers.push(async () => { await db.destroy(); await fresh.drop(); });
      if (upTo) {
        const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(upTo);
        expect(error).toBeUndefined();
      } else {
        await migrateToLatest(db);
      }
      return db;
    }

    const row = (description: string) => ({ created: new Date().toISOString(), action: 'update', actor_user_id: null, project_id: null, object_id: null, description });
    const auditIds = async (db: Db) => (await db.selectFrom('audit').select(['id', 'seq']).orderBy('id').execute()).map((r) => [r.id, r.seq]);

    it('moves rows in id order with consecutive sequence numbers, keeping their ids', async () => {
      const db = await open();
      const written: number[] = [];
      for (let i = 0; i < 2500; i++) written.push((await writeAudit(db, { action: 'update', projectId: null, description: `row ${i}` }))!);
      expect(await db.selectFrom('audit').select('id').execute()).toEqual([]);
      expect(await moveAuditInbox(db)).toBe(1000);
      await settleAuditInbox(db);
      expect(await db.selectFrom('audit_inbox').select('id').execute()).toEqual([]);
      expect(await auditIds(db)).toEqual(written.map((id, i) => [id, i + 1]));
      const counter = await db.selectFrom('audit_export').select('delivered_seq').where('sink', '=', SEQUENCE_ROW).executeTakeFirstOrThrow();
      expect(Number(counter.delivered_seq)).toBe(2500);
      expect(await moveAuditInbox(db)).toBe(0);
    });

    it('numbers rows whose ids have gaps consecutively, in id order', async () => {
      const db = await open();
      const written: number[] = [];
      for (let i = 0; i < 6; i++) written.push((await writeAudit(db, { action: 'update', projectId: null, description: `row ${i}` }))!);
      await db.deleteFrom('audit_inbox').where('id', 'in', [written[1]!, written[4]!]).execute();
      expect(await moveAuditInbox(db)).toBe(4);
      expect(await auditIds(db)).toEqual([written[0], written[2], written[3], written[5]].map((id, i) => [id, i + 1]));
      const next = (await writeAudit(db, { action: 'update', projectId: null }))!;
      expect(await moveAuditInbox(db)).toBe(1);
      expect((await auditIds(db)).at(-1)).toEqual([next, 5]);
    });

    it('never gives an id twice, also after rows were written straight into the audit table', async () => {
      const db = await open();
      const first = (await writeAudit(db, { action: 'create', projectId: null }))!;
      await settleAuditInbox(db);
      const direct = (await db.insertInto('audit').values({ ...row('restored'), seq: null }).returning('id').executeTakeFirstOrThrow()).id;
      const next = (await writeAudit(db, { action: 'delete', projectId: null }))!;
      expect(direct).toBeGreaterThan(first);
      expect(next).toBeGreaterThan(direct);
      await settleAuditInbox(db);
      expect((await auditIds(db)).map(([id]) => id)).toEqual([first, direct, next]);
    });

    it('never gives an id again after every audit row was purged', async () => {
      const db = await open();
      const first = (await writeAudit(db, { action: 'create', projectId: null }))!;
      await settleAuditInbox(db);
      await db.deleteFrom('audit').execute();
      const next = (await writeAudit(db, { action: 'purge', projectId: null }))!;
      expect(next).toBeGreaterThan(first);
    });

    it('keeps nothing of a change that rolled back', async () => {
      const db = await open();
      await expect(db.transaction().execute(async (tx) => {
        await writeAudit(tx, { action: 'create', projectId: null, description: 'undone' });
        throw new Error('the change failed');
      })).rejects.toThrow('the change failed');
      expect(await db.selectFrom('audit_inbox').select('id').execute()).toEqual([]);
      await settleAuditInbox(db);
      expect(await db.selectFrom('audit').select('id').execute()).toEqual([]);
    });

    it('upgrading moves rows without a sequence number into the inbox, and they are numbered after the rest', async () => {
      const before = Object.keys(migrations).sort().filter((name) => name < INBOX_MIGRATION).at(-1)!;
      const db = await open(before);
      const numbered = [];
      for (const seq of [1, 2]) numbered.push((await db.insertInto('audit').values({ ...row(`numbered ${seq}`), seq }).returning('id').executeTakeFirstOrThrow()).id);
      const waiting = (await db.insertInto('audit').values({ ...row('waiting'), seq: null }).returning('id').executeTakeFirstOrThrow()).id;
      await db.insertInto('audit_export').values({ sink: SEQUENCE_ROW, delivered_seq: 2, last_error: '', updated: '' }).execute();
      await migrateToLatest(db);
      expect(await db.selectFrom('audit_inbox').select(['id', 'description']).execute()).toEqual([{ id: waiting, description: 'waiting' }]);
      const next = (await writeAudit(db, { action: 'create', projectId: null }))!;
      expect(next).toBeGreaterThan(waiting);
      await settleAuditInbox(db);
      expect(await auditIds(db)).toEqual([[numbered[0], 1], [numbered[1], 2], [waiting, 3], [next, 4]]);
    });

    describe('activity-log entries carried in their audit rows', () => {
      const request = (): AuditRequest => ({
        route: 'POST /api/project/:project_id/keys', method: 'POST', clientIp: '10.1.2.3', userAgent: 'test', actor: { userId: null, name: 'someone', token: '' },
        project: null, fields: [], params: {}, written: 0, auditId: null, unchanged: false, closed: false,
      });
      const events = async (db: Db) => db.selectFrom('event').select(['id', 'description', 'project_id', 'user_id', 'audit_id']).orderBy('id').execute();
      const project = async (db: Db, name: string) => (await db.insertInto('project').values({ name, created: new Date().toISOString(), alert: 0, max_parallel_tasks: 0, type: '' }).returning('id').executeTakeFirstOrThrow()).id;

      it('a request\'s first entry waits in the inbox and reaches `event` with its row; later ones share the row, all in the order made', async () => {
        const db = await open();
        const pid = await project(db, 'p');
        await db.transaction().execute((tx) => runWithAuditRequest(request(), async () => {
          await recordEvent(tx, { projectId: pid, userId: null, objectType: 'project', objectId: pid, description: 'Project created' });
          await recordEvent(tx, { projectId: pid, userId: null, objectType: 'key', objectId: 7, description: 'Access Key k created' });
        }));
        const waiting = await db.selectFrom('audit_inbox').select(['id', 'event_id', 'event_description']).execute();
        expect(waiting).toHaveLength(1);
        expect(waiting[0]!.event_description).toBe('Project created');
        expect((await events(db)).map((e) => e.description)).toEqual(['Access Key k created']);
        await settleAuditInbox(db);
        const listed = await events(db);
        expect(listed.map((e) => [e.description, e.project_id, e.audit_id])).toEqual([['Project created', pid, waiting[0]!.id], ['Access Key k created', pid, waiting[0]!.id]]);
        expect(listed[0]!.id).toBe(Number(waiting[0]!.event_id));
        expect(await db.selectFrom('audit').select(['id', 'object_type']).execute()).toEqual([{ id: waiting[0]!.id, object_type: 'project' }]);
      });

      it('entries the server makes on its own each travel in their own row, and take ids after entries written directly', async () => {
        const db = await open();
        await recordEvent(db, { projectId: null, userId: null, objectType: 'schedule', objectId: 1, description: 'first' });
        configureAudit({ enabled: false });
        try {
          await recordEvent(db, { projectId: null, userId: null, objectType: 'schedule', objectId: 2, description: 'unaudited' });
        } finally {
          configureAudit({ enabled: true });
        }
        await db.transaction().execute((tx) => recordEvent(tx, { projectId: null, userId: null, objectType: 'schedule', objectId: 3, description: 'third' }));
        await settleAuditInbox(db);
        const listed = await events(db);
        expect(listed.map((e) => e.description)).toEqual(['first', 'unaudited', 'third']);
        expect(listed.map((e) => e.audit_id === null)).toEqual([false, true, false]);
      });

      it('an entry of a project deleted before it moved goes with the project; a deleted user\'s entry keeps no user; a rolled-back one never arrives', async () => {
        const db = await open();
        const pid = await project(db, 'gone');
        const uid = (await db.insertInto('user').values({ username: 'u', name: 'U', email: 'u@example.com', password: '', admin: 0, external: 0, alert: 0, created: new Date().toISOString() }).returning('id').executeTakeFirstOrThrow()).id;
        await recordEvent(db, { projectId: pid, userId: null, objectType: 'project', objectId: pid, description: 'of the project' });
        await recordEvent(db, { projectId: null, userId: uid, objectType: 'user', objectId: uid, description: 'of the user' });
        await expect(db.transaction().execute(async (tx) => {
          await recordEvent(tx, { projectId: null, userId: null, objectType: 'key', objectId: 1, description: 'undone' });
          throw new Error('the change failed');
        })).rejects.toThrow('the change failed');
        await db.deleteFrom('project').where('id', '=', pid).execute();
        await db.deleteFrom('user').where('id', '=', uid).execute();
        await settleAuditInbox(db);
        expect((await events(db)).map((e) => [e.description, e.user_id])).toEqual([['of the user', null]]);
        expect((await db.selectFrom('audit').select('description').orderBy('id').execute()).map((r) => r.description)).toEqual(['of the project', 'of the user']);
      });
    });

    if (dialect === 'postgres') {
      it('a row whose transaction commits after a later id was moved still arrives, with the next number', async () => {
        const db = await open();
        let release!: () => void;
        const held = new Promise<void>((resolve) => { release = resolve; });
        let slowId = 0;
        let written!: () => void;
        const wrote = new Promise<void>((resolve) => { written = resolve; });
        const slow = db.transaction().execute(async (tx) => {
          slowId = (await writeAudit(tx, { action: 'update', projectId: null, description: 'slow' }))!;
          written();
          await held;
        });
        await wrote;
        const fast = (await writeAudit(db, { action: 'update', projectId: null, description: 'fast' }))!;
        expect(fast).toBeGreaterThan(slowId);
        await settleAuditInbox(db);
        expect(await auditIds(db)).toEqual([[fast, 1]]);
        release();
        await slow;
        await settleAuditInbox(db);
        expect(await auditIds(db)).toEqual([[slowId, 2], [fast, 1]]);
      });
    }
  });
}
