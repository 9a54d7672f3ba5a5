/**
 * Snackbar messages a redirect may announce with `?flash=<key>&name=<name>`. A key names a
 * message under `flash.` in the locale files; a key the locale does not know shows nothing,
 * so a crafted link cannot put arbitrary text on screen. Keys ending in `_failed` are errors.
 */
const FLASH_KEY = /^[a-z][a-z_]{0,47}$/;

/** The flash of a URL when its key is well formed, else null; the page shows it only if translated. */
export function readFlash(url: URL): { key: string; name: string; error: boolean } | null {
  const key = url.searchParams.get('flash');
  if (!key || !FLASH_KEY.test(key)) return null;
  return { key, name: url.searchParams.get('name') ?? '', error: key.endsWith('_failed') };
}

/**
 * A redirect target carrying a snackbar message.
 * @example flashPath('/project/3/history', 'project_created', 'Web')
 */
export function flashPath(path: string, key: string, name = ''): string {
  const url = new URL(path, 'http://x');
  url.searchParams.set('flash', key);
  if (name) url.searchParams.set('name', name);
  return url.pathname + url.search;
}
