import type { Kysely } from 'kysely';

/**
 * MCP server (issue 49): an API token is read-only for assistants unless it was created for
 * write operations (starting, stopping, approving). Existing tokens stay as they were for the
 * REST API and become read-only over MCP.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_token').addColumn('allow_write_operations', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_token').dropColumn('allow_write_operations').execute();
}
