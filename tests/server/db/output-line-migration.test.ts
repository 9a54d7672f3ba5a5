import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { openDatabase, migrateToLatest, type Db } from '../../../src/server/db/database.ts';
import { migrations } from '../../../src/server/db/migrations/index.ts';
import { DIALECTS, freshDatabase } from '../../support/dialects.ts';
import { insertProjectWithTemplate } from '../../support/fixtures.ts';
import { insertOutputLines } from '../../../src/server/engine/output/insert-output.ts';
import { searchTaskOutput } from '../../../src/server/domain/tasks/task-output-search.ts';

const BEFORE = '2026_11_23_scale_task_secret';

for (const dialect of DIALECTS) {
  describe(`task_output line numbers on an upgraded database (${dialect})`, () => {
    let tmp: string;
    let drop: () => Promise<void>;
    let db: Db;
    const tasks: number[] = [];

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'signalbox-line-migration-'));
      const fresh = await freshDatabase(dialect, tmp);
      drop = fresh.drop;
      db = openDatabase(fresh.settings);
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(BEFORE);
      if (error) throw error;
      const owner = await db.insertInto('user').values({
        created: new Date().toISOString(), username: 'owner', name: 'Owner', email: 'owner@example.test', password: 'x', admin: 0, external: 0, alert: 0,
      }).returning('id').executeTakeFirstOrThrow();
      const fx = await insertProjectWithTemplate(db, { ownerId: owner.id });
      for (let i = 0; i < 2; i++) {
        tasks.push((await db.insertInto('task').values({
          project_id: fx.project.id, template_id: fx.template.id, status: 'success', user_id: owner.id, playbook: '', environment: '{}',
          message: '', commit_message: '', params: '{}', created: new Date().toISOString(),
        }).returning('id').executeTakeFirstOrThrow()).id);
      }
      // rows as the old schema stored them: no line column, two tasks interleaved
      const time = '2026-11-23T10:00:00.000Z';
      for (let i = 1; i <= 20; i++) {
        for (const task of tasks) {
          await db.insertInto('task_output').values({ task_id: task, time, output: `old ${task === tasks[0] ? 'first' : 'second'} ${i}` } as never).execute();
        }
      }
      // a long old log: the upgrade also writes its search blocks
      tasks.push((await db.insertInto('task').values({
        project_id: fx.project.id, template_id: fx.template.id, status: 'success', user_id: owner.id, playbook: '', environment: '{}',
        message: '', commit_message: '', params: '{}', created: new Date().toISOString(),
      }).returning('id').executeTakeFirstOrThrow()).id);
      await db.insertInto('task_output').values(Array.from({ length: 1500 }, (_, i) => ({ task_id: tasks[2]!, time, output: `Old Third ${i + 1}.` })) as never).execute();
      await migrateToLatest(db);
    });

    it('writes the search blocks of the logs already stored, and finds lines in and after them', async () => {
      const blocks = await db.selectFrom('task_output_block').select(['task_id', 'text']).execute();
      expect(blocks.map((b) => b.task_id)).toEqual([tasks[2]]);
      expect(blocks[0]!.text.split('\n')).toHaveLength(1000);
      expect(blocks[0]!.text.startsWith('old third 1.\nold third 2.\n')).toBe(true);
      for (const line of [999, 1000, 1001, 1500]) {
        const found = await searchTaskOutput(db, tasks[2]!, `OLD THIRD ${line}.`, 10);
        expect(found.matches.map((m) => m.line)).toEqual([line]);
      }
    });
    afterAll(async () => {
      await db?.destroy();
      await drop?.();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('numbers the rows already stored, per task, in log order', async () => {
      const rows = await db.selectFrom('task_output').select(['task_id', 'line', 'output']).orderBy('id').execute();
      for (const task of tasks.slice(0, 2)) {
        expect(rows.filter((r) => r.task_id === task).map((r) => r.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      }
      const found = await searchTaskOutput(db, tasks[1]!, 'SECOND 1', 100);
      expect(found.matches.map((m) => [m.line, m.output])).toEqual([[1, 'old second 1'], ...[10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((n) => [n, `old second ${n}`])]);
    });

    it('continues the numbering when a task writes after the upgrade', async () => {
      await insertOutputLines(db, tasks[0]!, [{ time: 'later', output: 'new first 21' }, { time: 'later', output: 'new first 22' }]);
      const found = await searchTaskOutput(db, tasks[0]!, 'new first', 100);
      expect(found.matches.map((m) => m.line)).toEqual([21, 22]);
    });
  });
}
