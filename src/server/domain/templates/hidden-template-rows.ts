import { expressionBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * A `where` for logs of objects (the activity log's `event`, the `audit` trail) that leaves out
 * rows about templates a reader does not see (issue 52): the templates themselves (their grants
 * too), their tasks and their schedules. Filtering in the query keeps cursor pages full.
 * @example query.where(notAboutTemplates('audit', [4, 9]))
 */
export function notAboutTemplates(table: 'event' | 'audit', hidden: readonly number[]) {
  const eb = expressionBuilder<Database, never>();
  const type = sql.ref<string>(`${table}.object_type`);
  const id = sql.ref<number | null>(`${table}.object_id`);
  return eb.not(eb.or([
    eb.and([eb(type, '=', 'template'), eb(id, 'in', [...hidden])]),
    eb.and([eb(type, '=', 'task'), eb(id, 'in', eb.selectFrom('task').select('task.id').where('task.template_id', 'in', [...hidden]))]),
    eb.and([eb(type, '=', 'schedule'), eb(id, 'in', eb.selectFrom('schedule').select('schedule.id').where('schedule.template_id', 'in', [...hidden]))]),
  ]));
}
