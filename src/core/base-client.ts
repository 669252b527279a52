import type { ClientOptions } from './options.js';
import { REDACTED } from './redact.js';
import { Transport, type TransportInit } from './transport.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * What every client shares: the transport, and a safe face for `util.inspect` and `JSON.stringify`
 * (credentials live in private fields and are shown as `[redacted]`).
 */
export abstract class BaseClient {
  protected readonly transport: Transport;
  readonly #shown: Record<string, unknown>;

  /** `transport` is for a service whose clients add to what every request does (built from `init`). */
  protected constructor(
    init: TransportInit,
    credentials: Record<string, unknown>,
    transport: Transport = new Transport(init),
  ) {
    this.transport = transport;
    const { fetch: _fetch, logger: _logger, headers, ...plain } = init as ClientOptions & TransportInit;
    delete (plain as Partial<TransportInit>).authHeaders;
    delete (plain as Partial<TransportInit>).secrets;
    const shownCredentials = Object.fromEntries(
      Object.entries(credentials)
        .filter(([, value]) => value !== undefined)
        .map(([key]) => [key, REDACTED]),
    );
    this.#shown = {
      ...plain,
      baseUrl: this.transport.baseUrl,
      ...(headers ? { headers: Object.fromEntries(Object.keys(headers).map((k) => [k, REDACTED])) } : {}),
      ...shownCredentials,
    };
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  toJSON(): Record<string, unknown> {
    return { client: this.constructor.name, ...this.#shown };
  }

  [INSPECT](): string {
    return `${this.constructor.name} ${JSON.stringify(this.#shown)}`;
  }
}
