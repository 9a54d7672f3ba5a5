// The page's one connection to `/api/ws`, as a store: the task dialog and the lists behind it
// listen to the same socket instead of each opening their own.
import { atom, onMount } from 'nanostores';
import { RECONNECT_AFTER_MS } from './task-log-model.ts';

/**
 * A message of `/api/ws` (`log`: lines of a task were written; `update`: its status or times
 * changed), or `open` when the socket (re)opened: what happened while it was closed must be re-read.
 */
export interface TaskFeedEvent {
  type: 'open' | 'log' | 'update' | string;
  task_id?: number;
  project_id?: number;
  status?: string;
  start?: string | null;
  end?: string | null;
  version?: string | null;
}

/** The latest event; the socket is open while anything listens and reopens 2 s after a close. */
export const taskFeed = atom<TaskFeedEvent | null>(null);

onMount(taskFeed, () => {
  let socket: WebSocket | null = null;
  let stopped = false;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
    socket.onopen = () => taskFeed.set({ type: 'open' });
    socket.onmessage = (event) => taskFeed.set(JSON.parse(String(event.data)) as TaskFeedEvent);
    socket.onclose = () => {
      if (!stopped) reconnect = setTimeout(open, RECONNECT_AFTER_MS);
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(reconnect);
    socket?.close();
  };
});
