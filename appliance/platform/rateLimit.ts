/**
 * Token buckets per key (an address, a phone), in memory and bounded: issue 35's public face
 * limits each address and each phone. A bucket holds `burst` tokens and gains one every
 * `everyMs`; a full map drops its least recently used keys first, so a flood of new addresses
 * costs memory up to `maxKeys` and no more (a dropped key starts again full: the limit is a
 * brake on one client, not an account).
 */
export interface RateLimit {
  /** Takes a token for `key`: true when there was one. */
  take(key: string): boolean;
  /** Seconds until `key` has a token again (0: it has one). */
  retryAfter(key: string): number;
  readonly size: number;
}

export function rateLimit(opts: { burst: number; everyMs: number; maxKeys?: number; now?: () => number }): RateLimit {
  const { burst, everyMs } = opts;
  const maxKeys = opts.maxKeys ?? 10_000;
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (key: string) => {
    const t = now();
    const b = buckets.get(key);
    const tokens = b ? Math.min(burst, b.tokens + Math.max(0, t - b.at) / everyMs) : burst;
    // Re-inserted, so the map's order is least recently used first.
    buckets.delete(key);
    const fresh = { tokens, at: t };
    buckets.set(key, fresh);
    while (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
    return fresh;
  };
  return {
    take(key) {
      const b = refill(key);
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
    retryAfter(key) {
      const b = buckets.get(key);
      if (!b) return 0;
      const tokens = Math.min(burst, b.tokens + Math.max(0, now() - b.at) / everyMs);
      return tokens >= 1 ? 0 : Math.ceil(((1 - tokens) * everyMs) / 1000);
    },
    get size() {
      return buckets.size;
    },
  };
}
