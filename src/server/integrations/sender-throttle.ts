import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';

/** Deliveries one address may post at once, and how many more it earns per second after that. */
export const DELIVERY_BURST = 60;
export const DELIVERIES_PER_SECOND = 1;

/** Addresses remembered at most; beyond that the longest-quiet one is forgotten. */
const MAX_ADDRESSES = 10_000;

interface Bucket { tokens: number; at: number }

/**
 * Throttles webhook deliveries per sender address, before anything is looked up or written: a
 * token bucket of DELIVERY_BURST that refills at DELIVERIES_PER_SECOND. An address past it gets
 * 429 with Retry-After. Per server process; the state is memory only.
 * @example api.use('/api/integrations/*', throttleDeliverySenders());
 */
export function throttleDeliverySenders(now: () => number = Date.now): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, Bucket>();
  return async function throttleDeliverySender(c, next) {
    if (c.req.method !== 'POST') return next();
    const address = apiClientFacts(c).address;
    const at = now();
    const previous = buckets.get(address);
    const tokens = Math.min(DELIVERY_BURST, previous ? previous.tokens + ((at - previous.at) / 1000) * DELIVERIES_PER_SECOND : DELIVERY_BURST);
    // re-inserted, so the map's first entry is always the longest-quiet address
    buckets.delete(address);
    if (buckets.size >= MAX_ADDRESSES) buckets.delete(buckets.keys().next().value!);
    if (tokens < 1) {
      buckets.set(address, { tokens, at });
      const retryAfter = Math.ceil((1 - tokens) / DELIVERIES_PER_SECOND);
      throw new ApiError('too_many', 'too many deliveries from this address; try again later', {}, { 'Retry-After': String(retryAfter) });
    }
    buckets.set(address, { tokens: tokens - 1, at });
    return next();
  };
}
