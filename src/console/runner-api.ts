import type { AstroGlobal } from 'astro';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

export class RunnerApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Calls the runner API as the signed-in user (their cookie forwarded) and returns parsed JSON.
 * @example const projects = await apiGet<Project[]>(Astro, '/api/projects');
 */
export async function apiGet<T>(astro: AstroLike, path: string): Promise<T> {
  const res = await astro.locals.runnerApi(path, { headers: forwardedHeaders(astro.request) });
  if (!res.ok) throw new RunnerApiError(res.status, await readErrorText(res));
  return (await res.json()) as T;
}

/**
 * Like apiGet, but answers `fallback` when the route is missing (404) — for routes other parts
 * of the runner API provide, so a screen shows its empty state until they land.
 * @example const events = await apiGetOr(Astro, `/api/project/${id}/events`, []);
 */
export async function apiGetOr<T>(astro: AstroLike, path: string, fallback: T): Promise<T> {
  try {
    return await apiGet<T>(astro, path);
  } catch (err) {
    if (err instanceof RunnerApiError && (err.status === 404 || err.status === 405)) return fallback;
    throw err;
  }
}

/**
 * POST/PUT/DELETE to the runner API as the signed-in user; returns the raw response.
 * @example const res = await apiSend(Astro, 'PUT', `/api/project/${id}`, project);
 */
export async function apiSend(astro: AstroLike, method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
  const headers = { ...forwardedHeaders(astro.request), ...extraHeaders };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return astro.locals.runnerApi(path, init);
}

/** The session cookie and bearer token of the browser request, to act as that user. */
export function forwardedHeaders(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookie = request.headers.get('cookie');
  if (cookie) headers.cookie = cookie;
  const auth = request.headers.get('authorization');
  if (auth) headers.authorization = auth;
  // the audit trail records the browser's agent, not the console's
  const agent = request.headers.get('user-agent');
  if (agent) headers['user-agent'] = agent;
  return headers;
}

/** The `error` field of an API error body, else the status line (seed 000 §8 order). */
export async function readErrorText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as { error?: string }).error ?? `${res.status} ${res.statusText}`;
  } catch {
    return `${res.status} ${res.statusText}`;
  }
}

/**
 * GET of a paged list (`?offset=&limit=`): the rows and the `X-Total-Count` total (the row
 * count when the header is missing).
 * @example const { items, total } = await apiGetPage<Task>(Astro, `/api/project/1/tasks?offset=0&limit=20`);
 */
export async function apiGetPage<T>(astro: AstroLike, path: string): Promise<{ items: T[]; total: number }> {
  const res = await astro.locals.runnerApi(path, { headers: forwardedHeaders(astro.request) });
  if (!res.ok) throw new RunnerApiError(res.status, await readErrorText(res));
  const items = (await res.json()) as T[];
  const total = Number(res.headers.get('x-total-count') ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

/**
 * A cursor page of a list (`X-Has-Next`: older rows follow, `X-Has-Prev`: newer rows precede,
 * `X-Next-Cursor`: what reads the next page).
 * @example const { items, hasOlder } = await apiGetCursorPage<Task>(Astro, `/api/project/3/tasks?before_id=0&limit=20`);
 */
export async function apiGetCursorPage<T>(astro: AstroLike, path: string): Promise<{ items: T[]; hasOlder: boolean; hasNewer: boolean; nextCursor: string | null }> {
  const res = await astro.locals.runnerApi(path, { headers: forwardedHeaders(astro.request) });
  if (!res.ok) throw new RunnerApiError(res.status, await readErrorText(res));
  return {
    items: (await res.json()) as T[], hasOlder: res.headers.get('x-has-next') === 'true', hasNewer: res.headers.get('x-has-prev') === 'true',
    nextCursor: res.headers.get('x-next-cursor'),
  };
}
