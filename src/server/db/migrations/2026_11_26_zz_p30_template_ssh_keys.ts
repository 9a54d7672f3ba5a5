import type { Kysely } from 'kysely';

/**
 * Extra SSH keys per template, in order (issue 30): besides the repository's and the
 * inventory's keys, a task of the template offers these to every SSH connection it makes (git
 * clones and their submodules, Ansible), so hosts that need another key are reached. Deleting
 * the template or the key removes the entry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('template_ssh_key')
    .addColumn('template_id', 'integer', (c) => c.notNull().references('template.id').onDelete('cascade'))
    .addColumn('ssh_key_id', 'integer', (c) => c.notNull().references('access_key.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('template_ssh_key_pk', ['template_id', 'ssh_key_id'])
    .execute();
  await db.schema.createIndex('template_ssh_key_key').on('template_ssh_key').column('ssh_key_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('template_ssh_key').execute();
}
