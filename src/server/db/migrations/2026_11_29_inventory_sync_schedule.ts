import type { Kysely } from 'kysely';

/**
 * Inventory syncs on a schedule (issue 50 item 5): a url or script inventory may carry a cron
 * expression (`sync_cron`) the scheduler syncs it by; such a sync is marked as the schedule's
 * (`scheduled`), and each due time is claimed once across servers (`inventory_sync_firing`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inventory').addColumn('sync_cron', 'text').execute();
  await db.schema.alterTable('inventory_sync').addColumn('scheduled', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createTable('inventory_sync_firing')
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('inventory_sync_firing_pk', ['inventory_id', 'due_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inventory_sync_firing').execute();
  await db.schema.alterTable('inventory_sync').dropColumn('scheduled').execute();
  await db.schema.alterTable('inventory').dropColumn('sync_cron').execute();
}
