import type { Kysely } from 'kysely';

/**
 * The Hosts view reads every host's last recap per template and when it was last reached
 * (issue 50 bench: 10,000 hosts, 100,000 recap rows): both grouped reads walk these indexes
 * in host order instead of sorting the project's rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('task_ansible_host_project_host').on('task_ansible_host').columns(['project_id', 'host', 'task_id', 'id']).execute();
  await db.schema.createIndex('task_ansible_host_project_reached').on('task_ansible_host').columns(['project_id', 'unreachable', 'host', 'created']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('task_ansible_host_project_reached').execute();
  await db.schema.dropIndex('task_ansible_host_project_host').execute();
}
