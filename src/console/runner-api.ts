import type { AstroGlobal } from 'astro';
import type { ApiAnswer } from '../server/host/runner-api-client.ts';

type AstroLike = Pick<AstroGlobal, 'locals' | 'request'>;

export class RunnerApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/**
 * Calls the runner API as the signed-in user (their cookie forwarded) and returns its JSON (in
 * process, the object the route answered with: see runnerApi.read). A failed call throws
 * RunnerApiError with the API's status.
 * @example const projects = await apiGet<Project[]>(Astro, '/api/projects');
 */
export async function apiGet<T>(astro: AstroLike, path: string): Promise<T> {
  return (await readOk(astro, path)).body as T;
}

/** GET as the signed-in user, its body read; RunnerApiError unless it succeeded. */
async function readOk(astro: AstroLike, path: string): Promise<ApiAnswer> {
  const answer = await astro.locals.runnerApi.read(path, { headers: forwardedHeaders(astro.request) });
  if (!answer.ok) throw new RunnerApiError(answer.status, answerErrorText(answer));
  return answer;
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
 * A form posted with this header (`1`) asks only for its messages: the form loop checks the
 * values as for a submit and answers `{ "errors": { field: message } }` as JSON. The browser's
 * form check (components/form-check.ts) asks it while a person types, so a message appears and
 * goes away with the value, in the seed's wording, from the one place that decides it. Such a
 * request never changes anything: apiSend refuses every write it would make (a page whose form
 * is not this loop's answers its HTML, which the check ignores).
 */
export const FORM_CHECK_HEADER = 'x-signalbox-form-check';

/** True for a form check's request (FORM_CHECK_HEADER). */
export const isFormCheck = (request: Request): boolean => request.headers.get(FORM_CHECK_HEADER) === '1';

/**
 * POST/PUT/DELETE to the runner API as the signed-in user; returns the raw response.
 * @example const res = await apiSend(Astro, 'PUT', `/api/project/${id}`, project);
 */
export async function apiSend(astro: AstroLike, method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
  // a form check only asks for messages (form-loop.ts): whatever page answers it, nothing is written
  if (method !== 'GET' && isFormCheck(astro.request)) {
    return Response.json({ error: 'a form check changes nothing' }, { status: 409 });
  }
  return sendAsUser(astro, method, path, body, extraHeaders);
}

/**
 * A POST that only asks the API about a value (a `…/validate` route): allowed during a form check.
 * @example const res = await apiAsk(Astro, `/api/project/3/schedules/validate`, { cron_format: '* * * * *' });
 */
export function apiAsk(astro: AstroLike, path: string, body: unknown): Promise<Response> {
  return sendAsUser(astro, 'POST', path, body, {});
}

function sendAsUser(astro: AstroLike, method: string, path: string, body: unknown, extraHeaders: Record<string, string>): Promise<Response> {
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
    return answerErrorText({ status: res.status, statusText: res.statusText, body: JSON.parse(text) as unknown });
  } catch {
    return `${res.status} ${res.statusText}`;
  }
}

/** readErrorText of an answer whose body was read already (runnerApi.read). */
export function answerErrorText(answer: Pick<ApiAnswer, 'status' | 'statusText' | 'body'>): string {
  const { body } = answer;
  const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  return typeof error === 'string' ? error : `${answer.status} ${answer.statusText}`;
}

/**
 * GET of a paged list (`?offset=&limit=`): the rows and the `X-Total-Count` total (the row
 * count when the header is missing).
 * @example const { items, total } = await apiGetPage<Task>(Astro, `/api/project/1/tasks?offset=0&limit=20`);
 */
export async function apiGetPage<T>(astro: AstroLike, path: string): Promise<{ items: T[]; total: number }> {
  const answer = await readOk(astro, path);
  const items = answer.body as T[];
  const total = Number(answer.headers.get('x-total-count') ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

/**
 * A cursor page of a list (`X-Has-Next`: older rows follow, `X-Has-Prev`: newer rows precede,
 * `X-Next-Cursor`: what reads the next page).
 * @example const { items, hasOlder } = await apiGetCursorPage<Task>(Astro, `/api/project/3/tasks?before_id=0&limit=20`);
 */
export async function apiGetCursorPage<T>(astro: AstroLike, path: string): Promise<{ items: T[]; hasOlder: boolean; hasNewer: boolean; nextCursor: string | null }> {
  const { body, headers } = await readOk(astro, path);
  return {
    items: body as T[], hasOlder: headers.get('x-has-next') === 'true', hasNewer: headers.get('x-has-prev') === 'true',
    nextCursor: headers.get('x-next-cursor'),
  };
}
