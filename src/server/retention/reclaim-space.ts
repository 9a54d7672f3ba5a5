import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { isPostgres } from '../db/dialect.ts';

/** Pages freed per step on SQLite (4 KiB each: 8 MiB per step). */
const PAGES_PER_STEP = 2000;

/**
 * Gives the space of deleted rows back. SQLite files run with `auto_vacuum = INCREMENTAL`, so
 * the free pages are cut off the file a step at a time, letting other statements in between;
 * PostgreSQL gets a plain VACUUM of the task tables, which makes the space reusable without
 * locking them (only VACUUM FULL would shrink the files, and it blocks).
 * @example await reclaimSpace(db);
 */
export async function reclaimSpace(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`vacuum (analyze) task_output, task_output_block, task`.execute(db);
    return;
  }
  for (;;) {
    const before = await freePages(db);
    if (before === 0) return;
    await sql.raw(`pragma incremental_vacuum(${PAGES_PER_STEP})`).execute(db);
    if ((await freePages(db)) >= before) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

async function freePages(db: Db): Promise<number> {
  const { rows } = await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db);
  return Number(rows[0]?.freelist_count ?? 0);
}
