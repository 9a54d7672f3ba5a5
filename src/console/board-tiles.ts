// The wall board's tiles as markup: the server renders the page with it, and the board's
// browser script renders the same tiles again from `/api/board` after every task update, so a
// tile looks the same whichever drew it. Browser-safe: no Node modules, icons as inline paths.
import { html, type SafeHtml } from './html.ts';
import { formatDuration, formatSeconds, relativeTimeParts, type DurationUnits } from './format.ts';
import { statusLook } from './task-status.ts';
import { STATUS_ICONS } from '../components/status-icons.ts';
import { taskStarter, type StarterKey } from './task-starter.ts';

/** A tile as `GET /api/board` answers it. */
export interface BoardTileData {
  kind: 'template' | 'view';
  id: number;
  name: string;
  project_id: number;
  project_name: string;
  task: {
    id: number; status: string; user_name: string; created: string; start: string | null; end: string | null;
    integration_id?: number | null; schedule_id?: number | null; build_task_id?: number | null;
  } | null;
  estimate_ms: number | null;
  fail_streak: number;
  /** tasks waiting in the queue (absent from an older server) */
  queued?: number;
}

export interface BoardDataShape {
  by: 'template' | 'view';
  view_id: number | null;
  projects: Array<{ id: number; name: string }>;
  tiles: BoardTileData[];
}

/** The words tiles use, in the reader's language (the server hands them to the script once). */
export interface BoardTexts {
  /** status labels by status; an unknown status shows as it is */
  status: Record<string, string>;
  never: string;
  /** "{{count}} failures in a row" */
  streak: string;
  /** "{{n}} queued" */
  queued: string;
  /** "by {{name}}" */
  by: string;
  /** who started a task when no user did ("Schedule #{{id}}" …), as the history words it */
  starter: Record<StarterKey, string>;
  /** "about {{duration}} left" */
  left: string;
  overdue: string;
  empty: string;
  units: DurationUnits;
}

const ACTIVE = new Set(['waiting', 'starting', 'running', 'waiting_confirmation', 'confirmed', 'stopping']);

/** Icons made once each: a board draws 200 tiles, and escaping each icon's path was a third of that. */
const ICONS = new Map<string, SafeHtml>();

function statusIcon(status: string | null): SafeHtml {
  const [, icon] = status === null ? ['neutral', 'waiting' as const] : statusLook(status);
  let markup = ICONS.get(icon);
  if (!markup) {
    markup = html`<svg class="tile-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="${STATUS_ICONS[icon]}"></path></svg>`;
    ICONS.set(icon, markup);
  }
  return markup;
}

function fill(template: string, name: string, value: string | number): string {
  return template.replace(`{{${name}}}`, String(value));
}

/** The progress bar of a running task: CSS animates it from what has passed to the estimate. */
function progress(task: NonNullable<BoardTileData['task']>, estimateMs: number | null, texts: BoardTexts, now: number): SafeHtml {
  if (!task.start || !ACTIVE.has(task.status)) return html``;
  const elapsed = Math.max(0, now - Date.parse(task.start));
  if (!estimateMs) return html`<div class="tile-progress tile-progress-unknown"><span></span></div>`;
  const percent = Math.min(100, Math.round((elapsed / estimateMs) * 100));
  const leftMs = estimateMs - elapsed;
  const label = leftMs > 0 ? fill(texts.left, 'duration', formatSeconds(Math.ceil(leftMs / 1000), texts.units)) : texts.overdue;
  return html`<div class="tile-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${percent}" aria-label="${label}"
    style="--done:${percent}%;--estimate:${Math.round(estimateMs)}ms;--elapsed:${-Math.round(elapsed)}ms"><span></span></div><p class="tile-left">${label}</p>`;
}

function tileMarkup(tile: BoardTileData, texts: BoardTexts, lang: string, now: number): SafeHtml {
  const task = tile.task;
  const status = task?.status ?? null;
  const [tone] = status === null ? ['neutral'] : statusLook(status);
  const label = status === null ? texts.never : (Object.hasOwn(texts.status, status) ? texts.status[status]! : status);
  const when = task ? relativeTimeParts(task.start ?? task.created, lang, now)?.[0] ?? '' : '';
  const duration = task?.start ? formatDuration(task.start, task.end, texts.units, now) : '';
  const starter = task ? taskStarter(task, (key, vars) => fill(texts.starter[key], 'id', vars.id)) : '';
  const who = starter ? fill(texts.by, 'name', starter) : '';
  // one failure the status says already; from two on the tile counts them
  const streak = tile.fail_streak > 1 ? html`<p class="tile-streak">${statusIcon('error')}${fill(texts.streak, 'n', tile.fail_streak)}</p>` : '';
  const queued = tile.queued ? html`<p class="tile-queued">${statusIcon('waiting')}${fill(texts.queued, 'n', tile.queued)}</p>` : '';
  return html`<li class="tile tone-${tone}${tile.fail_streak > 0 ? ' tile-failing' : ''}" data-tile="${tile.kind}-${tile.id}" data-status="${status ?? 'none'}"><div class="tile-body">
<p class="tile-status" style="--len:${label.length}">${statusIcon(status)}<span>${label}</span></p>
${streak}${queued}<p class="tile-name" title="${tile.name}">${tile.name}</p>
<p class="tile-project">${tile.project_name}</p>
${task ? html`<p class="tile-meta">${[when, duration].filter(Boolean).join(' · ')}</p>${who ? html`<p class="tile-meta">${who}</p>` : ''}` : ''}
${task ? progress(task, tile.estimate_ms, texts, now) : ''}</div></li>`;
}

/**
 * The tiles of a board as one `<li>` each (failures first, as the API orders them).
 * @example boardTilesMarkup(data.tiles, texts, 'en').value
 */
export function boardTilesMarkup(tiles: readonly BoardTileData[], texts: BoardTexts, lang: string, now = Date.now()): SafeHtml {
  if (!tiles.length) return html`<li class="board-empty">${texts.empty}</li>`;
  return html`${tiles.map((tile) => tileMarkup(tile, texts, lang, now))}`;
}

/** How tiles of about 8:5 best fill a `width` × `height` area: the column and row counts. */
export function boardGrid(count: number, width: number, height: number): { cols: number; rows: number } {
  const n = Math.max(1, count);
  let best = { cols: 1, rows: n, scale: 0 };
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const scale = Math.min(width / cols / 1.6, height / rows);
    if (scale > best.scale) best = { cols, rows, scale };
  }
  return { cols: best.cols, rows: best.rows };
}
