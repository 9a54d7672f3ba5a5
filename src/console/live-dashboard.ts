// Browser script of the dashboard pages: keeps the task table current from `/api/ws` (re-reading
// the page's own server-rendered table, so no rendering code ships), and mirrors the
// preferences the server rendered into localStorage.

const RECONNECT_AFTER_MS = 2000;
const REFRESH_DEBOUNCE_MS = 500;

/**
 * Starts live updates of the element `#live-region` for the project; returns a stop function.
 * @example startLiveDashboard(3)
 */
export function startLiveDashboard(projectId: number): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(() => void replaceLiveRegion(), REFRESH_DEBOUNCE_MS);
  };
  const open = () => {
    socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
    socket.onmessage = (event) => {
      const message = JSON.parse(String(event.data)) as { type?: string; project_id?: number };
      if (message.type === 'update' && (projectId === 0 || message.project_id === projectId)) refresh();
    };
    socket.onclose = () => {
      if (!stopped) reconnect = setTimeout(open, RECONNECT_AFTER_MS);
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(pending);
    clearTimeout(reconnect);
    socket?.close();
  };
}

async function replaceLiveRegion(): Promise<void> {
  const url = new URL(location.href);
  url.searchParams.delete('t');
  const res = await fetch(url, { headers: { accept: 'text/html' } });
  if (!res.ok) return;
  const fresh = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('live-region');
  const current = document.getElementById('live-region');
  if (fresh && current) current.replaceWith(fresh);
}

/** Copies the server-rendered language and theme (and the current project) into localStorage. */
export function mirrorPreferences(projectId: number): void {
  const body = document.body.dataset;
  if (body.lang) localStorage.setItem('lang', body.lang);
  localStorage.setItem('theme', body.themePref ?? '');
  if (projectId) localStorage.setItem('last_project', String(projectId));
}
