/** How long a caller should wait before trying again while the database is away or locked. */
export const RETRY_AFTER_SECONDS = 5;

/** PostgreSQL SQLSTATE classes meaning "the server is going away or not there yet". */
const POSTGRES_UNAVAILABLE = /^(08|57P0[1-3]|53300)/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const PG_CLIENT_MESSAGES = /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|terminating connection/i;

/**
 * True for errors that say the database is briefly unusable rather than that the request is
 * wrong: PostgreSQL stopped, restarting or unreachable, or another SQLite connection holding
 * the write lock. Callers answer 503 with Retry-After, or keep the data and try again.
 * @example if (isDatabaseUnavailable(err)) return retryLater();
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = String((err as { code?: unknown }).code ?? '');
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
  if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code)) return true;
  return !code && PG_CLIENT_MESSAGES.test(String((err as { message?: unknown }).message ?? ''));
}

const RETRY_PAUSES_MS = [250, 500, 1000, 2000, 5000];

/**
 * Runs `work` until it succeeds or fails for a reason other than the database being away;
 * for writes that must land eventually (a task's final status).
 * @example const row = await retryWhileUnavailable(() => setTaskStatus(deps, id, 'success'));
 */
export async function retryWhileUnavailable<T>(work: () => Promise<T>, onRetry: (err: Error) => void = () => {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      if (attempt === 0) onRetry(err as Error);
      await new Promise((r) => setTimeout(r, RETRY_PAUSES_MS[Math.min(attempt, RETRY_PAUSES_MS.length - 1)]));
    }
  }
}
