import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Host facts (issue 50 item 2): per project and host, what Ansible's fact gathering reported in
 * the newest run that gathered it (OS, version, default IPv4 address, hostname), with that task
 * and when. Read from the engine's own callback, never from the task's output text.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('host_facts'), isPostgres(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('task_id', 'integer', (c) => c.notNull())
    .addColumn('gathered', 'text', (c) => c.notNull())
    .addColumn('distribution', 'text')
    .addColumn('distribution_version', 'text')
    .addColumn('ipv4', 'text')
    .addColumn('hostname', 'text')
    .execute();
  await db.schema.createIndex('host_facts_project_host').unique().on('host_facts').columns(['project_id', 'host']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('host_facts').execute();
}
