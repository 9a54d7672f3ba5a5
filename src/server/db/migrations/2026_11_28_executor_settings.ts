import type { Kysely } from 'kysely';

/**
 * Execution environments (issue 47): a template's tasks may run inside a container image. The
 * template already has Semaphore's `executor_image`; it gains the container's network mode, CPU
 * and memory limits, the user it runs as, the image pull policy and the key whose login and
 * password sign in to the image's registry. A project names a default image for its templates,
 * and each task records the image it ran in (the template may change later). The registry key
 * is guarded like the template's other keys: a key in use cannot be deleted (domain/refs).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('template').addColumn('executor_network', 'text').execute();
  await db.schema.alterTable('template').addColumn('executor_cpus', 'text').execute();
  await db.schema.alterTable('template').addColumn('executor_memory', 'text').execute();
  await db.schema.alterTable('template').addColumn('executor_user', 'text').execute();
  await db.schema.alterTable('template').addColumn('executor_pull', 'text').execute();
  await db.schema.alterTable('template').addColumn('executor_registry_key_id', 'integer').execute();
  await db.schema.alterTable('project').addColumn('executor_image', 'text').execute();
  await db.schema.alterTable('task').addColumn('executor_image', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['executor_network', 'executor_cpus', 'executor_memory', 'executor_user', 'executor_pull', 'executor_registry_key_id']) {
    await db.schema.alterTable('template').dropColumn(column).execute();
  }
  await db.schema.alterTable('project').dropColumn('executor_image').execute();
  await db.schema.alterTable('task').dropColumn('executor_image').execute();
}
