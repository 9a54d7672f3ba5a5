import { mdiChevronRight, mdiClose, mdiFullscreen, mdiFullscreenExit } from '@mdi/js';
import SvgIcon from './SvgIcon.tsx';
import StatusChip from './StatusChip.tsx';
import type { Task } from '../console/types.ts';
import { formatDuration, formatTime, relativeTimeText, type DurationUnits } from '../console/format.ts';

/** When a task started, as the header shows it: "5 minutes ago (1:43 PM)" and the full date as a tooltip. */
export interface StartedText { start: string; relative: string; title: string }

/** @example startedText('2026-11-23T13:43:00Z', 'en', Date.now()) */
export function startedText(start: string, lang: string, now: number): StartedText {
  return { start, relative: relativeTimeText(start, lang, now), title: `${formatTime(start, lang)} UTC` };
}

/** Seed 001 §9: a commit hash shows its first 10 characters, a commit message 50. */
export const COMMIT_HASH_CHARS = 10;
export const COMMIT_MESSAGE_CHARS = 50;

/** The first line of `text`, cut to `max` characters with an ellipsis. */
export function shorten(text: string, max: number): string {
  const line = text.split('\n')[0]!;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export type TaskLogTab = 'log' | 'details' | 'summary';
export const TASK_LOG_TABS: TaskLogTab[] = ['log', 'details', 'summary'];

interface Props {
  task: Task;
  templateName: string;
  templateHref: string;
  author: string;
  now: number;
  /** the start as text (startedText); null before the task starts */
  started: StartedText | null;
  units: DurationUnits;
  m: (key: string, vars?: Record<string, string | number>) => string;
  fullscreen: boolean;
  onToggleFullscreen: () => void;
  closeHref: string;
  tab: TaskLogTab;
  tabHrefs: Record<TaskLogTab, string>;
  onTab: (tab: TaskLogTab) => void;
}

/**
 * The task log dialog's header of seed 000: template › task number, status chip, who started it
 * and when, duration; full screen and close; then the tabs (links, so they work without JS).
 */
export default function TaskLogHeader({ task, templateName, templateHref, author, now, started, units, m, fullscreen, onToggleFullscreen, closeHref, tab, tabHrefs, onTab }: Props) {
  const fullscreenLabel = m(fullscreen ? 'exitFullscreen' : 'fullscreen');
  return (
    <>
      <header className="task-log-header">
        <div className="task-log-heading">
          <h2 id="task-log-title">
            <a href={templateHref}>{templateName}</a><SvgIcon path={mdiChevronRight} /><span>{m('title', { id: task.id })}</span>
          </h2>
          <p className="task-log-facts">
            <StatusChip status={task.status} label={m(`status_${task.status}`) === `status_${task.status}` ? task.status : m(`status_${task.status}`)} />
            {author && <span>{m('startedBy', { name: author })}</span>}
            {started
              ? <time dateTime={started.start} title={started.title}>{started.relative}</time>
              : <span>{m('notStarted')}</span>}
            {task.start ? <span className="duration" title={m('duration')}>{formatDuration(task.start, task.end, units, now)}</span> : null}
            {task.commit_hash ? (
              <span className="task-log-commit" title={task.commit_message || undefined}>
                <code aria-label={m('commit')}>{task.commit_hash.slice(0, COMMIT_HASH_CHARS)}</code>
                {task.commit_message ? ` ${shorten(task.commit_message, COMMIT_MESSAGE_CHARS)}` : null}
              </span>
            ) : null}
          </p>
        </div>
        <button type="button" className="icon-button" onClick={onToggleFullscreen} aria-label={fullscreenLabel} title={fullscreenLabel}>
          <SvgIcon path={fullscreen ? mdiFullscreenExit : mdiFullscreen} />
        </button>
        <a href={closeHref} className="dialog-close" aria-label={m('close')} title={m('close')}><SvgIcon path={mdiClose} /></a>
      </header>
      <nav className="task-log-tabs" aria-label={m('tabs')}>
        {TASK_LOG_TABS.map((name) => (
          <a key={name} href={tabHrefs[name]} aria-current={tab === name ? 'page' : undefined}
            onClick={(event) => { event.preventDefault(); onTab(name); }}>{m(`tab${name[0]!.toUpperCase()}${name.slice(1)}`)}</a>
        ))}
      </nav>
    </>
  );
}
