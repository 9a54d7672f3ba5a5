/** Largest request body the runner API takes (backups of big projects fit comfortably). */
export const API_BODY_LIMIT = 10 * 1024 * 1024;

/** Largest request body a console page takes: its forms are a few kilobytes. */
export const CONSOLE_BODY_LIMIT = 1024 * 1024;

/**
 * Console pages that take an upload: the restore page posts a backup file, which the API then
 * takes as one JSON body, so the page allows that much plus room for the form around it.
 */
const CONSOLE_UPLOAD_LIMITS = new Map<string, number>([['/project/restore', API_BODY_LIMIT + 64 * 1024]]);

/**
 * The body limit of a console path (query string ignored).
 * @example consoleBodyLimit('/project/restore') // 10 MB + 64 KB; consoleBodyLimit('/auth/login') // 1 MB
 */
export function consoleBodyLimit(path: string): number {
  const pathname = path.split('?')[0]!.replace(/\/+$/, '') || '/';
  return CONSOLE_UPLOAD_LIMITS.get(pathname) ?? CONSOLE_BODY_LIMIT;
}
