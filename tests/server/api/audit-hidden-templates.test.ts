import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, type TestServer } from '../../support/harness.ts';
import { buildWorld } from '../../support/world.ts';
import { insertProjectResources } from '../../support/resource-rows.ts';
import { Permission } from '../../../src/server/access/permissions.ts';

// The project audit trail keeps no trace of a template a reader does not see (issue 52): rows
// about it, its grants, tasks and schedules are left out in the query, so cursor pages stay full.

type Row = { id: number; object_type: string; object_id: number | null };

for (const dialect of DIALECTS) {
  describe(`project audit without hidden templates (${dialect})`, () => {
    let s: TestServer;
    beforeAll(async () => { s = await startTestServer(dialect); });
    afterAll(async () => { await s.close(); });

    it('a ReadAudit role without the grant reads no row naming the template, its tasks or schedules; an owner does; pages stay full', async () => {
      const w = await buildWorld(s.deps.db);
      const ids = await insertProjectResources(s.deps.db, w.projectId);
      const p = `/api/project/${w.projectId}`;
      const owner = w.auth.owner;
      const role = await s.call('POST', `${p}/roles`, { name: 'Auditors', permissions: Permission.ReadAudit | Permission.ViewTemplates }, owner);
      expect(role.status, role.text).toBe(201);
      expect((await s.call('PUT', `${p}/users/${w.users.extra.id}`, { role: 'auditors' }, owner)).status).toBe(204);
      const auditor = { authorization: `Bearer ${w.tokens.extra}` };
      for (let i = 0; i < 12; i++) {
        for (const template of [ids.template, ids.spareTemplate]) {
          expect((await s.call('PUT', `${p}/templates/${template}/description`, { description: `step ${i}` }, owner)).status).toBeLessThan(300);
        }
      }
      expect((await s.call('PUT', `${p}/schedules/${ids.schedule}/active`, { active: true }, owner)).status).toBeLessThan(300);
      expect((await s.call('POST', `${p}/tasks/${ids.waitingTask}/stop`, {}, owner)).status).toBeLessThan(300);
      expect((await s.call('PUT', `${p}/templates/${ids.template}/grants`, { grants: [{ role: 'manager' }] }, owner)).status).toBe(200);

      const hidden = (r: Row) => (r.object_type === 'template' && r.object_id === ids.template)
        || (r.object_type === 'task' && r.object_id === ids.waitingTask) || (r.object_type === 'schedule' && r.object_id === ids.schedule);
      const all = async (auth: typeof owner) => (await s.call('GET', `${p}/audit?limit=500`, undefined, auth)).body.rows as Row[];
      const seen = await all(owner);
      expect(seen.filter(hidden).map((r) => r.object_type).sort()).toEqual([...Array(13).fill('template'), 'schedule', 'task'].sort());
      const read = await all(auditor);
      expect(read.filter(hidden)).toEqual([]);
      expect(read.map((r) => r.id)).toEqual(seen.filter((r) => !hidden(r)).map((r) => r.id));
      expect(read.filter((r) => r.object_type === 'template' && r.object_id === ids.spareTemplate)).toHaveLength(12);

      // paging by the cursor: every page but the last is full, together they are the whole list
      const paged: Row[] = [];
      let before: number | null = null;
      for (;;) {
        const body: { rows: Row[]; next: number | null } = (await s.call('GET', `${p}/audit?limit=5${before ? `&before=${before}` : ''}`, undefined, auditor)).body;
        if (body.next !== null) expect(body.rows).toHaveLength(5);
        paged.push(...body.rows);
        if (body.next === null) break;
        before = body.next;
      }
      expect(paged.map((r) => r.id)).toEqual(read.map((r) => r.id));

      const exported = (await s.call('GET', `${p}/audit/export?format=jsonl`, undefined, auditor)).text.trim().split('\n').map((l) => JSON.parse(l) as Row);
      expect(exported.filter(hidden)).toEqual([]);
      expect(exported.map((r) => r.id)).toEqual(read.map((r) => r.id));
      const ownerCsv = (await s.call('GET', `${p}/audit/export`, undefined, owner)).text;
      const auditorCsv = (await s.call('GET', `${p}/audit/export`, undefined, auditor)).text;
      expect(ownerCsv.split('\n').length - auditorCsv.split('\n').length).toBe(15);
    });
  });
}
