import type { Kysely } from 'kysely';
import { isPostgres, withId } from './dialect-types.ts';

/**
 * Two-factor sign-in: one TOTP enrolment per user (secret sealed, recovery code hashed, the last
 * accepted time step so a code cannot be used twice), and sessions that wait for the second factor.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db.schema.createTable('user_totp'), isPostgres(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('user.id').onDelete('cascade'))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('recovery_hash', 'text', (c) => c.notNull())
    .addColumn('last_step', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('session').addColumn('verified', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('session').addColumn('verification_method', 'text', (c) => c.notNull().defaultTo('none')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('session').dropColumn('verification_method').execute();
  await db.schema.alterTable('session').dropColumn('verified').execute();
  await db.schema.dropTable('user_totp').execute();
}
