import { Kysely, sql, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import type { Database } from '../db/schema.ts';
import type { Config } from '../config/config.ts';
import type { Deps } from '../deps.ts';
import type { TaskRow } from '../db/schema.ts';
import { migrateToLatest, withStatementCache } from '../db/database.ts';
import { newEncryptionKey, SecretBox } from '../crypto/secret-box.ts';
import { EventBus } from '../events/event-bus.ts';
import { VERSION } from '../version.ts';
import type { JobPayload } from '../engine/remote/job-payload.ts';

/**
 * A remote runner runs a job with the server's own engine (`LocalJob`), against a private
 * in-memory database that mirrors the rows of that one task: the job cannot tell it is not in
 * a server. Secrets are sealed again with a key that lives only in this process (a new one per
 * job). A job's database is emptied and kept for a later job instead of closed: a fresh one
 * parses the whole schema on its first statement and compiles every statement anew, a kept one
 * has them compiled already (`withStatementCache`).
 * @example const pool = new MirrorPool(config); const deps = await pool.take(); ...; await pool.give(deps);
 */
export class MirrorPool {
  readonly #config: Config;
  readonly #keep: number;
  readonly #free: Kysely<Database>[] = [];

  constructor(config: Config, keep = 8) {
    this.#config = config;
    this.#keep = keep;
  }

  /** Opens one database ahead, so the first job does not wait for the migration. */
  async warm(): Promise<void> {
    if (!this.#free.length) this.#free.push(await openMirrorDb());
  }

  async take(): Promise<Deps> {
    const db = this.#free.pop() ?? (await openMirrorDb());
    return { db, config: this.#config, secrets: new SecretBox(newEncryptionKey()), bus: new EventBus(), metrics: null, version: VERSION };
  }

  /** Empties the job's database and keeps it (or closes it when enough are kept). */
  async give(deps: Deps): Promise<void> {
    const db = deps.db as unknown as Kysely<Database>;
    if (this.#free.length >= this.#keep) {
      close(db);
      return;
    }
    try {
      const tables = await sql<{ name: string }>`select "name" from "sqlite_master" where "type" = 'table' and "name" not like 'sqlite_%' and "name" not like 'kysely_%'`.execute(db);
      for (const { name } of tables.rows) await sql`delete from ${sql.table(name)}`.execute(db);
      this.#free.push(db);
    } catch {
      close(db);
    }
  }
}

const files = new WeakMap<Kysely<Database>, SQLite.Database>();

async function openMirrorDb(): Promise<Kysely<Database>> {
  const file = new SQLite(await migratedImage());
  // the mirror holds only the rows of one task: the rows it points at may be missing
  file.pragma('foreign_keys = OFF');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  files.set(db, file);
  return db;
}

/** Closes the file itself: Kysely's destroy does nothing for a database that never ran a query. */
function close(db: Kysely<Database>): void {
  const file = files.get(db);
  if (file?.open) file.close();
}

let image: Promise<Buffer> | null = null;

/** An empty, migrated database as bytes: made once, copied for every job (migrating each time costs CPU on the job's path). */
function migratedImage(): Promise<Buffer> {
  image ??= (async () => {
    const file = new SQLite(':memory:');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
    await migrateToLatest(db as never);
    const bytes = file.serialize();
    await db.destroy();
    return bytes;
  })();
  return image;
}

/** Fills a fresh mirror with a job's rows; returns the task row to run. */
export async function loadMirror(deps: Deps, payload: JobPayload): Promise<TaskRow> {
  const { db, secrets } = deps;
  for (const [table, rows] of Object.entries(payload.rows)) {
    if (rows.length) await db.insertInto(table as 'project').values(rows as never).execute();
  }
  for (const key of payload.keys) {
    const secret = typeof key.secret === 'string' ? secrets.seal(key.secret) : null;
    await db.insertInto('access_key').values({ ...(key as never as object), secret } as never).execute();
  }
  for (const storage of payload.storages ?? []) {
    const secret = typeof storage.secret === 'string' ? secrets.seal(storage.secret) : null;
    await db.insertInto('secret_storage').values({ ...(storage as never as object), secret } as never).execute();
  }
  await db.insertInto('task').values({ ...payload.task, status: 'starting', runner_id: null } as never).execute();
  return db.selectFrom('task').selectAll().where('id', '=', payload.task.id).executeTakeFirstOrThrow();
}
