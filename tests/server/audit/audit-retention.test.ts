import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type TestServer } from '../../support/harness.ts';
import { purgeExpiredAudit } from '../../../src/server/retention/purge-audit.ts';
import { writeAudit } from '../../../src/server/domain/audit/audit.writer.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

const DAY = 86_400_000;

/** An audit row written as the server writes one, dated `daysAgo`; it waits in the inbox. */
async function insertAged(s: TestServer, daysAgo: number): Promise<number> {
  const id = (await writeAudit(s.deps.db, { action: 'update', projectId: null, description: 'aged' }))!;
  await s.deps.db.updateTable('audit_inbox').set({ created: new Date(Date.now() - daysAgo * DAY).toISOString() }).where('id', '=', id).execute();
  return id;
}

/** The ids of every audit row, moved into `audit` or still in the inbox. */
async function auditIds(s: TestServer): Promise<number[]> {
  const moved = await s.deps.db.selectFrom('audit').select('id').execute();
  const waiting = await s.deps.db.selectFrom('audit_inbox').select('id').execute();
  return [...moved, ...waiting].map((r) => r.id);
}

for (const dialect of DIALECTS) {
  describe(`audit retention (${dialect})`, () => {
    let s: TestServer | undefined;
    afterEach(async () => { await s?.close(); s = undefined; });

    it('keeps a year by default, deletes older rows, and records the purge', async () => {
      s = await startTestServer(dialect);
      expect(s.config.audit.retention_days).toBe(365);
      const old = await insertAged(s, 400);
      const recent = await insertAged(s, 300);
      await settleAuditInbox(s.deps.db);
      const admin = await s.login(ADMIN.login, ADMIN.password);
      const res = await s.call('POST', '/api/retention/purge', undefined, admin);
      expect(res.status).toBe(200);
      await settleAuditInbox(s.deps.db);
      const ids = (await s.deps.db.selectFrom('audit').select('id').execute()).map((r) => r.id);
      expect(ids).not.toContain(old);
      expect(ids).toContain(recent);
      const purge = await s.deps.db.selectFrom('audit').selectAll().where('action', '=', 'purge').executeTakeFirstOrThrow();
      expect(purge).toMatchObject({ object_type: 'audit', actor_name: 'admin', request: 'POST /api/retention/purge' });
      expect(purge.description).toMatch(/^1 audit rows older than /);
    });

    it('keeps old rows an enabled export sink has not delivered yet', async () => {
      s = await startTestServer(dialect, { SIGNALBOX_AUDIT_RETENTION_DAYS: '30', SEMAPHORE_AUDIT_WEBHOOK_ENABLED: 'true', SEMAPHORE_AUDIT_WEBHOOK_URL: 'http://127.0.0.1:9/' });
      const delivered = await insertAged(s, 60);
      const pending = await insertAged(s, 60);
      await settleAuditInbox(s.deps.db);
      const unsequenced = await insertAged(s, 60);
      const { seq } = await s.deps.db.selectFrom('audit').select('seq').where('id', '=', delivered).executeTakeFirstOrThrow();
      await s.deps.db.insertInto('audit_export').values({ sink: 'webhook', delivered_seq: seq!, last_error: 'down', updated: '' }).execute();
      expect(await purgeExpiredAudit(s.deps.db, s.config)).toBe(1);
      const ids = await auditIds(s);
      expect(ids).not.toContain(delivered);
      expect(ids).toEqual(expect.arrayContaining([pending, unsequenced]));
      await settleAuditInbox(s.deps.db);
      expect(await s.deps.db.selectFrom('audit').select('actor_name').where('action', '=', 'purge').executeTakeFirstOrThrow()).toEqual({ actor_name: 'system' });
    });

    it('SIGNALBOX_AUDIT_RETENTION_DAYS=0 keeps everything', async () => {
      s = await startTestServer(dialect, { SIGNALBOX_AUDIT_RETENTION_DAYS: '0' });
      await insertAged(s, 4000);
      await settleAuditInbox(s.deps.db);
      expect(await purgeExpiredAudit(s.deps.db, s.config)).toBe(0);
    });
  });
}
