import type { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';

/** How the console reaches the runner API: a fetch-like call with a path under `/api`. */
export type RunnerApi = (path: string, init?: RequestInit) => Promise<Response>;

/**
 * In-process (no network hop) by default; over HTTP when SIGNALBOX_API_URL names a remote runner API.
 * @example const res = await runnerApi('/api/projects', { headers: { cookie } });
 */
export function createRunnerApi(api: Hono<AppEnv>, remoteUrl: string): RunnerApi {
  if (remoteUrl) return (path, init) => fetch(remoteUrl + path, init);
  return async (path, init) => api.request(path, init);
}
