/**
 * When the SDK retries on its own. Idempotent methods only: a POST may have taken effect, and the admin
 * login POST consumes a single-use challenge (spec 5.3), so POST and PATCH are never retried.
 */
export const RETRY_POLICY = {
  methods: ['get', 'put', 'delete', 'head'],
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
  methods: ('get' | 'put' | 'delete' | 'head')[];
  statusCodes: number[];
  afterStatusCodes: number[];
  maxRetryAfter: number;
  backoffLimit: number;
  delay: (attempt: number) => number;
  jitter: boolean;
  retryOnTimeout: boolean;
};
