// Browser script of the wall board (`/board`): listens on `/api/ws` (with the board token when
// the board was opened with one), re-reads `/api/board` after a task update and draws the tiles
// again; keeps the grid sized to the window. Made to run for days: one socket, one timer, one
// resize listener; every refresh replaces the data and the tiles, nothing accumulates.
import { listenTaskFeed, setTaskFeedPath } from '../islands/task-feed.ts';
import { boardGrid, boardTilesMarkup, type BoardDataShape, type BoardTexts } from './board-tiles.ts';

/** Updates arrive in bursts (a task's status and times): one re-read after the burst. */
const REFETCH_AFTER_MS = 60;
/** Relative times and running durations are redrawn this often, and the data re-read as a safety net. */
const REDRAW_EVERY_MS = 30_000;

/**
 * Starts the live board on the page's `#board` element; returns a stop function.
 * @example startBoard(document.getElementById('board')!)
 */
export function startBoard(root: HTMLElement): () => void {
  const grid = root.querySelector<HTMLElement>('#board-grid')!;
  const updated = root.querySelector<HTMLElement>('#board-updated');
  const texts = JSON.parse(root.dataset.texts ?? '{}') as BoardTexts;
  const lang = document.documentElement.lang || 'en';
  const api = root.dataset.api ?? '/api/board';
  setTaskFeedPath(root.dataset.ws ?? '/api/ws');
  let data: BoardDataShape | null = null;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let reading = false;
  let again = false;

  const layout = () => {
    const count = grid.children.length;
    const { cols, rows } = boardGrid(count, grid.clientWidth || innerWidth, grid.clientHeight || innerHeight);
    grid.style.setProperty('--cols', String(cols));
    grid.style.setProperty('--rows', String(rows));
    grid.dataset.measured = '';
  };
  const draw = () => {
    if (!data) return;
    grid.innerHTML = boardTilesMarkup(data.tiles, texts, lang).value;
    if (updated) updated.textContent = new Date().toLocaleTimeString(lang);
    layout();
  };
  const read = async () => {
    if (reading) { again = true; return; }
    reading = true;
    try {
      const res = await fetch(api, { headers: { accept: 'application/json' }, cache: 'no-store' });
      if (res.ok) {
        data = (await res.json()) as BoardDataShape;
        draw();
      } else if (res.status === 401) {
        // the token was revoked or the session ended: the server page says so
        location.reload();
      }
    } catch {
      // offline for a moment: the next update or the timer reads again
    } finally {
      reading = false;
      if (again) { again = false; void read(); }
    }
  };
  const soon = () => {
    clearTimeout(pending);
    pending = setTimeout(() => void read(), REFETCH_AFTER_MS);
  };
  const unsubscribe = listenTaskFeed((event) => {
    if (event.type === 'update' || event.type === 'open') soon();
  });
  const timer = setInterval(() => void read(), REDRAW_EVERY_MS);
  addEventListener('resize', layout);
  layout();
  return () => {
    unsubscribe();
    clearTimeout(pending);
    clearInterval(timer);
    removeEventListener('resize', layout);
  };
}
