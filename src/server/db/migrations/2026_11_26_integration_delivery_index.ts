import type { Kysely } from 'kysely';

/**
 * An integration's deliveries newest first: the delivery log, the cap that keeps only its
 * newest 1,000 (checked on every delivery) and the retention purge read from this index.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('integration_delivery_integration_id').on('integration_delivery').columns(['integration_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('integration_delivery_integration_id').execute();
}
