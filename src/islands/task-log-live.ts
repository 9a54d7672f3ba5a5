import { useEffect, useRef } from 'react';
import type { Task } from '../console/types.ts';
import { FLUSH_EVERY_MS, RECONNECT_AFTER_MS } from './task-log-model.ts';

export interface TaskUpdate { status: string; start?: string | null; end?: string | null; version?: string | null }

/**
 * Subscribes to `/api/ws` while `active`: `onLog` says, at most every 500 ms, that log lines of
 * the task arrived (the log view reads them by position from `/output`); status updates come at
 * once; the socket reopens 2 s after a close while running.
 */
export function useTaskSocket(task: Pick<Task, 'id'>, active: boolean, onLog: () => void, onUpdate: (u: TaskUpdate) => void, onOpen?: () => void): void {
  const handlers = useRef({ onLog, onUpdate, onOpen });
  handlers.current = { onLog, onUpdate, onOpen };
  useEffect(() => {
    if (!active) return;
    let logged = false;
    let socket: WebSocket | null = null;
    let stopped = false;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
      // Lines written before the socket (re)opened arrive through `/output`; a status change
      // before it (a short task ending while the page loaded) through `onOpen` re-reading the task.
      socket.onopen = () => {
        logged = true;
        handlers.current.onOpen?.();
      };
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; task_id: number } & TaskUpdate;
        if (message.task_id !== task.id) return;
        if (message.type === 'log') logged = true;
        else if (message.type === 'update') handlers.current.onUpdate(message);
      };
      socket.onclose = () => {
        if (!stopped) reconnect = setTimeout(open, RECONNECT_AFTER_MS);
      };
    };
    open();
    const flush = setInterval(() => {
      if (!logged) return;
      logged = false;
      handlers.current.onLog();
    }, FLUSH_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(flush);
      clearTimeout(reconnect);
      socket?.close();
      if (logged) handlers.current.onLog();
    };
  }, [task.id, active]);
}
