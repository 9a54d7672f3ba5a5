import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

// Migrations never change once released: this folder imports nothing from live code, so a
// later change elsewhere cannot change what an old upgrade does.

/** True on PostgreSQL (as db/dialect.ts asked when these migrations were written). */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The one place where the schema differs by dialect: auto-increment primary keys. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, postgres: boolean) {
  return postgres
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
