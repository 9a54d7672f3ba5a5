// Browser script of the workflow run page: re-reads the page's own server-rendered graph, node
// list and history (`#wf-live`) when the run or one of its tasks changes on `/api/ws`, keeping an
// approval comment being typed (live-swap.ts), and counts down a waiting delay or approval
// deadline. No rendering code ships.

import { listenTaskFeed } from '../islands/task-feed.ts';
import { swapLivePart } from './live-swap.ts';

const REFRESH_DEBOUNCE_MS = 150;

/**
 * Keeps `#wf-live` current for run `runId` of project `projectId`; returns a stop function.
 * @example startWorkflowRunLive(3, 42)
 */
export function startWorkflowRunLive(projectId: number, runId: number): () => void {
  let pending: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(() => void replaceLive(), REFRESH_DEBOUNCE_MS);
  };
  const unsubscribe = listenTaskFeed((event) => {
    const e = event as { type: string; project_id?: number; run_id?: number; task_id?: number };
    if (e.type === 'open') refresh();
    else if (e.type === 'workflow' && e.run_id === runId) refresh();
    else if (e.type === 'update' && e.project_id === projectId && taskIds().has(e.task_id ?? -1)) refresh();
  });
  const ticker = setInterval(tickCountdowns, 1000);
  tickCountdowns();
  return () => {
    unsubscribe();
    clearInterval(ticker);
    clearTimeout(pending);
  };
}

function taskIds(): Set<number> {
  return new Set([...document.querySelectorAll<HTMLElement | SVGElement>('[data-task-id]')].map((el) => Number(el.dataset.taskId)).filter((id) => id > 0));
}

async function replaceLive(): Promise<void> {
  const res = await fetch(location.href, { headers: { accept: 'text/html' } });
  if (!res.ok) return;
  const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('wf-live');
  const current = document.getElementById('wf-live');
  if (fresh && current) {
    swapLivePart(current, fresh);
    tickCountdowns();
  }
}

/** The time left until each `data-due` time ("0:42"), in the words of its `data-left` ("{{time}} left"). */
function tickCountdowns(): void {
  for (const el of document.querySelectorAll<SVGTextElement | HTMLElement>('[data-due]')) {
    const left = Math.max(0, Math.round((new Date(el.dataset.due!).getTime() - Date.now()) / 1000));
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    el.textContent = (el.dataset.left ?? '{{time}}').replace('{{time}}', time);
  }
}
