interface Bucket { tokens: number; at: number }

/**
 * Token buckets by key: each key may spend `burst` at once and earns `perSecond` more after
 * that. Memory only, per process; at most `maxKeys` are remembered, the longest-quiet forgotten.
 * @example const buckets = new TokenBuckets(60, 1); const wait = buckets.take(address); // 0: go
 */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #burst: number;
  readonly #perSecond: number;
  readonly #maxKeys: number;
  readonly #now: () => number;

  constructor(burst: number, perSecond: number, options: { maxKeys?: number; now?: () => number } = {}) {
    this.#burst = burst;
    this.#perSecond = perSecond;
    this.#maxKeys = options.maxKeys ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** Spends one token of `key`: 0 when it had one, else the seconds until it will. */
  take(key: string): number {
    const at = this.#now();
    const previous = this.#buckets.get(key);
    const tokens = Math.min(this.#burst, previous ? previous.tokens + ((at - previous.at) / 1000) * this.#perSecond : this.#burst);
    // re-inserted, so the map's first entry is always the longest-quiet key
    this.#buckets.delete(key);
    if (this.#buckets.size >= this.#maxKeys) this.#buckets.delete(this.#buckets.keys().next().value!);
    if (tokens < 1) {
      this.#buckets.set(key, { tokens, at });
      return Math.ceil((1 - tokens) / this.#perSecond);
    }
    this.#buckets.set(key, { tokens: tokens - 1, at });
    return 0;
  }
}
