/**
 * The rules every request the server sends to an address someone typed follows (alert
 * channels, event webhooks): http or https only, no redirects followed (a 3xx is an answer, so
 * a receiver cannot bounce the request elsewhere), a time limit, the answer's body never read
 * into memory, and error texts that never name the URL (it may hold a token).
 */

/** Why `text` cannot be an outgoing URL, or null. */
export function outgoingUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (!url.hostname) return 'must name a host';
  return null;
}

/** How a receiver answered: its status and how long the request took. */
export interface OutgoingAnswer { status: number; durationMs: number }

/** A refused or unanswered request; `message` never holds the URL. */
export class OutgoingError extends Error {
  readonly durationMs: number;
  constructor(message: string, durationMs: number) {
    super(message);
    this.durationMs = durationMs;
  }
}

/**
 * POSTs `body` to `url` with `headers`, following the rules above. Resolves with the status
 * whatever it is; rejects with an OutgoingError when nothing answered in `timeoutMs`.
 * @example const { status } = await postOutgoing(url, { 'content-type': 'application/json' }, '{}', 10_000);
 */
export async function postOutgoing(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<OutgoingAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = outgoingUrlProblem(url);
  if (problem) throw new OutgoingError(`the URL ${problem}`, 0);
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    // fetch's own reasons can name the URL, which may hold a token (Telegram, DingTalk)
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new OutgoingError(timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : 'could not reach the service', elapsed());
  }
  await res.body?.cancel().catch(() => {});
  return { status: res.status, durationMs: elapsed() };
}
