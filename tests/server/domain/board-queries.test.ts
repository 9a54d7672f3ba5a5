import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, migrateToLatest, type Db } from '../../../src/server/db/database.ts';
import { byFailuresFirst, loadBoard, MAX_TILES, type BoardData, type BoardScope, type BoardTile } from '../../../src/server/domain/board/board.queries.ts';
import { now } from '../../../src/server/lib/time.ts';
import { DIALECTS, freshDatabase } from '../../support/dialects.ts';
import { insertProject, insertTemplate } from '../../support/fixtures.ts';

/**
 * The board as it was drawn before template_board_state (grouping every task of the board's
 * projects on each request): the oracle the state-based board must agree with.
 */
async function boardByGrouping(db: Db, scope: BoardScope): Promise<BoardData> {
  const projects = await db.selectFrom('project').select(['id', 'name']).where('id', 'in', [...scope.projectIds]).orderBy('name').orderBy('id').execute();
  const projectIds = projects.map((p) => p.id);
  const groups = scope.by === 'view'
    ? (await db.selectFrom('view').select(['id', 'title as name', 'project_id']).where('project_id', 'in', projectIds).execute())
    : (await db.selectFrom('template').select(['id', 'name', 'project_id']).where('project_id', 'in', projectIds)
      .$if(scope.viewId !== null, (q) => q.where('view_id', '=', scope.viewId)).execute());
  const key = scope.by === 'view' ? 'template.view_id' as const : 'task.template_id' as const;
  const tasksOfBoard = () => {
    let query = db.selectFrom('task').innerJoin('template', 'template.id', 'task.template_id').where('template.project_id', 'in', projectIds);
    if (scope.by === 'view') query = query.where('template.view_id', 'is not', null);
    else if (scope.viewId !== null) query = query.where('template.view_id', '=', scope.viewId);
    return query;
  };
  const lastIds = () => tasksOfBoard().select([`${key} as key`, (eb) => eb.fn.max('task.id').as('task_id')]).groupBy(key);
  const lastSuccessIds = () => lastIds().where('task.status', '=', 'success');
  const latest = await lastIds().execute();
  const succeeded = await lastSuccessIds().execute();
  const streaks = await tasksOfBoard().leftJoin(lastSuccessIds().as('ok'), 'ok.key', key)
    .select([`${key} as key`, (eb) => eb.fn.countAll().as('n')])
    .where('task.status', '=', 'error')
    .where((eb) => eb.or([eb('ok.task_id', 'is', null), eb('task.id', '>', eb.ref('ok.task_id'))]))
    .groupBy(key).execute();
  const tasks = await db.selectFrom('task').leftJoin('user', 'user.id', 'task.user_id')
    .select(['task.id', 'task.status', 'task.created', 'task.start', 'task.end', 'task.integration_id', 'task.schedule_id', 'task.build_task_id', 'user.name as user_name', 'user.username']).execute();
  const waiting = await tasksOfBoard().where('task.status', '=', 'waiting').select([`${key} as key`, (eb) => eb.fn.countAll().as('n')]).groupBy(key).execute();
  const queuedByGroup = new Map(waiting.map((r) => [Number(r.key), Number(r.n)]));
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const lastSuccess = new Map(succeeded.map((r) => [Number(r.key), Number(r.task_id)]));
  const latestByGroup = new Map(latest.map((r) => [Number(r.key), Number(r.task_id)]));
  const streakByGroup = new Map(streaks.map((r) => [Number(r.key), Number(r.n)]));
  const projectNames = new Map(projects.map((p) => [p.id, p.name]));
  const tiles = groups.map((g): BoardTile => {
    const last = taskById.get(latestByGroup.get(g.id) ?? 0);
    const success = taskById.get(lastSuccess.get(g.id) ?? 0);
    return {
      kind: scope.by, id: g.id, name: g.name, project_id: g.project_id, project_name: projectNames.get(g.project_id) ?? '',
      task: last ? {
        id: last.id, status: last.status, user_name: last.user_name || last.username || '', created: last.created, start: last.start, end: last.end,
        integration_id: last.integration_id, schedule_id: last.schedule_id, build_task_id: last.build_task_id,
      } : null,
      estimate_ms: success && success.start && success.end ? Date.parse(success.end) - Date.parse(success.start) : null,
      fail_streak: streakByGroup.get(g.id) ?? 0,
      queued: queuedByGroup.get(g.id) ?? 0,
    };
  });
  return { by: scope.by, view_id: scope.viewId, projects, tiles: tiles.sort(byFailuresFirst).slice(0, MAX_TILES) };
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STATUSES = ['success', 'success', 'success', 'success', 'success', 'error', 'error', 'stopped', 'running', 'waiting', 'starting', 'canceled'];
// names whose byte order and locale order differ: case, numbers, accents
const NAMES = ['Deploy', 'deploy', 'backup', 'Backup', 'élan', 'Zeta', 'zeta', 'audit'];

for (const dialect of DIALECTS) {
  describe(`wall board from the template states (${dialect})`, () => {
    const tmp = mkdtempSync(join(tmpdir(), 'signalbox-board-'));
    let drop: () => Promise<void>;
    let db: Db;
    let big: number; let small: number; let tiny: number; let many: number[]; let views: number[];
    const pick = random(34);
    const oneOf = <T>(list: readonly T[]): T => list[Math.floor(pick() * list.length)]!;

    async function insertTasks(templates: Array<{ id: number; project_id: number }>, count: number, users: number[]) {
      const base = Date.parse('2026-01-01T00:00:00Z');
      for (let i = 0; i < count; i += 500) {
        const rows = Array.from({ length: Math.min(500, count - i) }, (_, k) => {
          const template = oneOf(templates);
          const start = new Date(base + (i + k) * 60_000);
          return {
            project_id: template.project_id, template_id: template.id, status: oneOf(STATUSES), user_id: oneOf([null, ...users]),
            playbook: '', environment: '{}', message: '', commit_message: '', params: '{}', created: now(),
            start: start.toISOString(), end: new Date(start.getTime() + Math.floor(pick() * 90_000)).toISOString(),
          };
        });
        await db.insertInto('task').values(rows).execute();
      }
    }

    beforeAll(async () => {
      const fresh = await freshDatabase(dialect, tmp);
      drop = fresh.drop;
      db = openDatabase(fresh.settings);
      await migrateToLatest(db);
      big = (await insertProject(db, 'beta')).id;
      small = (await insertProject(db, 'Alpha')).id;
      tiny = (await insertProject(db, 'alpha 10')).id;
      views = [];
      for (const [projectId, title] of [[big, 'Prod'], [big, 'Staging'], [big, 'Empty'], [small, 'Nightly']] as const) {
        views.push((await db.insertInto('view').values({ project_id: projectId, title, position: 0, type: '', hidden: 0, sort_reverse: 0 }).returning('id').executeTakeFirstOrThrow()).id);
      }
      const templates = [];
      // more templates in one project than tiles on the board, most of them healthy: the cut falls among ties
      // and enough small projects for a board that reads all its templates' ranks at once
      many = [];
      for (let i = 0; i < 12; i++) many.push((await insertProject(db, `Team ${i}`)).id);
      for (const [projectId, count] of [[big, MAX_TILES + 150], [small, 60], [tiny, 4], ...many.map((id) => [id, 3] as const)] as const) {
        for (let i = 0; i < count; i++) {
          const viewId = projectId === big ? oneOf([null, views[0]!, views[1]!]) : projectId === small ? oneOf([null, views[3]!]) : null;
          templates.push(await insertTemplate(db, projectId, { name: `${oneOf(NAMES)} ${Math.floor(pick() * 40)}`, view_id: viewId }));
        }
      }
      const users = [];
      for (const name of ['Ann', '']) {
        const username = `u-${name || 'nameless'}`;
        users.push((await db.insertInto('user').values({ created: now(), username, name, email: `${username}@example.test`, password: 'x', admin: 0, external: 0, alert: 0 })
          .returning('id').executeTakeFirstOrThrow()).id);
      }
      await insertTasks(templates, 4000, users);
      // a few long streaks, and templates whose every task failed
      await insertTasks(templates.slice(0, 12), 300, users);
    }, 300_000);
    afterAll(async () => {
      await db.destroy();
      await drop();
      rmSync(tmp, { recursive: true, force: true });
    }, 300_000);

    const scopes = (): BoardScope[] => [
      { projectIds: [big, small, tiny], by: 'template', viewId: null },
      { projectIds: [big, small, tiny, ...many], by: 'template', viewId: null },
      { projectIds: [small, ...many], by: 'template', viewId: null },
      { projectIds: [big], by: 'template', viewId: null },
      { projectIds: [small, tiny], by: 'template', viewId: null },
      { projectIds: [big], by: 'template', viewId: views[0]! },
      { projectIds: [big, small], by: 'template', viewId: views[2]! },
      { projectIds: [big, small, tiny], by: 'view', viewId: null },
      { projectIds: [tiny], by: 'view', viewId: null },
    ];

    it('draws what grouping every task drew, cut to MAX_TILES', async () => {
      for (const scope of scopes()) expect(await loadBoard(db, scope), JSON.stringify(scope)).toEqual(await boardByGrouping(db, scope));
      const full = await loadBoard(db, scopes()[0]!);
      expect(full.tiles).toHaveLength(MAX_TILES);
      expect(new Set(full.tiles.map((t) => t.fail_streak)).size).toBeGreaterThan(3);
    });

    it('still does after tasks change, move and go, and templates are renamed', async () => {
      const tasks = await db.selectFrom('task').select(['id', 'template_id']).orderBy('id', 'desc').limit(400).execute();
      for (const [i, task] of tasks.entries()) {
        if (i % 4 === 0) await db.updateTable('task').set({ status: oneOf(STATUSES) }).where('id', '=', task.id).execute();
        else if (i % 4 === 1) await db.deleteFrom('task').where('id', '=', task.id).execute();
      }
      const templates = await db.selectFrom('template').select('id').where('project_id', '=', big).limit(30).execute();
      for (const t of templates) await db.updateTable('template').set({ name: `${oneOf(NAMES)} ${Math.floor(pick() * 40)}` }).where('id', '=', t.id).execute();
      for (const scope of scopes()) expect(await loadBoard(db, scope), JSON.stringify(scope)).toEqual(await boardByGrouping(db, scope));
    });

    it.runIf(dialect === 'postgres')('reads a project\'s top tiles in the order of the state index, without sorting', async () => {
      const plan = await db.transaction().execute(async (tx) => {
        await sql`analyze template_board_state`.execute(tx);
        // a few hundred rows fit a page or two, where any plan will do: ask what the index can serve
        await sql`set local enable_seqscan = off`.execute(tx);
        await sql`set local enable_bitmapscan = off`.execute(tx);
        return (await sql<{ 'QUERY PLAN': string }>`explain select * from template_board_state where project_id = ${big}
          order by fail_streak desc, running desc, name, template_id limit ${MAX_TILES}`.execute(tx)).rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain('template_board_state_tiles');
      expect(plan).not.toMatch(/\bSort\b/);
    });
  });
}
