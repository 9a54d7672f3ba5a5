import type { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { newCallerMemoEnv } from '../auth/caller-memo.ts';

/** How the console reaches the runner API: a fetch-like call with a path under `/api`. */
export type RunnerApi = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * The runner API for one console page request: in-process (no network hop) by default, over
 * HTTP when SIGNALBOX_API_URL names a remote runner API. In-process calls of one page share a
 * caller memo, so the page's session is looked up once.
 * @example const runnerApi = createRunnerApi(api, ''); const res = await runnerApi('/api/projects', { headers: { cookie } });
 */
export function createRunnerApi(api: Hono<AppEnv>, remoteUrl: string): RunnerApi {
  if (remoteUrl) return (path, init) => fetch(remoteUrl + path, init);
  const env = newCallerMemoEnv();
  return async (path, init) => api.request(path, init, env);
}
