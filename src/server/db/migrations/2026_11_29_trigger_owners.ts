import type { Kysely } from 'kysely';

/**
 * Who a schedule or an integration acts for (issue 52): the person who last saved it. A start
 * it triggers passes the template grants only as far as theirs reach (launch rule
 * template-visible.ts), as AWX runs a schedule for its owner. Rows from before stay null and
 * start as they did.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['schedule', 'integration']) {
    await db.schema.alterTable(table).addColumn('owner_id', 'integer', (c) => c.references('user.id').onDelete('set null')).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['schedule', 'integration']) await db.schema.alterTable(table).dropColumn('owner_id').execute();
}
