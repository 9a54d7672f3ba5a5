import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/dialects.ts';
import { ADMIN, type Auth } from '../../support/harness.ts';
import { startHttpTestServer } from '../../support/http-test-server.ts';
import { insertAdminProject, insertIntegration, listDeliveryRows } from '../../support/trigger-fixtures.ts';
import { insertTemplate } from '../../support/fixtures.ts';

/**
 * "Once within" (issue 48): identical deliveries to an integration inside its window start one
 * task; the later ones answer 202 with that task's id and start nothing. Identical: the same
 * extracted values when the integration extracts any, else the same body. Over real HTTP.
 */
for (const dialect of DIALECTS) {
  describe(`webhook deliveries merged once within a window (${dialect})`, () => {
    let server: Awaited<ReturnType<typeof startHttpTestServer>>;
    let admin: Auth;
    let f: Awaited<ReturnType<typeof insertAdminProject>>;
    let templateCount = 0;
    const push = (ref: string, delivery: string) => JSON.stringify({ ref, delivery, head_commit: { id: 'abc123' } });
    const deliver = async (alias: string, body: string) => {
      const res = await fetch(`${server.url}/api/integrations/${alias}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const hook = async (onceWithin: number | null, values: NonNullable<Parameters<typeof insertIntegration>[3]>['values'] = []) => {
      const tpl = await insertTemplate(server.s.deps.db, f.project.id, { name: `Hooked ${++templateCount}`, allow_parallel_tasks: 1 });
      const made = await insertIntegration(server.s, f.project.id, tpl.id, { values });
      await server.s.deps.db.updateTable('integration').set({ once_within: onceWithin }).where('id', '=', made.integration.id).execute();
      return { ...made, templateId: tpl.id };
    };
    const tasksOf = async (templateId: number) => (await server.s.deps.db.selectFrom('task').select(['id', 'environment']).where('template_id', '=', templateId).orderBy('id').execute());
    const BRANCH = [{ value_source: 'body', key: 'ref', variable: 'BRANCH' }];

    beforeAll(async () => {
      server = await startHttpTestServer(dialect);
      admin = await server.s.login(ADMIN.login, ADMIN.password);
      f = await insertAdminProject(server.s);
    });
    afterAll(async () => { await server.close(); });

    it('the API keeps the window in seconds, shows it, clears it with null and refuses nonsense', async () => {
      const base = `/api/project/${f.project.id}/integrations`;
      const created = await server.s.call('POST', base, { name: 'Windowed', template_id: f.template.id, once_within: 60 }, admin);
      expect(created.status, created.text).toBe(201);
      expect(created.body.once_within).toBe(60);
      const id = created.body.id;
      expect((await server.s.call('PUT', `${base}/${id}`, { name: 'Windowed again' }, admin)).status).toBe(204);
      expect((await server.s.call('GET', `${base}/${id}`, undefined, admin)).body).toMatchObject({ name: 'Windowed again', once_within: 60 });
      expect((await server.s.call('PUT', `${base}/${id}`, { once_within: null }, admin)).status).toBe(204);
      expect((await server.s.call('GET', `${base}/${id}`, undefined, admin)).body.once_within).toBeNull();
      for (const [bad, error] of [[0, 'once_within: must be at least 1 second'], [1.5, 'once_within: must be a whole number of seconds'], [86_401, 'once_within: at most a day']] as const) {
        const res = await server.s.call('POST', base, { name: `Bad ${bad}`, template_id: f.template.id, once_within: bad }, admin);
        expect(res.status, res.text).toBe(400);
        expect(res.body.error).toContain(error);
      }
    });

    it('identical extracted values inside the window start one task; later deliveries answer 202 with its id', async () => {
      const { integration, alias, templateId } = await hook(60, BRANCH);
      expect((await deliver(alias, push('refs/heads/main', 'd-1'))).status).toBe(204);
      const [first] = await tasksOf(templateId);
      // another delivery id in the body, the same extracted branch: the same start
      expect(await deliver(alias, push('refs/heads/main', 'd-2'))).toEqual({ status: 202, body: { task_id: first!.id } });
      expect(await deliver(alias, push('refs/heads/main', 'd-3'))).toEqual({ status: 202, body: { task_id: first!.id } });
      // another branch is another start
      expect((await deliver(alias, push('refs/heads/release', 'd-4'))).status).toBe(204);
      const tasks = await tasksOf(templateId);
      expect(tasks.map((t) => JSON.parse(t.environment).BRANCH)).toEqual(['refs/heads/main', 'refs/heads/release']);
      const deliveries = await listDeliveryRows(server.s.deps.db, integration.id);
      expect(deliveries.map((d) => [d.reason, d.task_id])).toEqual([
        ['matched', first!.id],
        [`merged: an identical delivery started task ${first!.id} less than 60 s ago`, first!.id],
        [`merged: an identical delivery started task ${first!.id} less than 60 s ago`, first!.id],
        ['matched', tasks[1]!.id],
      ]);
    });

    it('once the window has passed, an identical delivery starts a task again', async () => {
      const { alias, templateId } = await hook(60, BRANCH);
      expect((await deliver(alias, push('refs/heads/main', 'a'))).status).toBe(204);
      const [first] = await tasksOf(templateId);
      // the first task was queued 61 seconds ago
      await server.s.deps.db.updateTable('task').set({ created: new Date(Date.now() - 61_000).toISOString() }).where('id', '=', first!.id).execute();
      expect((await deliver(alias, push('refs/heads/main', 'b'))).status).toBe(204);
      const tasks = await tasksOf(templateId);
      expect(tasks).toHaveLength(2);
      expect(await deliver(alias, push('refs/heads/main', 'c'))).toEqual({ status: 202, body: { task_id: tasks[1]!.id } });
    });

    it('an integration that extracts nothing compares whole bodies', async () => {
      const { alias, templateId } = await hook(300);
      expect((await deliver(alias, push('refs/heads/main', 'x'))).status).toBe(204);
      const [first] = await tasksOf(templateId);
      expect(await deliver(alias, push('refs/heads/main', 'x'))).toEqual({ status: 202, body: { task_id: first!.id } });
      expect((await deliver(alias, push('refs/heads/main', 'y'))).status).toBe(204);
      expect(await tasksOf(templateId)).toHaveLength(2);
    });

    it('identical deliveries arriving together start exactly one task', async () => {
      const { alias, templateId } = await hook(60, BRANCH);
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => deliver(alias, push('refs/heads/storm', `s-${i}`))));
      const tasks = await tasksOf(templateId);
      expect(tasks).toHaveLength(1);
      expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 202).map((a) => a.body)).toEqual(Array.from({ length: 11 }, () => ({ task_id: tasks[0]!.id })));
    });

    it('without a window every delivery starts its own task, as before', async () => {
      const { alias, templateId } = await hook(null, BRANCH);
      for (const id of ['1', '2', '3']) expect((await deliver(alias, push('refs/heads/main', id))).status).toBe(204);
      expect(await tasksOf(templateId)).toHaveLength(3);
    });
  });
}
