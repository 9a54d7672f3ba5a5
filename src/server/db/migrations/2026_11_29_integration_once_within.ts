import type { Kysely } from 'kysely';

/**
 * "Once within" for webhooks (issue 48): an integration's `once_within` window in seconds (null:
 * off); identical deliveries inside it start one task. The task keeps the digest of the delivery
 * that started it (`trigger_digest`), found by an index on integration and digest.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('integration').addColumn('once_within', 'integer').execute();
  await db.schema.alterTable('task').addColumn('trigger_digest', 'text').execute();
  await db.schema.createIndex('task_integration_digest').on('task').columns(['integration_id', 'trigger_digest']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_integration_digest').execute();
  await db.schema.alterTable('task').dropColumn('trigger_digest').execute();
  await db.schema.alterTable('integration').dropColumn('once_within').execute();
}
