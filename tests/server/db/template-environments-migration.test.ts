import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { openDatabase, migrateToLatest, type Db } from '../../../src/server/db/database.ts';
import { migrations } from '../../../src/server/db/migrations/index.ts';
import { DIALECTS, freshDatabase } from '../../support/dialects.ts';
import { insertProjectWithTemplate, insertTemplate } from '../../support/fixtures.ts';

const BEFORE = '2026_11_26_sec_task_trusted_values';

for (const dialect of DIALECTS) {
  describe(`upgrading to several variable groups and unique template names (${dialect})`, () => {
    let tmp: string;
    let drop: () => Promise<void>;
    let db: Db;
    let fx: Awaited<ReturnType<typeof insertProjectWithTemplate>>;
    let twin = 0;

    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'signalbox-groups-migration-'));
      const fresh = await freshDatabase(dialect, tmp);
      drop = fresh.drop;
      db = openDatabase(fresh.settings);
      const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(BEFORE);
      if (error) throw error;
      const owner = await db.insertInto('user').values({
        created: new Date().toISOString(), username: 'owner', name: 'Owner', email: 'owner@example.test', password: 'x', admin: 0, external: 0, alert: 0,
      }).returning('id').executeTakeFirstOrThrow();
      fx = await insertProjectWithTemplate(db, { ownerId: owner.id, templateName: 'Twin' });
      // a duplicate name from before names had to be unique, with no variable group
      twin = (await insertTemplate(db, fx.project.id, { name: 'Twin', repository_id: fx.repository.id })).id;
      await migrateToLatest(db);
    });
    afterAll(async () => {
      await db.destroy();
      await drop();
      rmSync(tmp, { recursive: true, force: true });
    });

    it('each template\'s single group becomes its list; a template without one gets none', async () => {
      const rows = await db.selectFrom('template_environment').selectAll().orderBy('template_id').execute();
      expect(rows).toEqual([{ template_id: fx.template.id, environment_id: fx.environment.id, position: 0 }]);
    });

    it('keeps duplicate template names (no unique index) and still takes another one', async () => {
      const names = await db.selectFrom('template').select(['id', 'name']).where('project_id', '=', fx.project.id).orderBy('id').execute();
      expect(names).toEqual([{ id: fx.template.id, name: 'Twin' }, { id: twin, name: 'Twin' }]);
      await insertTemplate(db, fx.project.id, { name: 'Twin', repository_id: fx.repository.id });
      expect(await db.selectFrom('template').select('id').where('name', '=', 'Twin').execute()).toHaveLength(3);
    });
  });
}
