import type { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { newCallerMemoEnv } from '../auth/caller-memo.ts';
import type { ClientFacts } from '../http/client-facts.ts';

/** How the console reaches the runner API: a fetch-like call with a path under `/api`. */
export type RunnerApi = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * The runner API for one console page request: in-process (no network hop) by default, over
 * HTTP when SIGNALBOX_API_URL names a remote runner API. In-process calls of one page share a
 * caller memo, so the page's session is looked up once. Every call carries the browser's
 * address and scheme (`X-Real-IP`, `X-Forwarded-Proto`) as the host worked them out, so the
 * sign-in throttle and the cookie's `Secure` flag see the browser, not the console.
 * @example const runnerApi = createRunnerApi(api, ''); const res = await runnerApi('/api/projects', { headers: { cookie } });
 */
export function createRunnerApi(api: Hono<AppEnv>, remoteUrl: string, client?: ClientFacts): RunnerApi {
  const withClient = (init: RequestInit = {}): RequestInit => {
    if (!client) return init;
    const headers = new Headers(init.headers);
    headers.set('x-real-ip', client.address);
    headers.set('x-forwarded-proto', client.https ? 'https' : 'http');
    return { ...init, headers };
  };
  if (remoteUrl) return (path, init) => fetch(remoteUrl + path, withClient(init));
  const env = newCallerMemoEnv();
  return async (path, init) => api.request(path, withClient(init), env);
}
