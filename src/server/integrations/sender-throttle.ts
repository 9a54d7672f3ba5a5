import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { apiClientFacts } from '../http/api-client-facts.ts';
import { TokenBuckets } from '../lib/token-buckets.ts';

/** Deliveries one address may post at once, and how many more it earns per second after that. */
export const DELIVERY_BURST = 60;
export const DELIVERIES_PER_SECOND = 1;

/**
 * Throttles webhook deliveries per sender address, before anything is looked up or written: a
 * token bucket of DELIVERY_BURST that refills at DELIVERIES_PER_SECOND. An address past it gets
 * 429 with Retry-After. Per server process; the state is memory only.
 * @example api.use('/api/integrations/*', throttleDeliverySenders());
 */
export function throttleDeliverySenders(now: () => number = Date.now): MiddlewareHandler<AppEnv> {
  const buckets = new TokenBuckets(DELIVERY_BURST, DELIVERIES_PER_SECOND, { now });
  return async function throttleDeliverySender(c, next) {
    if (c.req.method !== 'POST') return next();
    const retryAfter = buckets.take(apiClientFacts(c).address);
    if (retryAfter > 0) {
      throw new ApiError('too_many', 'too many deliveries from this address; try again later', {}, { 'Retry-After': String(retryAfter) });
    }
    return next();
  };
}
