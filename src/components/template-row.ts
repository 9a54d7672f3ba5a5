// One template row's cells as markup (bulk box, name with its expander, app, last task, last run,
// Run) and the expanded row's latest tasks: the server's TemplateList and the continuous-list
// island (src/islands/ScrollList.tsx) both insert these, so a row looks and reads the same paged
// or scrolled. Browser-safe: icons, chips and app badges come made by the caller.
import { html, type SafeHtml } from '../console/html.ts';
import type { Task } from '../console/types.ts';
import type { TemplateItem } from '../console/template-list.ts';
import { relativeTimeMarkup } from './time-markup.ts';

export interface TemplateRowContext {
  /** a message with its values filled in */
  t: (key: string, vars?: Record<string, string | number>) => string;
  lang: string;
  /** a task status as its chip */
  chip: (status: string) => SafeHtml;
  /** an app's badge and title */
  app: (id: string) => SafeHtml;
  chevron: SafeHtml;
  running: SafeHtml;
  /** the page's own address with one parameter set (or dropped, null) */
  link: (name: 'open' | 't' | 'new_task', value: string | null) => string;
  projectId: number;
  /** each row has a box of the bulk bar's form (`form="tpl-bulk"`) */
  select: boolean;
}

/** The columns' message keys after the bulk box, in order; `low` columns hide on phones. */
export const TEMPLATE_COLUMNS = [
  { key: 'templateList.name' }, { key: 'templateList.app', low: true }, { key: 'templateList.lastTask' },
  { key: 'templateList.lastRun', low: true }, { key: 'templateList.actions' },
] as const;

/** Every message the cells and the expanded row use: the island is given these. */
export const TEMPLATE_ROW_MESSAGES = [
  'templateList.expand', 'templateList.collapse', 'templateList.disabled', 'templateList.never', 'templateList.cannotRun',
  'templateList.run', 'templateList.noTasks', 'templateList.latestTasks', 'templateBulk.choose',
] as const;

/** When a task last did something. */
const taskTime = (task: Pick<Task, 'end' | 'start' | 'created'>) => task.end ?? task.start ?? task.created ?? null;

/**
 * Links from the page at `here` (its path and query) with one parameter set, or dropped (null).
 * @example linkFrom('/project/1/templates?view=all')('open', '5') // '/project/1/templates?view=all&open=5'
 */
export function linkFrom(here: string): TemplateRowContext['link'] {
  return (name, value) => {
    const next = new URL(here, 'http://page');
    if (value === null) next.searchParams.delete(name);
    else next.searchParams.set(name, value);
    return next.pathname + next.search;
  };
}

/** The `<td>`s of one template's row; `open` when its latest tasks show below it. */
export function templateCellsMarkup(tpl: TemplateItem, ctx: TemplateRowContext, open: boolean): SafeHtml {
  const { t } = ctx;
  const box = ctx.select ? html`<td class="col-select"><input type="checkbox" name="template_id" value="${tpl.id}" form="tpl-bulk" data-bulk-row aria-label="${t('templateBulk.choose', { name: tpl.name })}"></td>` : '';
  const name = html`<td class="wrap"><span class="name-line"><a class="row-expand" href="${ctx.link('open', open ? null : String(tpl.id))}" data-expand="${tpl.id}" aria-expanded="${open ? 'true' : 'false'}" aria-label="${t(open ? 'templateList.collapse' : 'templateList.expand', { name: tpl.name })}">${ctx.chevron}</a><a class="clamp" href="/project/${ctx.projectId}/templates/${tpl.id}/tasks" title="${tpl.name}">${tpl.name}</a>${
    tpl.disabled ? html`<span class="disabled-badge">${t('templateList.disabled')}</span>` : ''}</span>${
    tpl.description ? html`<span class="sub" title="${tpl.description}">${tpl.description}</span>` : ''}</td>`;
  const last = tpl.last_task;
  const lastTask = last
    ? html`<span class="app-cell">${ctx.chip(last.status)}<a href="${ctx.link('t', String(last.id))}">#${last.id}</a></span>`
    : html`<span class="muted">${t('templateList.never')}</span>`;
  const run = tpl.disabled
    ? html`<span class="muted run-off">${t('templateList.cannotRun')}</span>`
    : html`<a role="button" class="btn btn-outline run-button" href="${ctx.link('new_task', String(tpl.id))}">${ctx.running}${t('templateList.run')}</a>`;
  return html`${box}${name}<td class="col-low">${ctx.app(tpl.app)}</td><td class="last-task">${lastTask}</td><td class="col-low">${
    last ? relativeTimeMarkup(taskTime(last), ctx.lang) : '—'}</td><td>${run}</td>`;
}

/** What the expanded row shows: the template's latest tasks, or that it has none. */
export function latestTasksMarkup(tasks: Task[], ctx: TemplateRowContext): SafeHtml {
  if (tasks.length === 0) return html`<p class="muted">${ctx.t('templateList.noTasks')}</p>`;
  return html`<ul class="latest-tasks" aria-label="${ctx.t('templateList.latestTasks')}">${tasks.map((task) => html`<li><a href="${ctx.link('t', String(task.id))}">#${task.id}</a> ${
    ctx.chip(task.status)} ${relativeTimeMarkup(taskTime(task), ctx.lang)} <span class="muted">${task.user_name || ''}</span>${
    task.message ? html` <span class="muted">· ${task.message}</span>` : ''}</li>`)}</ul>`;
}
