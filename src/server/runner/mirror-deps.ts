import { Kysely, SqliteDialect } from 'kysely';
import SQLite from 'better-sqlite3';
import type { Database } from '../db/schema.ts';
import type { Config } from '../config/config.ts';
import type { Deps } from '../deps.ts';
import type { TaskRow } from '../db/schema.ts';
import { migrateToLatest } from '../db/database.ts';
import { newEncryptionKey, SecretBox } from '../crypto/secret-box.ts';
import { EventBus } from '../events/event-bus.ts';
import { VERSION } from '../version.ts';
import type { JobPayload } from '../engine/remote/job-payload.ts';

/**
 * A remote runner runs a job with the server's own engine (`LocalJob`), against a private
 * in-memory database that mirrors the rows of that one task: the job cannot tell it is not in
 * a server. Secrets are sealed again with a key that lives only in this process.
 */
export async function openMirror(config: Config): Promise<Deps> {
  const file = new SQLite(await migratedImage());
  // the mirror holds only the rows of one task: the rows it points at may be missing
  file.pragma('foreign_keys = OFF');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return { db, config, secrets: new SecretBox(newEncryptionKey()), bus: new EventBus(), metrics: null, version: VERSION };
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
  await db.insertInto('task').values({ ...payload.task, status: 'starting', runner_id: null } as never).execute();
  return db.selectFrom('task').selectAll().where('id', '=', payload.task.id).executeTakeFirstOrThrow();
}
