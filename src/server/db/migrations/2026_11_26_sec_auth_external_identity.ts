import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Which identity of which provider signs in as which user: `provider` is `oidc:<provider id>` or
 * `ldap`, `subject` the provider's stable id (OIDC `sub`, the LDAP login). Once linked, an
 * identity signs in by this row, never again by email.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('external_identity'), isPostgres(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addUniqueConstraint('external_identity_provider_subject', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('external_identity_user').on('external_identity').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('external_identity').execute();
}
