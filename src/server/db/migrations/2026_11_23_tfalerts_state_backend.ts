import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Terraform/OpenTofu HTTP state backend: public aliases of a workspace inventory, every state
 * version written through them, and the one lock a workspace can hold. Also the per-project
 * retention settings (0 = use the global setting).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await withId(db.schema.createTable('terraform_alias'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
    .addColumn('alias', 'text', (c) => c.notNull().unique())
    .addColumn('auth_key_id', 'integer', (c) => c.references('access_key.id').onDelete('set null'))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('terraform_alias_inventory').on('terraform_alias').column('inventory_id').execute();
  await withId(db.schema.createTable('terraform_state'), pg)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('inventory_id', 'integer', (c) => c.notNull().references('inventory.id').onDelete('cascade'))
    .addColumn('task_id', 'integer')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('terraform_state_inventory').on('terraform_state').columns(['inventory_id', 'id']).execute();
  await db.schema.createTable('terraform_lock')
    .addColumn('inventory_id', 'integer', (c) => c.primaryKey().references('inventory.id').onDelete('cascade'))
    .addColumn('lock_id', 'text', (c) => c.notNull())
    .addColumn('info', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('project').addColumn('task_retention_days', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('project').addColumn('task_retention_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('project').addColumn('output_retention_days', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('project').dropColumn('output_retention_days').execute();
  await db.schema.alterTable('project').dropColumn('task_retention_count').execute();
  await db.schema.alterTable('project').dropColumn('task_retention_days').execute();
  await db.schema.dropTable('terraform_lock').execute();
  await db.schema.dropTable('terraform_state').execute();
  await db.schema.dropTable('terraform_alias').execute();
}
