import type { AstroGlobal } from 'astro';
import { statusChipMarkup } from '../components/cell-markup.ts';
import { TASK_COLUMNS, TASK_ROW_MESSAGES } from '../components/task-row.ts';
import { TASK_STATUSES } from '../server/domain/tasks/task-status.ts';
import type { Task } from './types.ts';

/** The continuous list's own messages (locales: `history.scroll*`). */
const LIST_MESSAGES = ['history.scrollLoading', 'history.scrollFailed', 'history.scrollEnd', 'history.scrollRetry'] as const;
/** Every placeholder the row messages use, kept as `{{name}}` for the island to fill. */
const PLACEHOLDERS = Object.fromEntries(['id', 'limit', 'lock', 'running', 'tag'].map((name) => [name, `{{${name}}}`]));

/**
 * What the continuous-list island (src/islands/TaskScroll.tsx) needs from the server besides
 * the project and filter: the first rows, the columns, every status's chip and the messages in
 * the reader's language.
 * @example <TaskScroll client:load {...scrollListProps(Astro, items, hasOlder)} projectId={3} … />
 */
export function scrollListProps(astro: Pick<AstroGlobal, 'locals'>, initial: Task[], hasOlder: boolean) {
  const { t, lang } = astro.locals;
  const chips: Record<string, string> = { '': statusChipMarkup(t, '').value };
  for (const status of TASK_STATUSES) chips[status] = statusChipMarkup(t, status).value;
  const m: Record<string, string> = {};
  for (const key of [...TASK_ROW_MESSAGES, ...LIST_MESSAGES]) m[key] = t(key, PLACEHOLDERS);
  return { initial, hasOlder, lang, chips, m, columns: TASK_COLUMNS.map((c) => ({ label: t(c.key), low: 'low' in c })) };
}
