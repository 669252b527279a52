import { APIUserAbortError, isNotFoundError } from '../core/errors.js';
import type { SafeLogger } from '../core/logger.js';
import type { ExecutionStatus } from '../models/index.js';
import {
  isSubscriptionAuthenticationError,
  isSubscriptionNotFoundError,
  WaitTimeoutError,
} from './errors.js';
import type { Subscription } from './live/subscription.js';
import type { SubscribeOptions } from './live/types.js';

export interface WaitUntilOptions {
  signal?: AbortSignal;
  /** Milliseconds before rejecting with `WaitTimeoutError`. Default: no limit. */
  timeout?: number;
  /** Milliseconds between REST polls while the stream is not live. Default 2 000. */
  pollInterval?: number;
  /** Passed to the subscription. */
  WebSocket?: SubscribeOptions['WebSocket'];
  auth?: SubscribeOptions['auth'];
}

export interface WaitSources {
  subscribe(options: SubscribeOptions): Subscription;
  /** The status from `GET /api/conversations/{id}`. */
  poll(signal: AbortSignal): Promise<ExecutionStatus>;
  logger: SafeLogger;
}

/**
 * The status comes from the stream's state mirror (the `full_state`
 * snapshot every connection starts with, then per-key `execution_status` updates); REST polling covers the
 * times the stream is not live (connecting, reconnecting, or never able to connect).
 */
export function waitForStatus(
  sources: WaitSources,
  statuses: readonly ExecutionStatus[],
  options: WaitUntilOptions,
): Promise<ExecutionStatus> {
  const { signal, timeout, pollInterval = 2_000 } = options;
  if (signal?.aborted) return Promise.reject(new APIUserAbortError('waitUntil was aborted'));
  return new Promise<ExecutionStatus>((resolve, reject) => {
    const internal = new AbortController();
    let settled = false;
    let lastStatus: string | undefined;
    let pollTimer: ReturnType<typeof setTimeout> | undefined;
    let timeoutTimer: ReturnType<typeof setTimeout> | undefined;
    let streamFailed = false;

    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(pollTimer);
      clearTimeout(timeoutTimer);
      signal?.removeEventListener('abort', onAbort);
      internal.abort();
      subscription.close();
      finish();
    };
    const observe = (status: unknown) => {
      if (typeof status !== 'string') return;
      lastStatus = status;
      if ((statuses as readonly string[]).includes(status)) settle(() => resolve(status as ExecutionStatus));
    };
    const onAbort = () => settle(() => reject(new APIUserAbortError('waitUntil was aborted')));
    signal?.addEventListener('abort', onAbort, { once: true });

    const subscription = sources.subscribe({
      signal: internal.signal,
      resume: false,
      ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
      ...(options.auth ? { auth: options.auth } : {}),
    });
    subscription.on('state', (state) => observe(state.execution_status));
    subscription.on('close', ({ error }) => {
      if (settled || !error) return;
      if (isSubscriptionNotFoundError(error) && isNotFoundError(error.cause)) {
        // The REST answer that made the stream give up: the same NotFoundError a poll would reject with,
        // so an unknown conversation is one error class whichever notices first.
        const notFound = error.cause;
        settle(() => reject(notFound));
        return;
      }
      if (isSubscriptionNotFoundError(error) || isSubscriptionAuthenticationError(error)) {
        settle(() => reject(error));
        return;
      }
      // Any other end of the stream: carry on with REST polling alone.
      streamFailed = true;
      sources.logger.info(`waitUntil: the event stream ended (${error.message}); polling only`);
    });

    const poll = async () => {
      pollTimer = undefined;
      if (settled) return;
      if (streamFailed || subscription.phase !== 'live') {
        try {
          observe(await sources.poll(internal.signal));
        } catch (error) {
          if (settled) return;
          if (isNotFoundError(error)) {
            settle(() => reject(error));
            return;
          }
          sources.logger.info(`waitUntil: polling failed: ${(error as Error)?.message ?? String(error)}`);
        }
      }
      if (!settled) pollTimer = setTimeout(poll, pollInterval);
    };
    pollTimer = setTimeout(poll, pollInterval);

    if (timeout !== undefined) {
      timeoutTimer = setTimeout(() => {
        settle(() =>
          reject(
            new WaitTimeoutError(
              `The conversation did not reach ${statuses.join(' or ')} within ${timeout} ms (last status: ${lastStatus ?? 'unknown'})`,
              lastStatus,
            ),
          ),
        );
      }, timeout);
    }
  });
}
