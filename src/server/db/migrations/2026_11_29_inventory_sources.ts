import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Inventory sources (issue 50 item 5): a `url` or `script` inventory may name a key its source
 * is read with (`source_key_id`), and every sync of it leaves a row: when, who (or which task),
 * the hosts it added and removed, the listing it read (JSON), or the error Ansible printed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inventory').addColumn('source_key_id', 'integer', (c) => c.references('access_key.id').onDelete('set null')).execute();
  await withId(db.schema.createTable('inventory_sync'), isPostgres(db))
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('task_id', 'integer')
    .addColumn('hosts_added', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('hosts_removed', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('listing', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('inventory_sync_inventory').on('inventory_sync').columns(['inventory_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('inventory_sync').execute();
  await db.schema.alterTable('inventory').dropColumn('source_key_id').execute();
}
