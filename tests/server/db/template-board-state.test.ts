import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { openDatabase, migrateToLatest, type Db } from '../../../src/server/db/database.ts';
import { migrations } from '../../../src/server/db/migrations/index.ts';
import { isActive } from '../../../src/server/domain/tasks/task-status.ts';
import { DIALECTS, freshDatabase } from '../../support/dialects.ts';
import { insertProject, insertTemplate } from '../../support/fixtures.ts';
import { insertTask } from '../../support/project-rows.ts';

const BOARD_STATE = '2026_11_26_t_template_board_state';

/** Every template's board state as its tasks say it should be (the triggers' oracle). */
async function expectedStates(db: Db) {
  const templates = await db.selectFrom('template').select(['id', 'project_id', 'view_id', 'name']).orderBy('id').execute();
  const tasks = await db.selectFrom('task').select(['id', 'template_id', 'status']).orderBy('id').execute();
  return templates.map((t) => {
    const own = tasks.filter((task) => task.template_id === t.id);
    const last = own.at(-1);
    const lastSuccess = own.filter((task) => task.status === 'success').at(-1);
    return {
      template_id: t.id, project_id: t.project_id, view_id: t.view_id, name: t.name,
      last_task_id: last?.id ?? null, last_success_id: lastSuccess?.id ?? null,
      fail_streak: own.filter((task) => task.status === 'error' && task.id > (lastSuccess?.id ?? 0)).length,
      running: last && isActive(last.status) ? 1 : 0,
    };
  });
}

async function expectStatesRight(db: Db): Promise<void> {
  const states = await db.selectFrom('template_board_state').selectAll().orderBy('template_id').execute();
  expect(states.map((s) => ({ ...s, fail_streak: Number(s.fail_streak), running: Number(s.running) }))).toEqual(await expectedStates(db));
}

for (const dialect of DIALECTS) {
  describe(`template board state, kept by triggers (${dialect})`, () => {
    const tmp = mkdtempSync(join(tmpdir(), 'signalbox-board-state-'));
    const drops: (() => Promise<void>)[] = [];
    let db: Db;
    let projectId: number; let otherProjectId: number; let viewId: number;
    let deploy: number; let backup: number;

    async function open(): Promise<Db> {
      const fresh = await freshDatabase(dialect, tmp);
      const opened = openDatabase(fresh.settings);
      drops.push(async () => { await opened.destroy(); await fresh.drop(); });
      return opened;
    }
    const task = (templateId: number, status: string, project = projectId) => insertTask(db, { projectId: project, templateId, status });
    const setStatus = (id: number, status: string) => db.updateTable('task').set({ status }).where('id', '=', id).execute();

    beforeAll(async () => {
      db = await open();
      await migrateToLatest(db);
      projectId = (await insertProject(db, 'Alpha')).id;
      otherProjectId = (await insertProject(db, 'Beta')).id;
      viewId = (await db.insertInto('view').values({ project_id: projectId, title: 'Prod', position: 0, type: '', hidden: 0, sort_reverse: 0 }).returning('id').executeTakeFirstOrThrow()).id;
      deploy = (await insertTemplate(db, projectId, { name: 'Deploy', view_id: viewId })).id;
      backup = (await insertTemplate(db, projectId, { name: 'Backup' })).id;
    });
    afterAll(async () => {
      for (const drop of drops) await drop();
      rmSync(tmp, { recursive: true, force: true });
    }, 300_000);

    it('has a row for a new template, with no tasks', async () => {
      await expectStatesRight(db);
      expect(await db.selectFrom('template_board_state').select(['name', 'fail_streak']).where('template_id', '=', deploy).executeTakeFirst())
        .toEqual({ name: 'Deploy', fail_streak: 0 });
    });

    it('follows tasks as they are inserted and change status', async () => {
      const first = await task(deploy, 'waiting');
      await expectStatesRight(db);
      for (const status of ['starting', 'running', 'success']) { await setStatus(first.id, status); await expectStatesRight(db); }
      const failing = [await task(deploy, 'error'), await task(deploy, 'waiting')];
      await setStatus(failing[1]!.id, 'error');
      await task(backup, 'error');
      const running = await task(deploy, 'running');
      await expectStatesRight(db);
      expect(await db.selectFrom('template_board_state').select(['fail_streak', 'running']).where('template_id', '=', deploy).executeTakeFirst())
        .toEqual({ fail_streak: 2, running: 1 });
      await setStatus(running.id, 'success');
      await expectStatesRight(db);
    });

    it('follows deleted and moved tasks', async () => {
      const last = await db.selectFrom('task').select('id').where('template_id', '=', deploy).orderBy('id', 'desc').executeTakeFirstOrThrow();
      await db.deleteFrom('task').where('id', '=', last.id).execute(); // the last success: the streak is back
      await expectStatesRight(db);
      const moved = await task(deploy, 'error');
      await db.updateTable('task').set({ template_id: backup }).where('id', '=', moved.id).execute();
      await expectStatesRight(db);
      await db.updateTable('task').set({ template_id: deploy, status: 'success' }).where('id', '=', moved.id).execute();
      await expectStatesRight(db);
    });

    it('follows old tasks deleted, changed and written back under their old ids (retention, restores)', async () => {
      const oldest = await db.selectFrom('task').selectAll().where('template_id', '=', deploy).orderBy('id').executeTakeFirstOrThrow();
      await db.deleteFrom('task').where('id', '=', oldest.id).execute();
      await expectStatesRight(db);
      await db.insertInto('task').values({ ...oldest, template_id: backup, status: 'error' }).execute(); // older than backup's last task
      await expectStatesRight(db);
      await setStatus(oldest.id, 'success');
      await expectStatesRight(db);
      await db.updateTable('task').set({ template_id: deploy }).where('id', '=', oldest.id).execute();
      await expectStatesRight(db);
    });

    it.runIf(dialect === 'postgres')('counts both of two transactions writing tasks of one template at once', async () => {
      const ending = await task(deploy, 'running');
      let commitFirst!: () => void;
      let firstWrote!: () => void;
      const wrote = new Promise<void>((resolve) => { firstWrote = resolve; });
      const first = db.transaction().execute(async (tx) => {
        await tx.updateTable('task').set({ status: 'success' }).where('id', '=', ending.id).execute();
        firstWrote();
        await new Promise<void>((resolve) => { commitFirst = resolve; });
      });
      await wrote;
      // queued while the first is still open: its trigger waits for the state row
      const second = db.transaction().execute((tx) => insertTask(tx, { projectId, templateId: deploy, status: 'error' }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      commitFirst();
      await Promise.all([first, second]);
      await expectStatesRight(db);
      expect(await db.selectFrom('template_board_state').select(['last_success_id', 'fail_streak']).where('template_id', '=', deploy).executeTakeFirst())
        .toEqual({ last_success_id: ending.id, fail_streak: 1 });
    });

    it('follows a template renamed, moved to another view and project, and deleted', async () => {
      await db.updateTable('template').set({ name: 'Deploy prod' }).where('id', '=', deploy).execute();
      await db.updateTable('template').set({ view_id: viewId, project_id: otherProjectId }).where('id', '=', backup).execute();
      await expectStatesRight(db);
      await db.deleteFrom('view').where('id', '=', viewId).execute(); // its templates' view_id is set null
      await expectStatesRight(db);
      await db.deleteFrom('template').where('id', '=', backup).execute(); // and its tasks with it
      await expectStatesRight(db);
      await db.deleteFrom('project').where('id', '=', projectId).execute();
      await expectStatesRight(db);
      expect(await db.selectFrom('template_board_state').selectAll().execute()).toEqual([]);
    });

    it('is filled by the migration for the templates and tasks already there', async () => {
      const old = await open();
      const before = Object.keys(migrations).sort().filter((name) => name < BOARD_STATE).at(-1)!;
      const { error } = await new Migrator({ db: old, provider: { getMigrations: async () => migrations } }).migrateTo(before);
      expect(error).toBeUndefined();
      const project = (await insertProject(old, 'Old')).id;
      const templates = [];
      for (const name of ['never run', 'always fails', 'healthy', 'running']) templates.push((await insertTemplate(old, project, { name })).id);
      const statuses = [[], ['error', 'error', 'error'], ['error', 'success', 'error', 'stopped', 'success'], ['success', 'error', 'success', 'error', 'running']];
      for (const [i, list] of statuses.entries()) for (const status of list) await insertTask(old, { projectId: project, templateId: templates[i]!, status });
      expect(await migrateToLatest(old)).toContain(BOARD_STATE);
      await expectStatesRight(old);
      const rows = await old.selectFrom('template_board_state').select(['name', 'fail_streak', 'running']).orderBy('template_id').execute();
      expect(rows).toEqual([
        { name: 'never run', fail_streak: 0, running: 0 }, { name: 'always fails', fail_streak: 3, running: 0 },
        { name: 'healthy', fail_streak: 0, running: 0 }, { name: 'running', fail_streak: 1, running: 1 },
      ]);
    });
  });
}
