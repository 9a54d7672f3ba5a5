// Issue #34 item 3: task lists page by cursor (`before_id` / `after_id`, `X-Has-Next` /
// `X-Has-Prev`) with filters by status, starter, template and date range. Walking every page
// in both directions gives each task exactly once; each filter answers what a plain scan would;
// and every page is read along an index in id order (no sort of the project's tasks), checked in
// the database's own query plan on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { DIALECTS } from '../../support/dialects.ts';
import { startTestServer, ADMIN, type Auth, type TestServer } from '../../support/harness.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { taskPageIdQuery, taskPageQuerySchema } from '../../../src/server/domain/tasks/task-cursor.ts';
import { isPostgres } from '../../../src/server/db/dialect.ts';

const STATUSES = ['success', 'error', 'stopped', 'success', 'waiting'] as const;
const DAY = 86_400_000;
const START = Date.UTC(2026, 0, 1);

interface Seeded { id: number; status: string; user_id: number | null; template_id: number; created: string }

for (const dialect of DIALECTS) {
  describe(`task cursor pages (${dialect})`, () => {
    let s: TestServer;
    let admin: Auth;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let secondTemplate = 0;
    const seeded: Seeded[] = [];

    beforeAll(async () => {
      s = await startTestServer(dialect);
      admin = await s.login(ADMIN.login, ADMIN.password);
      fx = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Deploy web' });
      const other = await insertProjectWithTemplate(s.deps.db, { ownerId: 1, templateName: 'Elsewhere' });
      secondTemplate = (await s.deps.db.insertInto('template').values({ ...(await s.deps.db.selectFrom('template').selectAll().where('id', '=', fx.template.id).executeTakeFirstOrThrow()), id: undefined, name: 'Second' } as never)
        .returning('id').executeTakeFirstOrThrow()).id;
      for (let i = 0; i < 230; i++) {
        const values = {
          project_id: fx.project.id, template_id: i % 3 === 0 ? secondTemplate : fx.template.id, status: STATUSES[i % STATUSES.length]!,
          user_id: i % 4 === 0 ? null : 1, playbook: '', environment: '{}', message: `run ${i}`, commit_message: '', params: '{}',
          created: new Date(START + Math.floor(i / 10) * DAY + i * 1000).toISOString(),
        };
        const row = await s.deps.db.insertInto('task').values(values).returning('id').executeTakeFirstOrThrow();
        seeded.push({ id: row.id, status: values.status, user_id: values.user_id, template_id: values.template_id, created: values.created });
        // another project's tasks sit between them and must never show
        if (i % 7 === 0) {
          await s.deps.db.insertInto('task').values({ ...values, project_id: other.project.id, template_id: other.template.id }).execute();
        }
      }
    });
    afterAll(async () => { await s.close(); });

    const base = () => `/api/project/${fx.project.id}/tasks`;
    async function get(query: string) {
      const res = await s.call('GET', `${base()}?${query}`, undefined, admin);
      expect(res.status, res.text).toBe(200);
      return { ids: (res.body as { id: number }[]).map((t) => t.id), next: res.headers.get('x-has-next'), prev: res.headers.get('x-has-prev') };
    }
    const newestFirst = (rows: Seeded[]) => rows.map((r) => r.id).sort((a, b) => b - a);

    /** Every page from the newest to the oldest by before_id, then back by after_id. */
    async function walk(filter: string, limit: number): Promise<{ down: number[]; up: number[] }> {
      const down: number[] = [];
      let page = await get(`limit=${limit}&before_id=0${filter}`);
      expect(page.prev).toBe('false');
      for (;;) {
        down.push(...page.ids);
        if (page.next === 'false') break;
        page = await get(`limit=${limit}&before_id=${page.ids.at(-1)}${filter}`);
        expect(page.prev).toBe('true');
      }
      const up: number[] = [];
      page = await get(`limit=${limit}&after_id=0${filter}`);
      expect(page.next).toBe('false');
      for (;;) {
        up.unshift(...page.ids);
        if (page.prev === 'false') break;
        page = await get(`limit=${limit}&after_id=${page.ids[0]}${filter}`);
        expect(page.next).toBe('true');
      }
      return { down, up };
    }

    it('walks every task once, newest first, in both directions', async () => {
      const { down, up } = await walk('', 40);
      expect(down).toEqual(newestFirst(seeded));
      expect(up).toEqual(down);
      // the oldest page is full, not the remainder
      expect((await get('limit=40&after_id=0')).ids).toEqual(newestFirst(seeded).slice(-40));
    });

    it('filters by status, several statuses, starter, template and date range', async () => {
      const cases: [string, Seeded[]][] = [
        ['&status=error', seeded.filter((r) => r.status === 'error')],
        ['&status=error,stopped', seeded.filter((r) => r.status === 'error' || r.status === 'stopped')],
        ['&user_id=1', seeded.filter((r) => r.user_id === 1)],
        [`&template_id=${secondTemplate}`, seeded.filter((r) => r.template_id === secondTemplate)],
        ['&from=2026-01-05T00:00:00Z&to=2026-01-09T00:00:00Z', seeded.filter((r) => r.created >= '2026-01-05T00:00:00' && r.created < '2026-01-09T00:00:00')],
        ['&status=success&user_id=1&from=2026-01-10T00:00:00Z', seeded.filter((r) => r.status === 'success' && r.user_id === 1 && r.created >= '2026-01-10')],
        ['&from=2030-01-01T00:00:00Z', []],
      ];
      for (const [filter, expected] of cases) {
        const { down, up } = await walk(filter, 17);
        expect(down, filter).toEqual(newestFirst(expected));
        expect(up, filter).toEqual(down);
      }
    });

    it('pages a template\'s tasks by cursor too', async () => {
      const res = await s.call('GET', `/api/project/${fx.project.id}/templates/${secondTemplate}/tasks?limit=5&before_id=${seeded.at(-1)!.id + 1}`, undefined, admin);
      expect(res.status).toBe(200);
      expect(res.body.map((t: { id: number }) => t.id)).toEqual(newestFirst(seeded.filter((r) => r.template_id === secondTemplate)).slice(0, 5));
      expect(res.headers.get('x-has-next')).toBe('true');
    });

    it('refuses a bad cursor or filter with a 400 naming it', async () => {
      for (const [query, word] of [['status=bogus', 'status'], ['before_id=1&after_id=2', 'before_id'], ['from=yesterday', 'from'], ['before_id=-1', 'before_id'], ['limit=0&status=error', 'limit'], ['user_id=__proto__', 'user_id']]) {
        const res = await s.call('GET', `${base()}?${query}`, undefined, admin);
        expect(res.status, query).toBe(400);
        expect(res.body.error, query).toContain(word);
      }
    });

    it('reads every page along an index in id order: no sort of the project\'s tasks, no table scan', async () => {
      const bounds = { min: null, max: null };
      const queries: [string, string][] = [['', 'task_project_id'], ['status=error', 'task_project_status_id'], ['user_id=1', 'task_project_user_id'],
        [`template_id=${secondTemplate}`, 'task_project_template_id'], ['before_id=100', 'task_project_id'], ['after_id=100', 'task_project_id']];
      for (const [raw, index] of queries) {
        const query = taskPageQuerySchema.parse(Object.fromEntries(new URLSearchParams(raw)));
        for (const newerFirst of [true, false]) {
          const compiled = taskPageIdQuery(s.deps.db, { projectId: fx.project.id }, query, bounds, 21, newerFirst).compile();
          const plan = await planOf(compiled.sql, compiled.parameters);
          expect(plan, `${raw} ${newerFirst}: ${plan}`).not.toMatch(/TEMP B-TREE|Sort|Seq Scan|SCAN task(?! USING)/);
          expect(plan, raw).toContain(`INDEX ${index} `.replace('INDEX', isPostgres(s.deps.db) ? 'using' : 'INDEX'));
        }
      }
    });

    async function planOf(text: string, parameters: readonly unknown[]): Promise<string> {
      if (!isPostgres(s.deps.db)) {
        const rows = await s.deps.db.executeQuery(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
        return (rows.rows as { detail: string }[]).map((r) => r.detail).join('\n');
      }
      // a small table is cheaper to scan: forbid that, so the plan shows which index can serve the page
      return s.deps.db.transaction().execute(async (tx) => {
        await tx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        await tx.executeQuery(CompiledQuery.raw('set local enable_bitmapscan = off'));
        const rows = await tx.executeQuery(CompiledQuery.raw(`explain ${text}`, [...parameters]));
        return (rows.rows as Record<string, string>[]).map((r) => r['QUERY PLAN']).join('\n');
      });
    }
  });
}
