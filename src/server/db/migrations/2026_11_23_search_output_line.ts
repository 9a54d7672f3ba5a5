import { sql, type Kysely } from 'kysely';

/**
 * Each log row keeps its 1-based line number within its task, written with the row, so a
 * search match needs no count of the rows before it. Existing rows are numbered in id order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task_output').addColumn('line', 'integer').execute();
  await sql`update task_output set line = numbered.n
    from (select id, row_number() over (partition by task_id order by id) as n from task_output) as numbered
    where numbered.id = task_output.id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('task_output').dropColumn('line').execute();
}
