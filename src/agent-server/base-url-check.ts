import { APIPromise } from '../core/api-promise.js';
import { isAPIError, isNotFoundError, isResponseValidationError } from '../core/errors.js';
import { redactUrl } from '../core/redact.js';
import { type CallSpec, Transport, type TransportInit } from '../core/transport.js';
import { NotAnAgentServerError } from './errors.js';
import type { ServerInfo } from './server-info.js';

/** `/server_info` answers that mean "no agent server here" (the route is public on every version). */
const ABSENT_STATUSES = new Set([404, 405, 410]);

/**
 * Tells a wrong base URL from a missing conversation. The real server answers both with
 * `404 {"detail":"Not Found"}`, so on a 404 this asks, once per client, whether the base URL serves an agent
 * server's `/server_info`. A definite answer is kept; no answer (network, 5xx, abort) is not, and the 404
 * stands as it came.
 */
export class BaseUrlCheck {
  readonly #serverInfo: (signal: AbortSignal | undefined) => Promise<ServerInfo>;
  readonly #baseUrl: () => string;
  /** The `/server_info` status when the base URL is wrong, `0` when it serves an agent server. */
  #verdict: number | undefined;

  constructor(serverInfo: (signal: AbortSignal | undefined) => Promise<ServerInfo>, baseUrl: () => string) {
    this.#serverInfo = serverInfo;
    this.#baseUrl = baseUrl;
  }

  /** `error`, or a `NotAnAgentServerError` in its place when it is a 404 from a base URL that is no agent server. */
  async explain(error: unknown, signal: AbortSignal | undefined): Promise<unknown> {
    if (!isNotFoundError(error) || error.status !== 404) return error;
    this.#verdict ??= await this.#ask(signal);
    if (!this.#verdict) return error;
    return new NotAnAgentServerError({
      baseUrl: this.#baseUrl(),
      serverInfoStatus: this.#verdict,
      cause: error,
    });
  }

  async #ask(signal: AbortSignal | undefined): Promise<number | undefined> {
    try {
      await this.#serverInfo(signal);
      return 0;
    } catch (error) {
      if (isResponseValidationError(error)) return 200;
      if (isAPIError(error) && ABSENT_STATUSES.has(error.status)) return error.status;
      return undefined;
    }
  }
}

/**
 * The base URL as errors may show it. It carries no user or password (the options check refuses them), but a
 * proxy's path may hold a token: every secret the client knows is removed.
 */
export function shownBaseUrl(baseUrl: string, secrets: readonly string[]): string {
  return redactUrl(baseUrl, secrets);
}

/** The agent-server clients' transport: a 404 goes through the `BaseUrlCheck` before it reaches the caller. */
export class AgentServerTransport extends Transport {
  #check: BaseUrlCheck | undefined;

  constructor(init: TransportInit) {
    super(init);
  }

  /** Set once by the owning client, after construction (the check asks through this transport). */
  checkBaseUrlWith(check: BaseUrlCheck): void {
    this.#check = check;
  }

  override request<T = unknown>(spec: CallSpec<T>): APIPromise<T> {
    return new APIPromise(this.#explained(super.request(spec), spec));
  }

  async #explained<T>(call: APIPromise<T>, spec: CallSpec<T>): Promise<readonly [T, () => Response]> {
    try {
      return await APIPromise.answerOf(call);
    } catch (error) {
      // `/server_info` itself is what the check asks: its 404 is the check's answer, not a question.
      if (!this.#check || spec.path === 'server_info') throw error;
      throw await this.#check.explain(error, spec.signal);
    }
  }
}
