// Browser script of the dashboard pages: keeps the task table current from `/api/ws` (re-reading
// the page's own server-rendered table, so no rendering code ships; what someone typed or ticked
// in it stays, live-swap.ts), and mirrors the
// preferences the server rendered into localStorage.

import { listenTaskFeed } from '../islands/task-feed.ts';
import { swapLivePart } from './live-swap.ts';

const REFRESH_DEBOUNCE_MS = 500;

/**
 * Keeps the element `#live-region` current for the project (0: every project) from the page's
 * task feed, the socket the task dialog listens to as well; returns a stop function.
 * @example startLiveDashboard(3)
 */
export function startLiveDashboard(projectId: number): () => void {
  let pending: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(() => void replaceLiveRegion(), REFRESH_DEBOUNCE_MS);
  };
  const unsubscribe = listenTaskFeed((event) => {
    if (event.type === 'update' && (projectId === 0 || event.project_id === projectId)) refresh();
  });
  return () => {
    unsubscribe();
    clearTimeout(pending);
  };
}

async function replaceLiveRegion(): Promise<void> {
  const url = new URL(location.href);
  url.searchParams.delete('t');
  const res = await fetch(url, { headers: { accept: 'text/html' } });
  if (!res.ok) return;
  const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('live-region');
  const current = document.getElementById('live-region');
  if (!fresh || !current) return;
  swapLivePart(current, fresh);
  document.dispatchEvent(new Event('live-region:replaced'));
}

/** Copies the server-rendered language and theme (and the current project) into localStorage. */
export function mirrorPreferences(projectId: number): void {
  const body = document.body.dataset;
  if (body.lang) localStorage.setItem('lang', body.lang);
  localStorage.setItem('theme', body.themePref ?? '');
  if (projectId) localStorage.setItem('last_project', String(projectId));
}
