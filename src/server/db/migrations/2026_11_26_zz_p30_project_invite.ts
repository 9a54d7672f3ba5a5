import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Project invitations (Semaphore's `ProjectInvite`): to a user or an email address, with a role,
 * an expiry and a one-time token kept only as its SHA-256 hash.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('project_invite'), isPostgres(db))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('project.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('user.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('inviter_user_id', 'integer', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('accepted_at', 'text')
    .execute();
  await db.schema.createIndex('project_invite_project_idx').on('project_invite').column('project_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_invite').execute();
}
