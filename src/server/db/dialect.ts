import { PostgresAdapter, type Kysely } from 'kysely';

/** True on PostgreSQL; the few places that differ by dialect (ids, claims, bulk inserts) ask this. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
