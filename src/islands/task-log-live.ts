import { useEffect, useRef } from 'react';
import type { Task, TaskOutputLine } from '../console/types.ts';
import { FLUSH_EVERY_MS, RECONNECT_AFTER_MS } from './task-log-model.ts';

export interface TaskUpdate { status: string; start?: string | null; end?: string | null; version?: string | null }

/**
 * Subscribes to `/api/ws` while `active`: log lines for the task are buffered and handed over
 * every 500 ms, status updates at once; the socket reopens 2 s after a close while running.
 */
export function useTaskSocket(task: Pick<Task, 'id'>, active: boolean, onLines: (lines: TaskOutputLine[]) => void, onUpdate: (u: TaskUpdate) => void): void {
  const handlers = useRef({ onLines, onUpdate });
  handlers.current = { onLines, onUpdate };
  useEffect(() => {
    if (!active) return;
    let buffer: TaskOutputLine[] = [];
    let socket: WebSocket | null = null;
    let stopped = false;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; task_id: number; time?: string; output?: string } & TaskUpdate;
        if (message.task_id !== task.id) return;
        if (message.type === 'log') buffer.push({ time: message.time ?? '', output: message.output ?? '' });
        else if (message.type === 'update') handlers.current.onUpdate(message);
      };
      socket.onclose = () => {
        if (!stopped) reconnect = setTimeout(open, RECONNECT_AFTER_MS);
      };
    };
    open();
    const flush = setInterval(() => {
      if (buffer.length === 0) return;
      const lines = buffer;
      buffer = [];
      handlers.current.onLines(lines);
    }, FLUSH_EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(flush);
      clearTimeout(reconnect);
      socket?.close();
      if (buffer.length) handlers.current.onLines(buffer);
    };
  }, [task.id, active]);
}
