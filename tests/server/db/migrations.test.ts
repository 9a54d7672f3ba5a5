import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { openDatabase, migrateToLatest, type Db, type DbSettings } from '../../../src/server/db/database.ts';
import { isPostgres } from '../../../src/server/db/dialect.ts';
import { migrations } from '../../../src/server/db/migrations/index.ts';
import { copiedDatabase, DIALECTS, freshDatabase, type DialectName } from '../../support/dialects.ts';

const MIGRATIONS_DIR = new URL('../../../src/server/db/migrations/', import.meta.url);
const NAMES = Object.keys(migrations).sort();

/** Every module a migration file imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8');
  const statics = text.matchAll(/^\s*(?:import|export)\b[^;'"(]*?(?:\bfrom\s*|import\s*)['"]([^'"]+)['"]/gm);
  const dynamics = text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]/g);
  return [...statics, ...dynamics].map((m) => m[1]!);
}

describe('migrations import nothing from live code', () => {
  it('imports only kysely and the migrations\' own helpers', () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(NAMES.length);
    const foreign = files.flatMap((file) => importsOf(file)
      .filter((target) => !/^kysely(\/migration)?$/.test(target) && !/^\.\/[^/]+\.ts$/.test(target))
      .map((target) => `${file} -> ${target}`));
    expect(foreign).toEqual([]);
  });
});

/**
 * The migrations each landed release shipped, oldest first. Branches merged side by side add
 * migrations whose names may sort before one of these; a database made by any release must still
 * upgrade.
 */
const STOP_36 = [
  '2026_11_22_00_foundation', '2026_11_22_01_project_resources', '2026_11_22_02_tasks',
  '2026_11_22_resources_b_template_fields', '2026_11_22_engine_workers', '2026_11_22_console2_task_list_index',
  '2026_11_23_tfalerts_state_backend', '2026_11_23_rel_task_process_group', '2026_11_23_compat_task_summary',
  '2026_11_23_auth_sign_in', '2026_11_23_auth_user_can_create_project', '2026_11_23_runners',
  '2026_11_23_scale_task_secret', '2026_11_23_search_output_line', '2026_11_23_search_output_text_blocks',
  '2026_11_26_integration_delivery_index', '2026_11_26_p30_host_configs', '2026_11_26_sec_auth_external_identity',
  '2026_11_26_sec_task_trusted_values', '2026_11_26_template_environments',
];
const STOP_37 = [
  ...STOP_36,
  '2026_11_26_p31_workflows', '2026_11_26_p32_audit', '2026_11_26_tokens_secret_storages',
  '2026_11_26_x_schedule_timezone', '2026_11_26_x_task_filter_indexes', '2026_11_26_x_template_disabled',
  '2026_11_26_zz_p30_project_invite', '2026_11_26_zz_p30_runner_default', '2026_11_26_zz_p30_template_ssh_keys',
];
const STOP_38 = [
  ...STOP_37,
  '2026_11_26_r_event_audit_link', '2026_11_26_qb_board_token', '2026_11_26_qn_alert_channels_event_webhooks',
];
const STOP_39 = [...STOP_38, '2026_11_26_s_audit_inbox', '2026_11_26_t_template_board_state'];
const STOP_42 = [...STOP_39, '2026_11_27_a_audit_inbox_events'];
const RELEASES: Record<string, string[]> = {
  'stop 36': STOP_36, 'stop 37': STOP_37, 'stop 38': STOP_38, 'stop 39': STOP_39, 'stop 42': STOP_42,
};

/** Tables in the order their rows can be written (each names only tables before it). */
const SEEDED = ['user', 'project', 'access_key', 'repository', 'inventory', 'environment', 'view', 'template', 'task'];
const LOG_LINES = 1200;
const LINE_NUMBERS = '2026_11_23_search_output_line';
const SEARCH_BLOCKS = '2026_11_23_search_output_text_blocks';

/** The table a not-null `*_id` column points at, as the schema names them. */
function referencedTable(column: string): string {
  const stem = column.replace(/_id$/, '');
  return stem.endsWith('_key') ? 'access_key' : stem;
}

/**
 * One row in every seeded table the schema has so far, plus a long log: its not-null columns
 * without a default get a plain value (an id for a `*_id`, 0 for a number, '' for text).
 * @returns the id of each row written, by table
 */
async function seed(db: Db): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const tables = new Map((await db.introspection.getTables()).map((t) => [t.name, t]));
  for (const name of SEEDED) {
    const table = tables.get(name);
    if (!table) continue;
    const row: Record<string, unknown> = {};
    for (const column of table.columns) {
      if (column.isNullable || column.hasDefaultValue || column.isAutoIncrementing || column.name === 'id') continue;
      if (column.name.endsWith('_id')) row[column.name] = ids.get(referencedTable(column.name));
      else row[column.name] = /int|serial/i.test(column.dataType) ? 0 : column.name === 'username' || column.name === 'email' ? `seed-${name}` : '';
    }
    const written = await (db as any).insertInto(name).values(row).returning('id').executeTakeFirstOrThrow();
    ids.set(name, written.id);
  }
  const task = ids.get('task');
  if (task !== undefined) {
    const lines = Array.from({ length: LOG_LINES }, (_, i) => ({ task_id: task, time: '', output: `Seed Line ${i + 1}` }));
    await (db as any).insertInto('task_output').values(lines).execute();
  }
  return ids;
}

/** Tables, columns and indexes, as the database reports them. */
async function schemaOf(db: Db): Promise<unknown> {
  const tables = (await db.introspection.getTables()).map((t) => ({
    name: t.name,
    columns: t.columns.map((c) => [c.name, c.dataType, c.isNullable, c.hasDefaultValue, c.isAutoIncrementing]),
  })).sort((a, b) => a.name.localeCompare(b.name));
  const indexes = isPostgres(db)
    ? (await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and tablename not like 'kysely_%'`.execute(db)).rows
    : (await sql<{ name: string; def: string }>`select name, sql as def from sqlite_master where type = 'index' and tbl_name not like 'kysely_%'`.execute(db)).rows;
  return { tables, indexes: indexes.sort((a, b) => a.name.localeCompare(b.name)) };
}

const DROPS_AT_ONCE = 8;

for (const dialect of DIALECTS) {
  describe(`every migration on ${dialect}`, () => {
    const tmp = mkdtempSync(join(tmpdir(), 'signalbox-migrations-'));
    const drops: (() => Promise<void>)[] = [];
    let latest: unknown;

    async function open(name: DialectName): Promise<Db> {
      const fresh = await freshDatabase(name, tmp);
      const db = openDatabase(fresh.settings);
      drops.push(async () => { await db.destroy(); await fresh.drop(); });
      return db;
    }

    /**
     * One database taken up the migrations a step at a time (the tests below run in order); a
     * test at a step gets a copy of it there, instead of migrating a database of its own from
     * empty to that step: the migrations run once each on the way up, not once per later step.
     */
    let ladder: { settings: DbSettings; at?: string } | undefined;
    async function openAt(step: string): Promise<{ db: Db; error: unknown }> {
      if (!ladder) {
        const fresh = await freshDatabase(dialect, tmp);
        drops.push(fresh.drop);
        ladder = { settings: fresh.settings };
      }
      let error: unknown;
      if (ladder.at !== step) {
        // closed before it is copied: SQLite's WAL is then in the file, and PostgreSQL copies
        // only a database nobody is connected to
        const db = openDatabase(ladder.settings);
        try {
          ({ error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(step));
        } finally {
          await db.destroy();
        }
        ladder.at = error === undefined ? step : undefined;
      }
      const copy = await copiedDatabase(ladder.settings, tmp);
      const db = openDatabase(copy.settings);
      drops.push(async () => { await db.destroy(); await copy.drop(); });
      return { db, error };
    }

    beforeAll(async () => {
      const db = await open(dialect);
      await migrateToLatest(db);
      latest = await schemaOf(db);
    });
    // One database per step: dropping dozens of PostgreSQL databases takes minutes on a busy
    // machine, one by one, since each drop waits for a checkpoint of its own. Drops made at the
    // same time share a checkpoint; a few at a time keeps to a few connections.
    afterAll(async () => {
      for (let i = 0; i < drops.length; i += DROPS_AT_ONCE) await Promise.all(drops.slice(i, i + DROPS_AT_ONCE).map((drop) => drop()));
      rmSync(tmp, { recursive: true, force: true });
    }, 900_000);

    it('builds the schema from an empty database, takes it down to the first step and up again', async () => {
      const db = await open(dialect);
      expect(await migrateToLatest(db)).toEqual(NAMES);
      expect(await schemaOf(db)).toEqual(latest);
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const { error } = await migrator.migrateTo(NAMES[0]!);
      expect(error).toBeUndefined();
      expect(await migrateToLatest(db)).toEqual(NAMES.slice(1));
      expect(await schemaOf(db)).toEqual(latest);
    });

    for (const [release, shipped] of Object.entries(RELEASES)) {
      it(`upgrades a database made by ${release}, whatever the new migrations are named`, async () => {
        const db = await open(dialect);
        const released = Object.fromEntries(shipped.map((name) => [name, migrations[name]!]));
        const { error } = await new Migrator({ db, provider: { getMigrations: async () => released } }).migrateToLatest();
        expect(error).toBeUndefined();
        expect(await migrateToLatest(db)).toEqual(NAMES.filter((name) => !shipped.includes(name)));
        expect(await schemaOf(db)).toEqual(latest);
      });
    }

    for (const [step, before] of NAMES.slice(0, -1).entries()) {
      it(`upgrades a database with rows made at ${before}`, async () => {
        const { db, error } = await openAt(before);
        expect(error).toBeUndefined();
        const ids = await seed(db);
        expect(await migrateToLatest(db)).toEqual(NAMES.slice(step + 1));
        expect(await schemaOf(db)).toEqual(latest);
        for (const [table, id] of ids) {
          expect(await (db as any).selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()).toEqual({ id });
        }
        const task = ids.get('task');
        if (task === undefined || before >= SEARCH_BLOCKS) return;
        // the log was written before the line numbers and the search blocks: the upgrade adds both
        const lines = await db.selectFrom('task_output').select('line').where('task_id', '=', task).orderBy('id').execute();
        if (before < LINE_NUMBERS) expect(lines.map((l) => l.line)).toEqual(Array.from({ length: LOG_LINES }, (_, i) => i + 1));
        const blocks = await db.selectFrom('task_output_block').select(['task_id', 'text']).execute();
        expect(blocks.map((b) => b.task_id)).toEqual([task]);
        expect(blocks[0]!.text.split('\n')).toEqual(Array.from({ length: 1000 }, (_, i) => `seed line ${i + 1}`));
      });
    }
  });
}
