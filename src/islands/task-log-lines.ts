import { useCallback, useEffect, useRef, useState } from 'react';
import type { TaskOutputLine } from '../console/types.ts';
import { LineCache } from './task-log-cache.ts';
import { BLOCK_LINES } from './task-log-model.ts';

export interface LogLines {
  /** the log's line count as last heard from the server */
  total: number;
  line: (index: number) => TaskOutputLine | undefined;
  /** fetches (in parallel) what `first..last` lacks and cancels fetches of lines no longer wanted */
  want: (first: number, last: number) => void;
  /** re-reads the end of a running log, which also brings the new line count */
  refreshTail: () => void;
}

/**
 * Random access to a task's log through `/output?offset=&limit=` windows of BLOCK_LINES: each
 * answer carries the line count (`X-Total-Count`), so the list is sized to the whole log from
 * the start and any position is one or two requests away.
 */
export function useLogLines(apiBase: string, initialLines: TaskOutputLine[], initialTotal: number): LogLines {
  const cache = useRef<LineCache | null>(null);
  if (!cache.current) {
    cache.current = new LineCache();
    cache.current.put(0, initialLines);
  }
  const [total, setTotal] = useState(Math.max(initialTotal, initialLines.length));
  const totalNow = useRef(total);
  const [, setVersion] = useState(0);
  const inFlight = useRef(new Map<number, AbortController>());
  const tail = useRef({ busy: false, again: false });

  const fetchBlock = useCallback(async (block: number, signal?: AbortSignal) => {
    const res = await fetch(`${apiBase}/output?offset=${block * BLOCK_LINES}&limit=${BLOCK_LINES}`, { signal });
    if (!res.ok) return;
    const lines = (await res.json()) as TaskOutputLine[];
    cache.current!.put(block, lines);
    // A running log only grows, so a count read earlier than another never lowers it.
    const count = Math.max(Number(res.headers.get('x-total-count')) || 0, block * BLOCK_LINES + lines.length);
    if (count > totalNow.current) setTotal((totalNow.current = count));
    setVersion((v) => v + 1);
  }, [apiBase]);

  const want = useCallback((first: number, last: number) => {
    const needed = new Set(last >= first ? cache.current!.missing(first, last) : []);
    const running = inFlight.current;
    for (const [block, controller] of running) {
      if (needed.has(block)) continue;
      controller.abort();
      running.delete(block);
    }
    for (const block of needed) {
      if (running.has(block)) continue;
      const controller = new AbortController();
      running.set(block, controller);
      fetchBlock(block, controller.signal).catch(() => undefined).finally(() => {
        if (running.get(block) === controller) running.delete(block);
      });
    }
  }, [fetchBlock]);

  const refreshTail = useCallback(() => {
    const state = tail.current;
    if (state.busy) return void (state.again = true);
    state.busy = true;
    void (async () => {
      do {
        state.again = false;
        await fetchBlock(Math.floor(totalNow.current / BLOCK_LINES)).catch(() => undefined);
      } while (state.again);
      state.busy = false;
    })();
  }, [fetchBlock]);

  useEffect(() => () => {
    for (const controller of inFlight.current.values()) controller.abort();
  }, []);

  const line = useCallback((index: number) => cache.current!.line(index), []);
  return { total, line, want, refreshTail };
}
