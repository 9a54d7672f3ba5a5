/** Snackbar messages a redirect may announce with `?flash=<key>&name=<name>`. */
export const FLASH_KEYS = [
  'project_created', 'project_saved', 'project_deleted', 'project_restored', 'cache_cleared', 'task_stopped',
  'task_confirmed', 'task_rejected', 'action_failed', 'totp_removed', 'user_created', 'user_saved', 'user_deleted',
  'token_deleted', 'session_revoked', 'password_changed', 'totp_disabled', 'app_saved', 'app_deleted',
] as const;

/** The flash key of a URL when it is one we know, else null. */
export function readFlash(url: URL): { key: string; name: string } | null {
  const key = url.searchParams.get('flash');
  if (!key || !(FLASH_KEYS as readonly string[]).includes(key)) return null;
  return { key, name: url.searchParams.get('name') ?? '' };
}

/**
 * A redirect target carrying a snackbar message.
 * @example flashPath('/project/3/history', 'project_created', 'Web')
 */
export function flashPath(path: string, key: (typeof FLASH_KEYS)[number], name = ''): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set('flash', key);
  if (name) url.searchParams.set('name', name);
  return url.pathname + url.search;
}
