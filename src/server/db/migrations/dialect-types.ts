import type { CreateTableBuilder } from 'kysely';

export { isPostgres } from '../dialect.ts';

/** The one place where the schema differs by dialect: auto-increment primary keys. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, postgres: boolean) {
  return postgres
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
