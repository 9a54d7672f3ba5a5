import type { Kysely } from 'kysely';

/**
 * Where a task's processes run: their process group, host and boot id. Recovery after a crash
 * ends a surviving group before it marks the task, so nothing keeps running unseen.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').addColumn('process_group', 'integer').execute();
  await db.schema.alterTable('task').addColumn('process_host', 'text').execute();
  await db.schema.alterTable('task').addColumn('process_boot_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').dropColumn('process_boot_id').execute();
  await db.schema.alterTable('task').dropColumn('process_host').execute();
  await db.schema.alterTable('task').dropColumn('process_group').execute();
}
