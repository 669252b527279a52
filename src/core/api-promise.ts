/**
 * What every request of the transport returns, as openai-node's: a promise of the decoded answer that also
 * gives the HTTP response, `await call.withResponse()` → `{ data, response }` and `await call.asResponse()`
 * → `response`, for status and headers (docs/errors-and-retries.md, "Raw responses"). The response is made
 * only when asked for; its body is the body as received (already read, within `maxResponseBytes`), none for a
 * streamed or ignored body.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #answer: Promise<readonly [T, () => Response]>;

  constructor(answer: Promise<readonly [T, () => Response]>) {
    super((resolve) => resolve(undefined as T));
    this.#answer = answer;
  }

  // `finally` and subclass-aware helpers build their promises through the species: plain promises.
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The answer and the response maker of `call`: for a layer that wraps a call and keeps its response. */
  static answerOf<T>(call: APIPromise<T>): Promise<readonly [T, () => Response]> {
    return call.#answer;
  }

  withResponse(): Promise<{ data: T; response: Response }> {
    return this.#answer.then(([data, response]) => ({ data, response: response() }));
  }

  asResponse(): Promise<Response> {
    return this.#answer.then(([, response]) => response());
  }

  // biome-ignore lint/suspicious/noThenProperty: the promise of the answer is this object's `then`.
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#answer.then(([data]) => data).then(onFulfilled, onRejected);
  }
}
