// Issue #34 item 2: bulk actions on templates. `POST /api/project/{id}/templates/bulk` runs,
// moves, disables, enables or deletes many templates at once. move/disable/enable change all
// or nothing; run and delete go one by one and report a refusal per template (a disabled
// template, a template still referenced) without stopping the others. Every id must be a
// template of the project. The single actions' role checks apply, and each template changed
// (each task started) leaves one audit row.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, startTestServer, type Auth, type TestServer } from '../../support/harness.ts';
import { insertMember, insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';
import { insertAdminProject, insertIntegration, listTasks } from '../../support/trigger-fixtures.ts';
import { settleAuditInbox } from '../../../src/server/domain/audit/audit-inbox.ts';

for (const dialect of DIALECTS) {
  describe(`templates bulk actions (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let pid = 0;
    let ids: number[] = [];
    let names = new Map<number, string>();
    let auditBefore = 0;
    const bulk = (body: unknown, auth: Auth = admin) => s.call('POST', `/api/project/${pid}/templates/bulk`, body, auth);
    const template = (id: number) => s.deps.db.selectFrom('template').selectAll().where('id', '=', id).executeTakeFirst();
    const newAudit = async () => { await settleAuditInbox(s.deps.db); return s.deps.db.selectFrom('audit').selectAll().where('id', '>', auditBefore).where('request', '!=', '').orderBy('id').execute(); };

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
    });
    afterAll(async () => { await s.close(); });

    beforeEach(async () => {
      const fx = await insertAdminProject(s);
      pid = fx.project.id;
      const more = [];
      for (const name of ['Beta', 'Gamma', 'Delta']) more.push(await insertTemplate(s.deps.db, pid, { name }));
      ids = [fx.template.id, ...more.map((t) => t.id)];
      names = new Map([[fx.template.id, fx.template.name], ...more.map((t) => [t.id, t.name] as [number, string])]);
      await settleAuditInbox(s.deps.db);
      const last = await s.deps.db.selectFrom('audit').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
      auditBefore = Number(last.id ?? 0);
    });

    it('disables and enables every template named, in one go, with an audit row and an event each', async () => {
      const events = async () => {
        await settleAuditInbox(s.deps.db);
        return (await s.deps.db.selectFrom('event').select('object_id').where('project_id', '=', pid).where('object_type', '=', 'template').execute()).length;
      };
      const eventsBefore = await events();
      const res = await bulk({ action: 'disable', template_ids: [ids[0], ids[2], ids[0]] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ results: [{ template_id: ids[0], name: names.get(ids[0]!), ok: true }, { template_id: ids[2], name: names.get(ids[2]!), ok: true }] });
      expect((await template(ids[0]!))!.disabled).toBe(1);
      expect((await template(ids[1]!))!.disabled).toBe(0);
      expect((await template(ids[2]!))!.disabled).toBe(1);
      const rows = await newAudit();
      expect(rows.map((r) => [r.action, r.object_type, r.object_id, r.object_name, r.request])).toEqual([
        ['update', 'template', ids[0], names.get(ids[0]!), 'POST /api/project/:project_id/templates/bulk'],
        ['update', 'template', ids[2], names.get(ids[2]!), 'POST /api/project/:project_id/templates/bulk'],
      ]);
      expect(rows.map((r) => r.description)).toEqual([`Template ID ${ids[0]} disabled`, `Template ID ${ids[2]} disabled`]);
      expect(await events()).toBe(eventsBefore + 2);
      // each template's activity entry points at that template's own audit row
      await settleAuditInbox(s.deps.db);
      const linked = await s.deps.db.selectFrom('event').select(['object_id', 'audit_id']).where('project_id', '=', pid).where('object_type', '=', 'template')
        .where('audit_id', 'in', rows.map((r) => r.id)).orderBy('object_id').execute();
      expect(linked.map((e) => [e.object_id, e.audit_id])).toEqual(rows.map((r) => [r.object_id, r.id]).sort((a, b) => a[0]! - b[0]!));

      expect((await bulk({ action: 'enable', template_ids: [ids[2]] })).body.results).toEqual([{ template_id: ids[2], name: names.get(ids[2]!), ok: true }]);
      expect((await template(ids[2]!))!.disabled).toBe(0);
      expect((await template(ids[0]!))!.disabled).toBe(1);
    });

    it('moves templates to a view of the project and out of every view; another project\'s view is refused and nothing moves', async () => {
      const view = await s.call('POST', `/api/project/${pid}/views`, { title: 'Ops', position: 0 }, admin);
      expect(view.status).toBe(201);
      const moved = await bulk({ action: 'move', template_ids: [ids[1], ids[3]], view_id: view.body.id });
      expect(moved.status).toBe(200);
      expect(moved.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
      expect((await s.call('GET', `/api/project/${pid}/views/${view.body.id}/templates`, undefined, admin)).body.map((t: { id: number }) => t.id).sort())
        .toEqual([ids[1], ids[3]].sort());

      const other = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      const foreignView = await s.deps.db.insertInto('view').values({ project_id: other.project.id, title: 'Theirs', position: 0, type: '', hidden: 0, sort_reverse: 0 }).returningAll().executeTakeFirstOrThrow();
      const auditAfterMove = (await newAudit()).length;
      const refused = await bulk({ action: 'move', template_ids: [ids[0], ids[1]], view_id: foreignView.id });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/^view_id: /);
      expect((await template(ids[0]!))!.view_id).toBeNull();
      expect((await template(ids[1]!))!.view_id).toBe(view.body.id);
      expect(await newAudit()).toHaveLength(auditAfterMove);

      const out = await bulk({ action: 'move', template_ids: [ids[1]], view_id: null });
      expect(out.status).toBe(200);
      expect((await template(ids[1]!))!.view_id).toBeNull();
      expect((await template(ids[3]!))!.view_id).toBe(view.body.id);
    });

    it('runs each template once, reports a disabled one without stopping the others, and audits each task started', async () => {
      await s.deps.db.updateTable('template').set({ disabled: 1 }).where('id', '=', ids[1]!).execute();
      const res = await bulk({ action: 'run', template_ids: [ids[0], ids[1], ids[2]] });
      expect(res.status).toBe(200);
      const tasks = await listTasks(s.deps.db, pid);
      expect(tasks.map((t) => t.template_id)).toEqual([ids[0], ids[2]]);
      expect(res.body.results).toEqual([
        { template_id: ids[0], name: names.get(ids[0]!), ok: true, task_id: tasks[0]!.id },
        { template_id: ids[1], name: names.get(ids[1]!), ok: false, code: 'disabled', error: `Template "Beta" is disabled` },
        { template_id: ids[2], name: names.get(ids[2]!), ok: true, task_id: tasks[1]!.id },
      ]);
      const rows = await newAudit();
      expect(rows.map((r) => [r.action, r.object_type, r.object_id])).toEqual([['task_start', 'task', tasks[0]!.id], ['task_start', 'task', tasks[1]!.id]]);
      await settleAuditInbox(s.deps.db);
      const taskEvents = await s.deps.db.selectFrom('event').select(['object_id', 'audit_id']).where('object_type', '=', 'task').where('project_id', '=', pid).orderBy('object_id').execute();
      expect(taskEvents.map((e) => [e.object_id, e.audit_id])).toEqual(rows.map((r) => [r.object_id, r.id]));
    });

    it('a run where every template is refused starts nothing and leaves no audit row', async () => {
      await s.deps.db.updateTable('template').set({ disabled: 1 }).where('id', 'in', ids).execute();
      const res = await bulk({ action: 'run', template_ids: ids });
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([false, false, false, false]);
      expect(await listTasks(s.deps.db, pid)).toEqual([]);
      expect(await newAudit()).toEqual([]);
    });

    it('deletes what nothing refers to, refuses a referenced template with its references, and deletes a build with its selected deploy', async () => {
      await insertIntegration(s, pid, ids[0]!, { name: 'Push hook' });
      await s.deps.db.updateTable('template').set({ type: 'build' }).where('id', '=', ids[1]!).execute();
      await s.deps.db.updateTable('template').set({ type: 'deploy', build_template_id: ids[1]! }).where('id', '=', ids[2]!).execute();
      const res = await bulk({ action: 'delete', template_ids: ids });
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([
        { template_id: ids[0], name: names.get(ids[0]!), ok: false, code: 'in_use', error: 'Template is in use by one or more integrations, deploy templates or workflows: integration "Push hook"' },
        { template_id: ids[1], name: names.get(ids[1]!), ok: true },
        { template_id: ids[2], name: names.get(ids[2]!), ok: true },
        { template_id: ids[3], name: names.get(ids[3]!), ok: true },
      ]);
      expect(await template(ids[0]!)).toBeDefined();
      for (const id of ids.slice(1)) expect(await template(id)).toBeUndefined();
      const rows = await newAudit();
      expect(rows.map((r) => [r.action, r.object_id]).sort()).toEqual(ids.slice(1).map((id) => ['delete', id]).sort());
      await settleAuditInbox(s.deps.db);
      const deleteEvents = await s.deps.db.selectFrom('event').select(['object_id', 'audit_id']).where('project_id', '=', pid).where('description', 'like', '%deleted')
        .orderBy('object_id').execute();
      expect(deleteEvents.map((e) => [e.object_id, e.audit_id])).toEqual(rows.map((r) => [r.object_id, r.id]).sort((a, b) => a[0]! - b[0]!));
    });

    it('refuses another project\'s template id, unknown ids and bad input with a 400 naming the field, changing nothing', async () => {
      const other = await insertProjectWithTemplate(s.deps.db, { ownerId: 1 });
      const cases: [unknown, RegExp][] = [
        [{ action: 'disable', template_ids: [ids[0], other.template.id] }, new RegExp(`^template_ids: no template ${other.template.id} in this project$`)],
        [{ action: 'delete', template_ids: [other.template.id] }, /^template_ids: /],
        [{ action: 'disable', template_ids: [2_000_000_000] }, /^template_ids: /],
        [{ action: 'archive', template_ids: [ids[0]] }, /^action: /],
        [{ template_ids: [ids[0]] }, /^action: /],
        [{ action: 'disable', template_ids: [] }, /^template_ids: /],
        [{ action: 'disable' }, /^template_ids: /],
        [{ action: 'disable', template_ids: [0] }, /^template_ids/],
        [{ action: 'disable', template_ids: [-3] }, /^template_ids/],
        [{ action: 'disable', template_ids: [1.5] }, /^template_ids/],
        [{ action: 'disable', template_ids: ['7'] }, /^template_ids/],
        [{ action: 'disable', template_ids: Array.from({ length: 501 }, (_, i) => i + 1) }, /^template_ids: at most 500 templates$/],
        [{ action: 'move', template_ids: [ids[0]], view_id: 'x' }, /^view_id: /],
        ['[1,2]', /./],
      ];
      for (const [body, error] of cases) {
        const res = await bulk(body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.error, JSON.stringify(body).slice(0, 80)).toMatch(error);
      }
      expect((await template(other.template.id))).toBeDefined();
      expect((await template(ids[0]!))!.disabled).toBe(0);
      expect(await newAudit()).toEqual([]);
    });

    it('applies the single actions\' role checks: a task runner runs but may not disable or delete; a guest does nothing', async () => {
      const runner = await insertMember(s.deps.db, pid, `runner${pid}`, 'task_runner');
      const guest = await insertMember(s.deps.db, pid, `guest${pid}`, 'guest');
      const manager = await insertMember(s.deps.db, pid, `manager${pid}`, 'manager');
      const [asRunner, asGuest, asManager] = await Promise.all([runner, guest, manager].map((u) => s.login(u.username, 'member-password-1')));
      for (const action of ['disable', 'enable', 'move', 'delete']) {
        const res = await bulk({ action, template_ids: [ids[3]] }, asRunner);
        expect(res.status, action).toBe(403);
        expect(res.text).toBe('');
      }
      expect(await template(ids[3]!)).toBeDefined();
      expect((await bulk({ action: 'run', template_ids: [ids[3]] }, asGuest)).status).toBe(403);
      expect((await bulk({ action: 'disable', template_ids: [ids[3]] }, asGuest)).status).toBe(403);
      expect(await listTasks(s.deps.db, pid)).toEqual([]);

      const run = await bulk({ action: 'run', template_ids: [ids[3]] }, asRunner);
      expect(run.status).toBe(200);
      expect(run.body.results[0].ok).toBe(true);
      expect((await bulk({ action: 'disable', template_ids: [ids[3]] }, asManager)).status).toBe(200);
      expect((await template(ids[3]!))!.disabled).toBe(1);
      const outsider = await s.call('POST', `/api/project/${pid}/templates/bulk`, { action: 'run', template_ids: [ids[0]] });
      expect(outsider.status).toBe(401);
    });
  });
}
