/**
 * Whether a browser sent this request from a page of another origin. A present `Origin` decides:
 * it must be the server's own (the `Host` the request came to) or `SEMAPHORE_WEB_ROOT`'s. Without
 * one, `Sec-Fetch-Site: cross-site|same-site` still marks a foreign page; requests with neither
 * header come from scripts and servers, which cookies do not follow, and pass.
 * @example isForeignRequest((n) => req.headers.get(n), 'https://ops.example.com') // false for our own pages
 */
export function isForeignRequest(header: (name: string) => string | null | undefined, webRoot: string): boolean {
  const origin = header('origin');
  if (origin) return !isOwnOrigin(origin, header('host'), webRoot);
  const site = header('sec-fetch-site');
  return site === 'cross-site' || site === 'same-site';
}

function isOwnOrigin(origin: string, host: string | null | undefined, webRoot: string): boolean {
  let from: URL;
  try {
    from = new URL(origin);
  } catch {
    return false; // `null` (sandboxed frames, file: pages) and garbage are foreign
  }
  if (webRoot && from.origin === originOf(webRoot)) return true;
  return Boolean(host) && from.host === originOf(`${from.protocol}//${host}`, 'host');
}

function originOf(url: string, part: 'origin' | 'host' = 'origin'): string | undefined {
  try {
    return new URL(url)[part];
  } catch {
    return undefined;
  }
}

/** Methods that change state; only these need the origin check. */
export function isStateChanging(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());
}
