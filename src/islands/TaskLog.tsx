import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import type { Task, TaskOutputLine } from '../console/types.ts';
import { canStop, hasRawLog, isActive, needsConfirmation } from '../console/task-status.ts';
import type { DurationUnits } from '../console/format.ts';
import TaskLogHeader, { startedText, type StartedText, type TaskLogTab } from './TaskLogHeader.tsx';
import TaskDetails from './TaskDetails.tsx';
import TaskSummary from './TaskSummary.tsx';
import { createTaskLive, reloadTask, useTaskFeed } from './task-live.ts';
import type { TaskSummaryData } from '../console/task-summary-model.ts';
import LogView from './LogView.tsx';
import LogSearch from './LogSearch.tsx';
import { rerunBody } from '../console/task-rerun.ts';
import { taskStarter } from '../console/task-starter.ts';

/** Run again is Rebuild for a build template and Redeploy (the same build) for a deploy one. */
const RERUN_LABEL: Record<string, string> = { build: 'rebuild', deploy: 'redeploy' };

interface Props {
  projectId: number;
  task: Task;
  templateName: string;
  /** the template's type: '' (task), 'build' or 'deploy' — names the run-again action */
  templateType?: string;
  /** an Ansible template's task and a user who may run tasks: offered once failed hosts are known */
  /** stop, confirm, reject and run again are offered only to those who may run tasks */
  mayRunTasks?: boolean;
  mayRelaunchFailed?: boolean;
  /** the starter's name (the task JSON carries only user_id) */
  authorName: string | null;
  /** the names of the variable groups the task ran with, in order */
  groupNames?: string[];
  lang: string;
  initialLines: TaskOutputLine[];
  /** the log's line count when rendered (`X-Total-Count` of the first `/output` window) */
  totalLines: number;
  /** the active language's `task` messages, plus `status_<status>` labels */
  messages: Record<string, string>;
  closeHref: string;
  back: string;
  /** the tab of `?tab=` (log, details, summary) and each tab's link, for use without JS */
  tab: TaskLogTab;
  tabHrefs: Record<TaskLogTab, string>;
  units: DurationUnits;
  /** the server's clock when it rendered, so the first client render matches (hydration) */
  renderedAt: number;
  /** the start as the server wrote it at renderedAt (startedText) */
  renderedStart?: StartedText | null;
  /** the task's summary (stages, hosts, failed tasks) when the server rendered */
  summary: TaskSummaryData;
  /** the active language's `summary` messages, plus `start` (the column heading) */
  summaryMessages: Record<string, string>;
}

/** The message function of a set of messages: `{{name}}` placeholders filled from `vars`. */
const messageFn = (messages: Record<string, string>) => (key: string, vars: Record<string, string | number> = {}) =>
  (messages[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));

/**
 * The task log dialog body: header and tabs (Log, Details, Summary), the log (LogView: any line
 * of any length, following a running task), and the task's actions. The server renders the first screen (forms post to
 * /project/{id}/task-action without JS); hydrated, it goes live.
 */
export default function TaskLog({ projectId, task: initialTask, templateName, templateType = '', mayRunTasks = false, mayRelaunchFailed = false, authorName, groupNames = [], lang, initialLines, totalLines, messages, closeHref, back, tab: initialTab, tabHrefs, units, renderedAt, renderedStart = null, summary, summaryMessages }: Props) {
  const m = messageFn(messages);
  const [live] = useState(() => createTaskLive({ task: initialTask, lines: totalLines, logTick: 0, summary }));
  const { task, logTick, summary: liveSummary } = useStore(live);
  const [now, setNow] = useState(renderedAt);
  const [fullscreen, setFullscreen] = useState(false);
  const [tab, setTab] = useState(initialTab);
  const [error, setError] = useState('');
  const [jump, setJump] = useState<{ line: number; seq: number } | null>(null);
  // A running task's log follows its tail; a finished one opens at its start.
  const [followTail] = useState(() => isActive(initialTask.status));
  const actions = useRef<HTMLFormElement>(null);
  const apiBase = `/api/project/${projectId}/tasks/${task.id}`;
  const active = isActive(task.status);
  const relaunchable = mayRelaunchFailed && !active && liveSummary.hosts.some((h) => h.failed > 0 || h.unreachable > 0);
  // The server's text while nothing changed since it rendered: building the browser's first
  // Intl date formatter took ~half of the hydration's script time (ICU data), a long task.
  const serverStart = renderedStart && task.start === renderedStart.start && now === renderedAt;
  const started = serverStart ? renderedStart : task.start ? startedText(task.start, lang, now) : null;

  useTaskFeed(live);

  useEffect(() => {
    setFullscreen(localStorage.getItem('dialog_fullscreen') === '1');
  }, []);

  useEffect(() => {
    actions.current?.closest('dialog')?.classList.toggle('fullscreen', fullscreen);
  }, [fullscreen]);

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);

  const act = async (event: FormEvent<HTMLFormElement>) => {
    const action = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value') ?? '';
    // through the form loop: the server starts it and opens the new task with a flash
    if (action === 'relaunch_failed') return;
    event.preventDefault();
    if (action === 'rerun') return rerun();
    const path = action === 'confirm' || action === 'reject' ? action : 'stop';
    const body = path === 'stop' ? JSON.stringify({ force: action === 'force_stop' }) : undefined;
    const res = await fetch(`${apiBase}/${path}`, { method: 'POST', headers: body ? { 'content-type': 'application/json' } : {}, body });
    if (!res.ok) return setError(m('actionFailed', { status: res.status }));
    setError('');
    await reloadTask(live);
  };

  const rerun = async () => {
    const res = await fetch(`/api/project/${projectId}/tasks`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rerunBody(task)),
    });
    if (!res.ok) return setError(m('actionFailed', { status: res.status }));
    const created = (await res.json()) as Task;
    const next = new URL(location.href);
    next.searchParams.set('t', String(created.id));
    location.assign(next);
  };

  const toggleFullscreen = () => {
    localStorage.setItem('dialog_fullscreen', fullscreen ? '0' : '1');
    setFullscreen(!fullscreen);
  };

  const showTab = (next: TaskLogTab) => {
    setTab(next);
    history.replaceState(history.state, '', tabHrefs[next]);
  };

  const author = authorName || taskStarter(task, m);
  const templateHref = `/project/${projectId}/templates/${task.template_id}`;
  return (
    <>
      <TaskLogHeader task={task} templateName={templateName} templateHref={templateHref} author={author} now={now} started={started} units={units} m={m}
        fullscreen={fullscreen} onToggleFullscreen={toggleFullscreen} closeHref={closeHref} tab={tab} tabHrefs={tabHrefs} onTab={showTab} />
      {tab === 'log' ? <LogSearch apiBase={apiBase} m={m} onJump={(line) => setJump((j) => ({ line, seq: (j?.seq ?? 0) + 1 }))} /> : null}
      <LogView apiBase={apiBase} initialLines={initialLines} initialTotal={totalLines} followTail={followTail} liveTick={logTick} onTotal={(lines) => live.setKey('lines', lines)} label={m('log')}
        emptyText={m('noOutput')} jumpText={m('jumpToEnd')} hidden={tab !== 'log'} jump={jump} />
      {tab === 'details' ? <TaskDetails task={task} templateName={templateName} templateHref={templateHref} author={author} groupNames={groupNames} lang={lang} m={m} /> : null}
      <div className="task-summary-tab" hidden={tab !== 'summary'}>
        <TaskSummary live={live} lang={lang} hidden={tab !== 'summary'} now={now} units={units} m={messageFn(summaryMessages)} />
      </div>
      {error ? <p role="alert"><mark>{error}</mark></p> : null}
      <form ref={actions} className="task-actions" method="post" action={`/project/${projectId}/task-action`} onSubmit={act}>
        <input type="hidden" name="task" value={task.id} />
        <input type="hidden" name="back" value={back} />
        {mayRunTasks && canStop(task.status) ? (
          task.status === 'stopping'
            ? <button type="submit" name="action" value="force_stop" className="btn btn-danger">{m('forceStop')}</button>
            : <button type="submit" name="action" value="stop" className="btn btn-secondary">{m('stop')}</button>
        ) : null}
        {mayRunTasks && needsConfirmation(task.status) ? <>
          <button type="submit" name="action" value="confirm" className="btn btn-primary">{m('confirm')}</button>
          <button type="submit" name="action" value="reject" className="btn btn-secondary">{m('reject')}</button>
        </> : null}
        {mayRunTasks && !active ? <button type="submit" name="action" value="rerun" className="btn btn-secondary">{m(RERUN_LABEL[templateType] ?? 'rerun')}</button> : null}
        {relaunchable ? <button type="submit" name="action" value="relaunch_failed" className="btn btn-secondary">{m('relaunchFailed')}</button> : null}
        {hasRawLog(task.status) ? <a role="button" className="btn btn-outline" href={`${apiBase}/raw_output`} target="_blank" rel="noopener">{m('rawLog')}</a> : null}
        {hasRawLog(task.status) ? <a role="button" className="btn btn-outline" href={`${apiBase}/output/download`} download={`task-${task.id}.log`}>{m('download')}</a> : null}
      </form>
    </>
  );
}
