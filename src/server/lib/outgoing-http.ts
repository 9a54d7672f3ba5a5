import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { outgoingAddressAllowed, type OutgoingAddressPolicy } from './outgoing-address.ts';

/**
 * The one client for every request the server sends to an address someone configured (alert
 * channels, event webhooks, runner webhooks, secret storages, OIDC providers, the audit
 * webhook): http or https only; no redirects followed (a 3xx is an answer, so a receiver
 * cannot bounce the request elsewhere); the address judged after DNS resolution, and the
 * connection made to the very address judged, under SEMAPHORE_OUTGOING_ADDRESSES; a time
 * limit; the answer read only as far as the caller asks; and one error text per kind of
 * failure, never naming the URL (it may hold a token) nor telling a closed port from a host
 * that does not exist.
 */

let policy: OutgoingAddressPolicy = 'private';

/**
 * Sets which addresses outgoing requests may reach; done once at start-up from the config.
 * @example restrictOutgoingAddresses(config.outgoing_addresses);
 */
export function restrictOutgoingAddresses(next: OutgoingAddressPolicy): void {
  policy = next;
}

/** The error texts, one per kind of failure. */
export const OUTGOING_FAILURES = {
  url: 'the URL must be an http:// or https:// URL',
  address: 'the address is not allowed for outgoing requests (SEMAPHORE_OUTGOING_ADDRESSES)',
  unreachable: 'could not reach the service',
  tooLarge: 'the answer is too large',
  timeout: (ms: number) => `no answer within ${Math.round(ms / 1000)} s`,
};

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

/** A refused or unanswered request; `message` is one of OUTGOING_FAILURES. */
export class OutgoingError extends Error {
  readonly durationMs: number;
  constructor(message: string, durationMs: number) {
    super(message);
    this.durationMs = durationMs;
  }
}

export interface OutgoingRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** how many bytes of the answer to keep (a longer answer fails); 0, the default, reads none */
  answerLimit?: number;
}

/** How a receiver answered: its status, headers, the body kept, and how long it all took. */
export interface OutgoingAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
  durationMs: number;
}

/** The refusal a guarded lookup reports, told apart from DNS failures by its code. */
const REFUSED = 'ESIGNALBOX_ADDRESS_REFUSED';

/**
 * Sends one request under the rules above. Resolves with whatever status the receiver
 * answered; rejects with an OutgoingError when the URL or address is refused, nothing could be
 * reached, nothing answered in time, or the answer is longer than `answerLimit`.
 * @example const { status, body } = await sendOutgoing(url, { method: 'GET', timeoutMs: 10_000, answerLimit: 1 << 20 });
 */
export function sendOutgoing(target: string, req: OutgoingRequest): Promise<OutgoingAnswer> {
  const started = performance.now();
  const fail = (message: string) => new OutgoingError(message, Math.round(performance.now() - started));
  if (outgoingUrlProblem(target)) return Promise.reject(fail(OUTGOING_FAILURES.url));
  const url = new URL(target);
  // the URL parser has already turned `2130706433`, `0x7f.1` and `[::ffff:127.0.0.1]` into plain addresses
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) && !outgoingAddressAllowed(literal, policy)) return Promise.reject(fail(OUTGOING_FAILURES.address));
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(url, { method: req.method ?? 'GET', headers: req.headers, lookup: guardedLookup, agent: false }, (res) => {
      readAnswer(res, req.answerLimit ?? 0).then((body) => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders(res), body, durationMs: Math.round(performance.now() - started) });
      }, () => {
        clearTimeout(timer);
        reject(fail(OUTGOING_FAILURES.tooLarge));
      });
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      reject(fail(OUTGOING_FAILURES.timeout(req.timeoutMs)));
    }, req.timeoutMs);
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      // a parse error (a service that speaks no HTTP) leaves the socket open otherwise
      outgoing.destroy();
      reject(fail(err.code === REFUSED ? OUTGOING_FAILURES.address : OUTGOING_FAILURES.unreachable));
    });
    outgoing.end(req.body);
  });
}

/**
 * POSTs `body` to `url` with `headers`; resolves with the status whatever it is.
 * @example const { status } = await postOutgoing(url, { 'content-type': 'application/json' }, '{}', 10_000);
 */
export function postOutgoing(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<OutgoingAnswer> {
  return sendOutgoing(url, { method: 'POST', headers, body, timeoutMs });
}

/**
 * `fetch` for libraries that take one (openid-client's `customFetch`), going through
 * sendOutgoing: the answer body is kept up to 1 MB and failures reject with its texts.
 */
export async function outgoingFetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }): Promise<Response> {
  const body = typeof init.body === 'string' ? init.body : init.body instanceof URLSearchParams ? init.body.toString() : undefined;
  const answer = await sendOutgoing(url, { method: init.method, headers: init.headers, body, timeoutMs: 30_000, answerLimit: 1024 * 1024 });
  const empty = answer.status === 204 || answer.status === 304;
  return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
}

/** dns.lookup that refuses a name when any address it resolves to is not allowed. */
function guardedLookup(hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: never[]) => void): void {
  const done = callback as unknown as (err: Error | null, address?: string | LookupAddress[], family?: number) => void;
  dnsLookup(hostname, { all: true, family: options.family as 0 | 4 | 6 | undefined }, (err, addresses) => {
    if (err) return done(err);
    if (!addresses.length || addresses.some(({ address }) => !outgoingAddressAllowed(address, policy))) {
      return done(Object.assign(new Error('address refused'), { code: REFUSED }));
    }
    if (options.all) return done(null, addresses);
    done(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/** The answer's body up to `limit` bytes (rejects past it); with a limit of 0 nothing is read. */
function readAnswer(res: IncomingMessage, limit: number): Promise<Buffer> {
  if (limit === 0) {
    res.destroy();
    return Promise.resolve(Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    res.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        res.destroy();
        reject(new Error('too large'));
      } else chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

function answerHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of [value ?? []].flat()) headers.append(name, one);
  }
  return headers;
}
