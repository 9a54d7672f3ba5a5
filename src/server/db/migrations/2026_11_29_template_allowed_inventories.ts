import type { Kysely } from 'kysely';

/**
 * The inventories a start of a template may choose (issue 50 item 6, Semaphore #3587): none
 * listed = any of the project's. An inventory stays in use while a template lists it (refs), so
 * deleting it cannot quietly widen a list to "any"; the cascade only follows a deleted project.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('template_allowed_inventory')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('template_allowed_inventory_pk', ['template_id', 'inventory_id'])
    .execute();
  await db.schema.createIndex('template_allowed_inventory_inventory').on('template_allowed_inventory').column('inventory_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('template_allowed_inventory').execute();
}
