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

/**
 * Where a scroll position is in the log: the clamped scroll top and the (fractional) line at the
 * top of the screen. Up to MAX_SCROLL_PX a row is LOG_ROW_PX; above it the position maps
 * proportionally, and at the bottom of the scroll area the last line touches the bottom of the
 * screen, at any length.
 * @example scrollPosition(0, 440, 1_000_000) // { top: 0, topLine: 0 }
 */
export function scrollPosition(scrollTop: number, viewHeight: number, total: number): { top: number; topLine: number } {
  const maxScroll = Math.max(0, Math.min(total * LOG_ROW_PX, MAX_SCROLL_PX) - viewHeight);
  const top = Math.min(Math.max(scrollTop, 0), maxScroll);
  const topLine = maxScroll > 0 ? (top / maxScroll) * Math.max(0, total - viewHeight / LOG_ROW_PX) : 0;
  return { top, topLine };
}

/**
 * The scroll position that shows line `index` (0-based) in the middle of the screen: the
 * inverse of scrollPosition's mapping, for a jump to a search match.
 * @example scrollPosition(scrollTopForLine(500_000, 440, 1_000_000), 440, 1_000_000).topLine <= 500_000
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
