import type { AstroGlobal } from 'astro';
import { statusChipMarkup } from './cell-markup.ts';
import { TASK_COLUMNS, TASK_ROW_MESSAGES } from './task-row.ts';
import { AUDIT_ROW_MESSAGES, auditColumns } from './audit-row.ts';
import { TASK_STATUSES } from '../server/domain/tasks/task-status.ts';
import type { AuditRow } from '../console/audit-screen.ts';
import type { Task } from '../console/types.ts';

type AstroLike = Pick<AstroGlobal, 'locals'>;

/** Every placeholder the row messages use, kept as `{{name}}` for the island to fill. */
const PLACEHOLDERS = Object.fromEntries(['id', 'limit', 'lock', 'running', 'tag'].map((name) => [name, `{{${name}}}`]));

function common(astro: AstroLike, keys: readonly string[], section: 'history' | 'audit', columns: { key: string; low?: boolean }[]) {
  const { t, lang } = astro.locals;
  const m = Object.fromEntries(keys.map((key) => [key, t(key, PLACEHOLDERS)]));
  const states = { loading: t(`${section}.scrollLoading`), failed: t(`${section}.scrollFailed`), end: t(`${section}.scrollEnd`), retry: t('common.retry') };
  return { lang, m, states, columns: columns.map((c) => ({ label: t(c.key), low: Boolean(c.low) })) };
}

/**
 * What the continuous history (src/islands/ScrollList.tsx) needs from the server besides the
 * project, label and filter: the first rows, the columns, every status's chip and the messages
 * in the reader's language.
 * @example <ScrollList client:load {...taskScrollProps(Astro, items, hasOlder)} path=… filterQuery=… label=… />
 */
export function taskScrollProps(astro: AstroLike, initial: Task[], hasOlder: boolean) {
  const { t } = astro.locals;
  const chips: Record<string, string> = { '': statusChipMarkup(t, '').value };
  for (const status of TASK_STATUSES) chips[status] = statusChipMarkup(t, status).value;
  return {
    kind: 'tasks' as const, initial, cursor: hasOlder && initial.length ? String(initial.at(-1)!.id) : null, chips, wide: true,
    ...common(astro, TASK_ROW_MESSAGES, 'history', TASK_COLUMNS.map((c) => ({ key: c.key, low: 'low' in c }))),
  };
}

/**
 * The same for the continuous audit trail: its first rows, the API's next cursor, and a project
 * column on the trail of every project.
 */
export function auditScrollProps(astro: AstroLike, initial: AuditRow[], next: number | null, withProject: boolean) {
  return {
    kind: 'audit' as const, initial, cursor: next === null ? null : String(next), wide: withProject,
    ...common(astro, AUDIT_ROW_MESSAGES, 'audit', auditColumns(withProject)),
  };
}
