// The page's one connection to `/api/ws`: the task dialog (which feeds the task's nanostores
// store from it, task-live.ts) and the live lists behind it listen to the same socket instead
// of each opening their own. A plain listener set, not a store itself: the lists' page ships at
// most 3 KB of gzip script, and nanostores' atom alone is half a kilobyte of it.

const RECONNECT_AFTER_MS = 2000;

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

type Listener = (event: TaskFeedEvent) => void;
const listeners = new Set<Listener>();
let closeSocket: (() => void) | null = null;
let socketPath = '/api/ws';

/**
 * Where the socket connects, set before the first listener: the wall board opened with a board
 * token connects to `/api/ws?token=…` instead of relying on a session.
 */
export function setTaskFeedPath(path: string): void {
  socketPath = path;
}

/**
 * Calls `listener` with every event; the socket is open while anything listens and reopens 2 s
 * after a close. Returns the function that stops listening.
 * @example const stop = listenTaskFeed((event) => console.log(event.type));
 */
export function listenTaskFeed(listener: Listener): () => void {
  listeners.add(listener);
  closeSocket ??= openSocket();
  return () => {
    listeners.delete(listener);
    if (listeners.size) return;
    closeSocket?.();
    closeSocket = null;
  };
}

function openSocket(): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  const open = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${socketPath}`);
    socket.onopen = () => emit({ type: 'open' });
    socket.onmessage = (event) => emit(JSON.parse(String(event.data)) as TaskFeedEvent);
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
}

function emit(event: TaskFeedEvent): void {
  for (const listener of [...listeners]) listener(event);
}
