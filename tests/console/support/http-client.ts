import { ADMIN } from './console-server.ts';

export interface PageResponse { status: number; location: string | null; html: string; headers: Headers }

/**
 * A cookie-keeping HTTP client for console pages (redirects not followed), for checks that need
 * no browser.
 * @example const client = createClient(url); await client.signIn(); await client.get('/project/new');
 */
export function createClient(baseUrl: string) {
  const jar = new Map<string, string>();
  const request = async (method: string, path: string, form?: Record<string, string>, extra: Record<string, string> = {}): Promise<PageResponse> => {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), 'accept-language': 'en', ...extra };
    let body: string | undefined;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(form).toString();
    }
    const res = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === '') jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    return { status: res.status, location: res.headers.get('location'), html: await res.text(), headers: res.headers };
  };
  return {
    jar,
    get: (path: string) => request('GET', path),
    /** POSTs a form, with `headers` besides the client's own when given. */
    post: (path: string, form: Record<string, string>, headers: Record<string, string> = {}) => request('POST', path, form, headers),
    /** Signs in as the admin, or as `login` with `password`. */
    signIn: async (login = ADMIN.login, password = ADMIN.password) => {
      const res = await request('POST', '/auth/login?next=/', { step: 'password', auth: login, password });
      if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
    },
  };
}
