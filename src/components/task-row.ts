// One history row's cells as markup (task, status, start, duration, user, version): the server's
// TaskTable and the continuous-list island (src/islands/ScrollList.tsx) both insert these, so a
// row looks and reads the same paged or scrolled. Browser-safe.
import { html, type SafeHtml } from '../console/html.ts';
import { taskStarter } from '../console/task-starter.ts';
import { waitingText } from '../console/task-waiting.ts';
import type { DurationUnits } from '../console/format.ts';
import type { Task } from '../console/types.ts';
import { durationMarkup, relativeTimeMarkup } from './time-markup.ts';

export interface TaskRowContext {
  /** a message with its values filled in */
  t: (key: string, vars?: Record<string, string | number>) => string;
  lang: string;
  units: DurationUnits;
  /** a status as its chip (the server's statusChipMarkup; the island gets them made) */
  chip: (status: string) => SafeHtml;
  /** where a task's number links (its log dialog on this page) */
  taskHref: (id: number) => string;
  /** name each task's template after its number (the project history lists every template's tasks) */
  withTemplate: boolean;
}

/** The columns' message keys, in order; `low` columns hide on phones. */
export const TASK_COLUMNS = [
  { key: 'history.task' }, { key: 'history.status' }, { key: 'history.start' }, { key: 'history.duration' },
  { key: 'history.user', low: true }, { key: 'history.version', low: true },
] as const;

/** Every message the cells may need besides the status labels: the island is given these. */
export const TASK_ROW_MESSAGES = [
  'duration.h', 'duration.min', 'duration.s', 'task.integration', 'task.schedule', 'task.autorun',
  'task.waitingFor.template', 'task.waitingFor.templateLimit', 'task.waitingFor.lock', 'task.waitingFor.project',
  'task.waitingFor.slots', 'task.waitingFor.runnerTag', 'task.waitingFor.runner',
] as const;

/** The line under the task name: what was run, as Semaphore shows it. */
const subline = (task: Task) => [task.commit_message || task.message, task.git_branch].filter(Boolean).join(' · ');

/** The `<td>`s of one task's row. */
export function taskCellsMarkup(task: Task, ctx: TaskRowContext): SafeHtml {
  const template = ctx.withTemplate ? task.tpl_alias ?? task.tpl_name ?? '' : '';
  const sub = subline(task);
  const starter = taskStarter(task, (key, vars) => ctx.t(`task.${key}`, vars)) || '—';
  const name = html`<td class="wrap"><a class="clamp" href="${ctx.taskHref(task.id)}"${template ? html` title="${template}"` : ''}>#${task.id}${ctx.withTemplate ? ` ${template}` : ''}</a>${
    sub ? html`<span class="sub" title="${sub}">${sub}</span>` : ''}</td>`;
  const status = html`<td class="status-cell">${ctx.chip(task.status)}${task.waiting_for ? html`<span class="sub wait-reason">${waitingText(task.waiting_for, ctx.t)}</span>` : ''}</td>`;
  return html`${name}${status}<td>${relativeTimeMarkup(task.start ?? task.created, ctx.lang)}</td><td>${durationMarkup(task.start, task.end, ctx.units)}</td><td class="col-low">${starter}</td><td class="col-low">${task.version || task.build_task?.version || '—'}</td>`;
}
