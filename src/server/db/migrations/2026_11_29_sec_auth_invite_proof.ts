import type { Kysely } from 'kysely';

/**
 * Issue 45: an email invitation is accepted only by someone who proved the address. A user's
 * email counts as verified unless they set it themselves (`email_verified` 0 from then on);
 * users from before keep theirs as verified. An invitation mailed to its address carries a
 * second token of its own, so the link in the mail proves the address by itself.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user').addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('project_invite').addColumn('email_token_hash', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('email_verified').execute();
  await db.schema.alterTable('project_invite').dropColumn('email_token_hash').execute();
}
