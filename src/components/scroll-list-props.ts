import type { AstroGlobal } from 'astro';
import { appBadgeMarkup, iconMarkup, statusChipMarkup } from './cell-markup.ts';
import { TASK_COLUMNS, TASK_ROW_MESSAGES } from './task-row.ts';
import { AUDIT_ROW_MESSAGES, auditColumns } from './audit-row.ts';
import { linkFrom, TEMPLATE_COLUMNS, TEMPLATE_ROW_MESSAGES, type TemplateRowContext } from './template-row.ts';
import { TASK_STATUSES } from '../server/domain/tasks/task-status.ts';
import { html } from '../console/html.ts';
import type { AuditRow } from '../console/audit-screen.ts';
import type { Task } from '../console/types.ts';
import type { AppItem, TemplateListData } from '../console/template-list.ts';

type AstroLike = Pick<AstroGlobal, 'locals'>;

/** Every task status's chip in the reader's language ('' for none). */
function statusChips(astro: AstroLike): Record<string, string> {
  const { t } = astro.locals;
  const chips: Record<string, string> = { '': statusChipMarkup(t, '').value };
  for (const status of TASK_STATUSES) chips[status] = statusChipMarkup(t, status).value;
  return chips;
}

/** An app's badge and title as the template list shows it; an app no longer listed by its id. */
function appCell(apps: AppItem[], id: string) {
  const app = apps.find((a) => a.id === id);
  return html`<span class="app-cell">${appBadgeMarkup(app?.icon ?? id, app?.color ?? '', id)}${app?.title || id}</span>`;
}

/** Every placeholder the row messages use, kept as `{{name}}` for the island to fill. */
const PLACEHOLDERS = Object.fromEntries(['id', 'limit', 'lock', 'name', 'running', 'tag'].map((name) => [name, `{{${name}}}`]));

function common(astro: AstroLike, keys: readonly string[], section: 'history' | 'audit' | 'templateList', columns: { key: string; low?: boolean }[]) {
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
  return {
    kind: 'tasks' as const, initial, cursor: hasOlder && initial.length ? String(initial.at(-1)!.id) : null, chips: statusChips(astro), wide: true,
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

/**
 * How the server's template list makes its rows' cells (src/components/template-row.ts): links
 * keep the page's own parameters (`here`), icons and chips come from the sprite.
 */
export function templateRowContext(astro: AstroLike, projectId: number, apps: AppItem[], here: URL, select: boolean): TemplateRowContext {
  const { t, lang } = astro.locals;
  return {
    t: (key, vars) => t(key, vars ?? {}), lang, projectId, select, link: linkFrom(here.pathname + here.search), chip: (status) => statusChipMarkup(t, status), app: (id) => appCell(apps, id),
    chevron: iconMarkup('chevron'), running: iconMarkup('running'),
  };
}

/**
 * The same for the continuous template list: its first page, the API's next cursor, and what
 * the island cannot make itself (chips, app badges, icons) made here; `here` is the address
 * the rows link from, the same in the server's render and the browser's.
 */
export function templateScrollProps(astro: AstroLike, projectId: number, list: TemplateListData, here: URL, select: boolean) {
  const { t } = astro.locals;
  const apps: Record<string, string> = {};
  for (const id of new Set([...list.apps.map((a) => a.id), ...list.templates.map((tpl) => tpl.app)])) apps[id] = appCell(list.apps, id).value;
  const opened = list.openId !== null && list.templates.some((tpl) => tpl.id === list.openId) ? { id: list.openId, tasks: list.openTasks } : null;
  return {
    kind: 'templates' as const, initial: list.templates, cursor: list.nextCursor, wide: false, chips: statusChips(astro),
    templates: {
      here: here.pathname + here.search, projectId, apps, opened,
      icons: { chevron: iconMarkup('chevron').value, running: iconMarkup('running').value },
      chooseAll: select ? t('templateBulk.chooseLoaded') : null,
      detail: { loading: t('templateList.tasksLoading'), failed: t('templateList.tasksFailed') },
    },
    ...common(astro, TEMPLATE_ROW_MESSAGES, 'templateList', TEMPLATE_COLUMNS.map((c) => ({ key: c.key, low: 'low' in c }))),
  };
}
