/**
 * When the SDK retries on its own: methods whose repeat gives the same answer. A POST may have taken effect,
 * and the admin login POST consumes a single-use challenge, so POST and PATCH are never retried. Neither is
 * DELETE: one that took effect but lost its answer would be retried into a 404, which cannot be told apart
 * from a resource that never existed (docs/errors-and-retries.md, "Retries").
 */
export const RETRY_POLICY = {
  methods: ['get', 'put', 'head'],
  statusCodes: [408, 429, 500, 502, 503, 504],
  // Retry-After is honoured on every retried status, capped by maxRetryAfter.
  afterStatusCodes: [408, 429, 500, 502, 503, 504],
  maxRetryAfter: 60_000,
  backoffLimit: 8_000,
  // 0.5 s, 1 s, 2 s, … with full jitter (ky applies the jitter; none when the server gave a time).
  delay: (attempt: number) => 500 * 2 ** (attempt - 1),
  jitter: true,
  retryOnTimeout: true,
} satisfies {
  methods: ('get' | 'put' | 'head')[];
  statusCodes: number[];
  afterStatusCodes: number[];
  maxRetryAfter: number;
  backoffLimit: number;
  delay: (attempt: number) => number;
  jitter: boolean;
  retryOnTimeout: boolean;
};
