import type { Kysely } from 'kysely';

/**
 * Task engines alive on this database, with a heartbeat: crash recovery fails only tasks whose
 * engine is gone, so several servers can share one PostgreSQL database.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('engine_worker')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('engine_worker').execute();
}
