import type { AstroGlobal } from 'astro';

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
export async function apiGet<T>(astro: Pick<AstroGlobal, 'locals' | 'request'>, path: string): Promise<T> {
  const res = await astro.locals.runnerApi(path, { headers: forwardedHeaders(astro.request) });
  if (!res.ok) throw new RunnerApiError(res.status, await errorText(res));
  return (await res.json()) as T;
}

export function forwardedHeaders(request: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  const cookie = request.headers.get('cookie');
  if (cookie) headers.cookie = cookie;
  const auth = request.headers.get('authorization');
  if (auth) headers.authorization = auth;
  return headers;
}

async function errorText(res: Response): Promise<string> {
  const text = await res.text();
  try {
    return (JSON.parse(text) as { error?: string }).error ?? `${res.status} ${res.statusText}`;
  } catch {
    return `${res.status} ${res.statusText}`;
  }
}
