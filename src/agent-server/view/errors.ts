import { AgentPlatformError, brandErrorClass, errorGuard } from '../../core/errors.js';

/** A message `send()` delivered, but its persisted `MessageEvent` did not arrive within `echoTimeout`. */
export class ViewEchoTimeoutError extends AgentPlatformError {
  override readonly code = 'VIEW_ECHO_TIMEOUT';
  /** The `echoTimeout` that ran out, in milliseconds. */
  readonly timeout: number;
  constructor(timeout: number) {
    super(`The server accepted the message, but it did not appear in the conversation within ${timeout} ms`);
    this.timeout = timeout;
  }
}
brandErrorClass(ViewEchoTimeoutError, 'ViewEchoTimeoutError');

/** The view was closed (`close()`, its `signal`) before what was asked for happened. */
export class ViewClosedError extends AgentPlatformError {
  override readonly code = 'VIEW_CLOSED';
}
brandErrorClass(ViewClosedError, 'ViewClosedError');

export const isViewEchoTimeoutError = errorGuard<ViewEchoTimeoutError>('ViewEchoTimeoutError');
export const isViewClosedError = errorGuard<ViewClosedError>('ViewClosedError');
