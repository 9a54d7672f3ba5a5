import type { Context } from 'hono';
import type { Caller } from './caller.ts';

/**
 * The console renders a page with several in-process API calls made with the same session.
 * The host hands each page request one memo (through Hono's env, which outside callers cannot
 * set), so the session is looked up once per page instead of once per call.
 */
export interface CallerMemoEnv {
  callerMemo: Map<string, Caller>;
}

export function newCallerMemoEnv(): CallerMemoEnv {
  return { callerMemo: new Map() };
}

export function callerMemoOf(c: Context): Map<string, Caller> | undefined {
  const env = c.env as Partial<CallerMemoEnv> | undefined;
  return env?.callerMemo instanceof Map ? env.callerMemo : undefined;
}
