// The live state of the task in the dialog, one nanostores map that the header, the log, the
// Details and Summary tabs subscribe to, fed by the page's one socket (task-feed.ts).
import { useEffect } from 'react';
import { map, type MapStore } from 'nanostores';
import type { AnsibleTaskError, AnsibleTaskHost, Task, TaskStage } from '../console/types.ts';
import { SUMMARY_PARTS, summaryOf, type TaskSummaryData } from '../console/task-summary-model.ts';
import { isActive } from '../console/task-status.ts';
import { listenTaskFeed, type TaskFeedEvent } from './task-feed.ts';
import { FLUSH_EVERY_MS } from './task-log-model.ts';

export interface TaskLiveState {
  task: Task;
  /** the log's line count as last heard from the server */
  lines: number;
  /** bumped whenever the log may have grown: the socket opened, lines arrived, the status changed */
  logTick: number;
  summary: TaskSummaryData;
}

export type TaskLive = MapStore<TaskLiveState>;

/** @example const live = createTaskLive({ task, lines: 120, logTick: 0, summary }) */
export function createTaskLive(initial: TaskLiveState): TaskLive {
  return map(initial);
}

const taskPath = (task: Task) => `/api/project/${task.project_id}/tasks/${task.id}`;

/**
 * Reads the task again: an update message carries status and times only, not the commit or the
 * final fields. The one-task JSON has no build_task, so the one read with the page is kept.
 */
export async function reloadTask(live: TaskLive): Promise<void> {
  const res = await fetch(taskPath(live.get().task));
  if (res.ok) live.setKey('task', { build_task: live.get().task.build_task, ...((await res.json()) as Task) });
}

const summaryReads = new WeakMap<TaskLive, { busy: boolean; again: boolean }>();

/** Reads stages, hosts and failed tasks again; calls made while one runs fold into one more read. */
export async function reloadSummary(live: TaskLive, lang: string): Promise<void> {
  const state = summaryReads.get(live) ?? { busy: false, again: false };
  summaryReads.set(live, state);
  if (state.busy) return void (state.again = true);
  state.busy = true;
  try {
    do {
      state.again = false;
      const base = taskPath(live.get().task);
      const answers = await Promise.all(SUMMARY_PARTS.map((part) => fetch(`${base}/${part}`).then((res) => (res.ok ? res.json() : []))));
      const [stages, hosts, errors] = answers as [TaskStage[], AnsibleTaskHost[], AnsibleTaskError[]];
      live.setKey('summary', summaryOf(stages, hosts, errors, lang));
    } while (state.again);
  } finally {
    state.busy = false;
  }
}

/**
 * Keeps `live` current while its task is active: status updates at once (then the task is read
 * again), lines at most every 500 ms (as a logTick), and after a (re)connection both, since
 * anything may have happened while the socket was closed.
 */
export function useTaskFeed(live: TaskLive): void {
  const active = isActive(live.get().task.status);
  const taskId = live.get().task.id;
  useEffect(() => {
    if (!active) return;
    let logged = false;
    const grew = () => live.setKey('logTick', live.get().logTick + 1);
    const onEvent = (event: TaskFeedEvent) => {
      if (event.type === 'open') {
        logged = true;
        void reloadTask(live);
      }
      if (event.task_id !== taskId) return;
      if (event.type === 'log') logged = true;
      if (event.type !== 'update') return;
      const { status, start, end, version } = event;
      const changed = Object.entries({ status, start, end, version }).filter(([, value]) => value !== undefined);
      live.setKey('task', { ...live.get().task, ...Object.fromEntries(changed) });
      grew();
      void reloadTask(live);
    };
    const unsubscribe = listenTaskFeed(onEvent);
    // The socket may have been open already (the list behind the dialog listens too): what
    // happened since the server render is read now rather than at its opening.
    onEvent({ type: 'open' });
    const flush = setInterval(() => {
      if (!logged) return;
      logged = false;
      grew();
    }, FLUSH_EVERY_MS);
    return () => {
      unsubscribe();
      clearInterval(flush);
      if (logged) grew();
    };
  }, [live, taskId, active]);
}
