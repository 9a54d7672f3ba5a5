import type { Kysely } from 'kysely';

/**
 * Several variable groups per template, in order (Semaphore 2.18's `environment_ids`): later
 * groups override earlier ones key by key. `template.environment_id` stays as the first one for
 * old clients. Each template's existing group becomes its only listed one. A task records the
 * groups it ran with (`environment_ids`, a JSON array; null on tasks from before, which ran with
 * their template's single group).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('template_environment')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('environment_id', 'integer', (c) => c.notNull().references('environment.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('template_environment_pk', ['template_id', 'environment_id'])
    .execute();
  const templates = await db.selectFrom('template').select(['id', 'environment_id']).where('environment_id', 'is not', null).execute();
  for (const t of templates) {
    await db.insertInto('template_environment').values({ template_id: t.id, environment_id: t.environment_id, position: 0 }).execute();
  }
  await db.schema.alterTable('task').addColumn('environment_ids', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task').dropColumn('environment_ids').execute();
  await db.schema.dropTable('template_environment').execute();
}
