import type { TaskOutputLine } from '../console/types.ts';

/** Lines rendered by the server as the dialog's first screen. */
export const FIRST_SCREEN_LINES = 100;
/** Lines fetched per `/output?offset=&limit=` page. */
export const OUTPUT_PAGE_SIZE = 1000;
export const LOG_ROW_PX = 22;
export const FLUSH_EVERY_MS = 500;
export const RECONNECT_AFTER_MS = 2000;

/**
 * Appends lines that are not already at the tail (a websocket line may also arrive in a page
 * fetched meanwhile); compares against the last lines only, so appends stay cheap.
 * @example appendNewLines(lines, incoming)
 */
export function appendNewLines(current: TaskOutputLine[], incoming: TaskOutputLine[]): TaskOutputLine[] {
  if (incoming.length === 0) return current;
  const tail = new Set(current.slice(-incoming.length - 50).map(lineKey));
  const fresh = incoming.filter((line) => !tail.has(lineKey(line)));
  return fresh.length ? current.concat(fresh) : current;
}

function lineKey(line: TaskOutputLine): string {
  return `${line.time}\u0000${line.output}`;
}

/** The time column of a log line (HH:MM:SS, UTC). */
export function lineTime(time: string): string {
  return time.length >= 19 ? time.slice(11, 19) : time;
}
