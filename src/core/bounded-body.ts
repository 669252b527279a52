/**
 * Response bodies read within the call's time and size bounds.
 *
 * The transport hands ky a `fetch` that reads the whole body before it resolves. ky races that `fetch`
 * against the per-attempt `timeout` (and what is left of `totalTimeout`) and aborts the request's signal when
 * either runs out, so the bounds cover the body, not only the headers: an endless or trickling body ends
 * with a timeout, and an oversize one with `ResponseTooLargeError` as soon as it passes the limit (see
 * docs/errors-and-retries.md, "Limits").
 */

/** Default limit of a successful answer's body: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/**
 * Error answers are read up to 64 KiB, the rest dropped: the error's message and `body` come from the
 * beginning, and an error body never fails the call with a size error of its own.
 */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Statuses whose responses cannot carry a body (the Fetch standard's null body statuses). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export interface BodyBounds {
  /** Largest successful body accepted. */
  maxBytes: number;
  /** Called when a successful body is larger than `maxBytes` (the size seen so far, or the declared one). */
  tooLarge: (bytes: number) => Error;
}

/**
 * A `fetch` that resolves only once the whole body has arrived, as a buffered `Response`. The read stops
 * when the request's signal aborts (timeout or caller) and as soon as the body passes its limit; nothing
 * beyond the limit is kept.
 */
export function boundedFetch(fetchImpl: typeof fetch | undefined, bounds: BodyBounds): typeof fetch {
  return async (input, init) => {
    // Looked up at call time, so a fetch patched later (msw, test doubles) is the one used.
    const response = await (fetchImpl ?? globalThis.fetch)(input, init);
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const ok = response.status >= 200 && response.status < 300;
    const body = await readBody(response, ok ? bounds : undefined, signal ?? undefined);
    const head: ResponseInit = {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    };
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, head);
  };
}

/**
 * The body's bytes: with `bounds`, throws `bounds.tooLarge` past `bounds.maxBytes`; without (an error
 * answer), keeps the first `MAX_ERROR_BODY_BYTES` and drops the rest.
 */
async function readBody(
  response: Response,
  bounds: BodyBounds | undefined,
  signal: AbortSignal | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  const limit = bounds ? bounds.maxBytes : MAX_ERROR_BODY_BYTES;
  const declared = Number(response.headers.get('content-length'));
  if (bounds && Number.isFinite(declared) && declared > limit) {
    void response.body?.cancel().catch(() => undefined);
    throw bounds.tooLarge(declared);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const stop = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (signal?.aborted) throw signal.reason;
    for (;;) {
      const { done, value } = await reader.read();
      // A cancelled reader reports `done`: an aborted read is a failure, never a short body.
      if (signal?.aborted) throw signal.reason;
      if (done) break;
      if (size + value.byteLength > limit) {
        stop();
        if (bounds) throw bounds.tooLarge(size + value.byteLength);
        chunks.push(value.subarray(0, limit - size));
        size = limit;
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
