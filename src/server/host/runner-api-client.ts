import type { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { newCallerMemoEnv } from '../auth/caller-memo.ts';
import type { ClientFacts } from '../lib/client-facts.ts';
import { handedOver, handoverEnv } from '../http/object-handover.ts';

/** How the console reaches the runner API: a fetch-like call with a path under `/api`. */
export interface RunnerApi {
  (path: string, init?: RequestInit): Promise<Response>;
  /**
   * The same call for an answer read as JSON: in-process, the object the route answered with
   * (a JSON-equal copy, never written as text; see object-handover.ts), else its body parsed.
   */
  read(path: string, init?: RequestInit): Promise<ApiAnswer>;
  /**
   * Which runner API this is: the same object for every request to one API (the in-process app,
   * or one object per remote URL), so a page can keep what it learnt per API, also when several
   * servers share a process (tests) and one reuses a closed one's port.
   */
  readonly target: object;
}

/** One stable target per remote runner API URL. */
const REMOTE_TARGETS = new Map<string, object>();

function remoteTarget(url: string): object {
  let target = REMOTE_TARGETS.get(url);
  if (!target) REMOTE_TARGETS.set(url, target = Object.freeze({ url }));
  return target;
}

/** An answer of the runner API with its body read. */
export interface ApiAnswer {
  status: number;
  statusText: string;
  ok: boolean;
  headers: Headers;
  /**
   * The body as JSON. A successful answer whose body is not JSON throws (as `res.json()`
   * does); a failed one gives `undefined` instead (an empty or plain-text error).
   */
  body: unknown;
}

/**
 * The runner API for one console page request: in-process (no network hop) by default, over
 * HTTP when SIGNALBOX_API_URL names a remote runner API. In-process calls of one page share a
 * caller memo, so the page's session is looked up once. Every call carries the browser's
 * address and scheme (`X-Real-IP`, `X-Forwarded-Proto`) as the host worked them out, so the
 * sign-in throttle and the cookie's `Secure` flag see the browser, not the console; and an
 * identity-aware proxy's assertion (`assertion`, the header and its value) when the browser's request had one.
 * @example const runnerApi = createRunnerApi(api, ''); const res = await runnerApi('/api/projects', { headers: { cookie } });
 */
export function createRunnerApi(api: Hono<AppEnv>, remoteUrl: string, client?: ClientFacts, assertion?: { name: string; value: string } | null): RunnerApi {
  const withClient = (init: RequestInit = {}): RequestInit => {
    if (!client && !assertion) return init;
    const headers = new Headers(init.headers);
    if (client) {
      headers.set('x-real-ip', client.address);
      headers.set('x-forwarded-proto', client.https ? 'https' : 'http');
    }
    if (assertion) headers.set(assertion.name, assertion.value);
    return { ...init, headers };
  };
  if (remoteUrl) {
    const call = (path: string, init?: RequestInit) => fetch(remoteUrl + path, withClient(init));
    return Object.assign(call, { read: async (path: string, init?: RequestInit) => readAnswer(await call(path, init), undefined), target: remoteTarget(remoteUrl) });
  }
  const env = newCallerMemoEnv();
  const call = async (path: string, init?: RequestInit) => api.request(path, withClient(init), env);
  const read = async (path: string, init?: RequestInit) => {
    const marked = handoverEnv(env);
    const res = await api.request(path, withClient(init), marked);
    return readAnswer(res, handedOver(marked, res));
  };
  return Object.assign(call, { read, target: api });
}

async function readAnswer(res: Response, handed: { value: unknown } | undefined): Promise<ApiAnswer> {
  const answer = { status: res.status, statusText: res.statusText, ok: res.ok, headers: res.headers };
  if (handed) return { ...answer, body: handed.value };
  if (res.ok) return { ...answer, body: await res.json() };
  const text = await res.text();
  try {
    return { ...answer, body: JSON.parse(text) };
  } catch {
    return { ...answer, body: undefined };
  }
}
