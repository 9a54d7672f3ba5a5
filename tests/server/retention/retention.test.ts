import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS } from '../../support/dialects.ts';
import { startWithFixtureProject, type FixtureProject } from '../../support/fixture-server.ts';
import type { Auth, TestServer } from '../../support/harness.ts';
import { insertTemplate } from '../../support/fixtures.ts';
import { insertTask, insertUserWithToken } from '../../support/project-rows.ts';
import { now } from '../../../src/server/lib/time.ts';
import { buildBlocks } from '../../../src/server/engine/output/output-blocks.ts';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const LINE = 'x'.repeat(200);

for (const dialect of DIALECTS) {
  describe(`task retention (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let f: FixtureProject;
    const ids: Record<string, number> = {};

    async function addTask(name: string, templateId: number, ageDays: number, lines: number, status = 'success', projectId = f.project.id) {
      const task = await insertTask(s.deps.db, { projectId, templateId, status, created: daysAgo(ageDays) });
      await s.deps.db.updateTable('task').set({ start: daysAgo(ageDays), end: status === 'running' ? null : daysAgo(ageDays) }).where('id', '=', task.id).execute();
      for (let i = 0; i < lines; i += 1000) {
        const rows = Array.from({ length: Math.min(1000, lines - i) }, (_, j) => ({ task_id: task.id, time: now(), output: `${name} ${i + j} ${LINE}` }));
        await s.deps.db.insertInto('task_output').values(rows).execute();
      }
      await buildBlocks(s.deps.db, task.id);
      ids[name] = task.id;
    }
    const taskIds = async () => (await s.deps.db.selectFrom('task').select('id').orderBy('id').execute()).map((r) => r.id);
    const outputOf = async (name: string) => Number((await s.deps.db.selectFrom('task_output').select((eb) => eb.fn.countAll<number>().as('n')).where('task_id', '=', ids[name]!).executeTakeFirstOrThrow()).n);
    const pragma = async (name: string) => Number(Object.values((await sql.raw(`pragma ${name}`).execute(s.deps.db)).rows[0] as object)[0]);

    beforeAll(async () => {
      ({ s, admin, f } = await startWithFixtureProject(dialect, { env: { SEMAPHORE_TASK_RETENTION_DAYS: '90' } }));
    });
    afterAll(async () => { await s.close(); });

    it('keeps per-project settings; clients that omit them (Semaphore\'s) leave them alone; bad values are 400', async () => {
      const base = `/api/project/${f.project.id}`;
      expect((await s.call('PUT', base, { name: 'Fixture', task_retention_days: 30, task_retention_count: 3, output_retention_days: 2 }, admin)).status).toBe(204);
      expect((await s.call('PUT', base, { id: f.project.id, name: 'Renamed', alert: false }, admin)).status).toBe(204);
      expect((await s.call('GET', base, undefined, admin)).body).toMatchObject({ name: 'Renamed', task_retention_days: 30, task_retention_count: 3, output_retention_days: 2 });
      expect((await s.call('PUT', base, { name: 'Renamed', task_retention_days: -1 }, admin)).body).toEqual({ error: 'task_retention_days: must be 0 or greater' });
    });

    it('purges by age, by count per template and output by age, batch by batch, without holding up other requests', async () => {
      const other = await insertTemplate(s.deps.db, f.project.id, { name: 'Other' });
      const quietProject = await s.deps.db.insertInto('project').values({ name: 'Quiet', created: now(), alert: 0, alert_chat: null, max_parallel_tasks: 0, type: '' }).returning('id').executeTakeFirstOrThrow();
      const quietTemplate = await insertTemplate(s.deps.db, quietProject.id, { name: 'Quiet template' });
      await addTask('stillRunning', f.template.id, 60, 10, 'running');
      await addTask('old60', f.template.id, 60, 12_000);
      await addTask('old40', f.template.id, 40, 12_000);
      for (const age of [5.5, 4.5, 3.5, 2.5, 0.5]) await addTask(`recent${age}`, f.template.id, age, 1000);
      await addTask('otherTemplate', other.id, 10, 10);
      await addTask('quiet100', quietTemplate.id, 100, 10, 'error', quietProject.id);
      await addTask('quiet80', quietTemplate.id, 80, 10, 'error', quietProject.id);
      const sqlite = dialect === 'sqlite';
      const pagesBefore = sqlite ? await pragma('page_count') : 0;

      const user = await insertUserWithToken(s.deps.db);
      expect((await s.call('POST', '/api/retention/purge', undefined, user.auth)).status).toBe(403);
      const finished: string[] = [];
      const purge = s.call('POST', '/api/retention/purge', undefined, admin).then((r) => { finished.push('purge'); return r; });
      const listing = s.call('GET', '/api/projects', undefined, admin).then((r) => { finished.push('projects'); return r; });
      const [purged, projects] = await Promise.all([purge, listing]);
      expect(projects.status).toBe(200);
      expect(finished).toEqual(['projects', 'purge']);
      expect(purged.status, purged.text).toBe(200);
      expect(purged.body).toEqual({ tasks: 5, output_lines: 12_000 * 2 + 1000 * 2 + 10 + 1000 * 2 + 10 });

      expect(await taskIds()).toEqual([ids.stillRunning, ids['recent3.5'], ids['recent2.5'], ids['recent0.5'], ids.otherTemplate, ids.quiet80]);
      expect(await outputOf('stillRunning')).toBe(10);
      expect(await outputOf('recent3.5')).toBe(0);
      expect(await outputOf('recent2.5')).toBe(0);
      expect(await outputOf('recent0.5')).toBe(1000);
      const blocksOf = async (name: string) => (await s.deps.db.selectFrom('task_output_block').select('last_id').where('task_id', '=', ids[name]!).execute()).length;
      expect(await blocksOf('recent3.5')).toBe(0);
      expect(await blocksOf('recent0.5')).toBe(1);
      expect(await outputOf('otherTemplate')).toBe(0);
      expect(await outputOf('quiet80')).toBe(10);
      if (sqlite) {
        expect(await pragma('auto_vacuum')).toBe(2);
        expect(await pragma('freelist_count')).toBe(0);
        expect(await pragma('page_count')).toBeLessThan(pagesBefore * 0.5);
      }
      expect((await s.call('POST', '/api/retention/purge', undefined, admin)).body).toEqual({ tasks: 0, output_lines: 0 });
    });
  });
}
