/** Lines rendered by the server as the dialog's first screen. */
export const FIRST_SCREEN_LINES = 100;
/** Lines per `/output?offset=&limit=` request; windows start at multiples of it. */
export const BLOCK_LINES = 1000;
/** Blocks kept in memory (50,000 lines): memory stays flat however long the log is. */
export const CACHED_BLOCKS = 50;
/** Rows rendered above and below the screen. */
export const OVERSCAN_ROWS = 10;
/** The scroll position settles this long before its lines are fetched (a scrollbar drag fires many events). */
export const FETCH_SETTLE_MS = 40;
export const LOG_ROW_PX = 22;
/** Rows assumed on screen before the browser has measured the log (the server render). */
export const FIRST_VIEW_ROWS = 60;
/**
 * The tallest scroll area made. Browsers cap element heights (Firefox near 17.9 million px), so
 * a longer log maps its scroll position proportionally onto its lines.
 */
export const MAX_SCROLL_PX = 15_000_000;
export const FLUSH_EVERY_MS = 500;

export interface LogWindow {
  /** first and last line index to render (screen plus overscan); last < first when empty */
  first: number;
  last: number;
  /** height of the scroll area */
  contentHeight: number;
  /** where line 0 would sit in the scroll area: row i is at originPx + i * LOG_ROW_PX */
  originPx: number;
}

/**
 * The lines on screen for a scroll position, for a log of `total` fixed-height rows. At the
 * bottom of the scroll area the last line touches the bottom of the screen, at any length.
 * @example visibleWindow(0, 440, 1_000_000) // { first: 0, last: 30, contentHeight: 15000000, originPx: 0 }
 */
export function visibleWindow(scrollTop: number, viewHeight: number, total: number): LogWindow {
  const contentHeight = Math.min(total * LOG_ROW_PX, MAX_SCROLL_PX);
  const maxScroll = Math.max(0, contentHeight - viewHeight);
  const top = Math.min(Math.max(scrollTop, 0), maxScroll);
  const viewRows = viewHeight / LOG_ROW_PX;
  const topLine = maxScroll > 0 ? (top / maxScroll) * Math.max(0, total - viewRows) : 0;
  return {
    first: Math.max(0, Math.floor(topLine) - OVERSCAN_ROWS),
    last: Math.min(total - 1, Math.ceil(topLine + viewRows) + OVERSCAN_ROWS),
    contentHeight,
    originPx: top - topLine * LOG_ROW_PX,
  };
}

/**
 * The scroll position that shows line `index` (0-based) in the middle of the screen: the
 * inverse of visibleWindow's mapping, for a jump to a search match.
 * @example visibleWindow(scrollTopForLine(500_000, 440, 1_000_000), 440, 1_000_000).first <= 500_000
 */
export function scrollTopForLine(index: number, viewHeight: number, total: number): number {
  const contentHeight = Math.min(total * LOG_ROW_PX, MAX_SCROLL_PX);
  const maxScroll = Math.max(0, contentHeight - viewHeight);
  const viewRows = viewHeight / LOG_ROW_PX;
  const span = Math.max(0, total - viewRows);
  if (span === 0) return 0;
  const topLine = Math.min(span, Math.max(0, index - viewRows / 2 + 0.5));
  return (topLine / span) * maxScroll;
}

/** The time column of a log line (HH:MM:SS, UTC). */
export function lineTime(time: string): string {
  return time.length >= 19 ? time.slice(11, 19) : time;
}
