import type { Context, MiddlewareHandler } from 'hono';

/**
 * In-process console calls hand the API's JSON answers over as objects instead of writing them
 * as text and parsing them back. The host marks such a call with a slot in Hono's `env` under
 * this module's private symbol: `env` is not part of the HTTP request, so no remote client can
 * ask for it (HTTP requests get `{ incoming, outgoing }` from the Node adapter).
 */
const HANDOVER = Symbol('signalbox.objectHandover');

/** Where a marked call's answer leaves its object: the bodiless response and what its body would have said. */
export interface HandoverSlot {
  response: Response | undefined;
  value: unknown;
}

export type HandoverEnv<E extends object> = E & { [HANDOVER]: HandoverSlot };

/** An env for one marked call, carrying `env`'s own fields (the page's caller memo) beside a new slot. */
export function handoverEnv<E extends object>(env: E): HandoverEnv<E> {
  return { ...env, [HANDOVER]: { response: undefined, value: undefined } };
}

/**
 * The object a marked call's answer carries, when `res` is the bodiless answer `c.json` made;
 * `undefined` when the answer has a body of its own (text, a stream, a route that wrote its own
 * JSON) or none at all — read the body then, as over HTTP.
 */
export function handedOver(env: HandoverEnv<object>, res: Response): { value: unknown } | undefined {
  const slot = env[HANDOVER];
  return slot.response === res ? { value: slot.value } : undefined;
}

function slotOf(c: Context): HandoverSlot | undefined {
  const env = c.env as Partial<Record<typeof HANDOVER, HandoverSlot>> | undefined;
  return env?.[HANDOVER];
}

/**
 * The first middleware of the API. For a marked call, `c.json` answers with the status and
 * headers it would have sent (`Content-Type: application/json` included) but no body, and leaves
 * a JSON-equal copy of the object in the call's slot (see jsonCopy: what `JSON.parse` of the body
 * would have given, sharing nothing with the API's own objects, errors thrown where
 * `JSON.stringify` would throw). Everything else — authentication, project scope, permission
 * checks, audit, error answers (`{error}` through the same `c.json`) — runs as for any request.
 * Middleware after it sees a bodiless response: compression leaves it alone (and the console's
 * calls send no Accept-Encoding anyway). Unmarked requests are not touched.
 */
export function handOverObjects(): MiddlewareHandler {
  return async function handOver(c, next) {
    const slot = slotOf(c);
    if (!slot) return next();
    c.json = ((object: unknown, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => {
      const value = jsonCopy(object, '');
      const respond = c.newResponse as (data: null, arg?: number | ResponseInit, headers?: Record<string, string | string[]>) => Response;
      const res = respond(null, arg, { ...headers, 'content-type': jsonType(headers) });
      slot.response = res;
      slot.value = value;
      return res;
    }) as Context['json'];
    await next();
    if (slot.response && c.res !== slot.response) {
      // Hono's `c.res =` setter copies a response assigned over another into a new one (body
      // and headers): a bodiless copy of the same status is the same answer, anything else is not
      slot.response = c.res.body === null && c.res.status === slot.response.status ? c.res : undefined;
    }
  };
}

/** The content type `c.json` would send: the caller's own, else JSON (as Hono's setDefaultContentType). */
function jsonType(headers: Record<string, string | string[]> | undefined): string {
  for (const [k, v] of Object.entries(headers ?? {})) if (k.toLowerCase() === 'content-type') return [v].flat().join(', ');
  return 'application/json';
}

/**
 * What `JSON.parse(JSON.stringify(value))` gives, built without the text: `toJSON` is called
 * (Dates become ISO strings), `undefined`, functions and symbols are left out of objects and
 * become `null` in arrays, non-finite numbers become `null` (and -0 0), boxed primitives unbox, only own
 * enumerable string keys are kept, a bigint throws a TypeError. A fresh object throughout, so
 * whoever receives it cannot change what the API keeps (cached rows, memoised documents).
 * Returns `undefined` where JSON would leave the value out.
 * @example jsonCopy({ at: new Date(0), n: NaN, gone: undefined }, '') // { at: '1970-01-01T00:00:00.000Z', n: null }
 */
export function jsonCopy(value: unknown, key: string): unknown {
  if (value !== null && (typeof value === 'object' || typeof value === 'bigint')) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, key);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes -0 as 0
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'bigint':
      throw new TypeError('Do not know how to serialize a BigInt');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = jsonCopy(value[i], String(i)) ?? null;
    return out;
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return jsonCopy(value.valueOf(), key);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = jsonCopy((value as Record<string, unknown>)[k], k);
    if (v === undefined) continue;
    // JSON.parse makes `__proto__` an own key; a plain assignment would set the prototype
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}
