import { describe } from '../../core/validate.js';
import { invalid } from '../invalid.js';
import type { SubscribeOptions } from '../live/types.js';
import type { ConversationViewOptions } from './types.js';

export const DEFAULT_PAGE_SIZE = 50;
export const DEFAULT_ECHO_TIMEOUT = 30_000;
export const DEFAULT_IDLE_QUIET = 1_000;

export interface ViewSettings {
  pageSize: number;
  echoTimeout: number;
  idleQuiet: number;
  signal: AbortSignal | undefined;
  /** What the live stream is opened with (live only: the view reads the history itself). */
  live: SubscribeOptions;
}

const KNOWN = new Set([
  'pageSize',
  'signal',
  'WebSocket',
  'protocol',
  'auth',
  'reconnect',
  'echoTimeout',
  'idleQuiet',
]);

/** Checks the options before anything is requested; RequestValidationError names the bad field. */
export function viewSettings(options: ConversationViewOptions | undefined): ViewSettings {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalid('options', `must be an object, got ${describe(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      throw invalid(`options.${key}`, `is not an option of view() (${[...KNOWN].join(', ')})`);
  }
  const { pageSize, echoTimeout, idleQuiet, signal, WebSocket, protocol, auth, reconnect } = options;
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)) {
    throw invalid('options.pageSize', `must be an integer from 1 to 100, got ${describe(pageSize)}`);
  }
  checkDuration(echoTimeout, 'options.echoTimeout');
  checkDuration(idleQuiet, 'options.idleQuiet');
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalid('options.signal', `must be an AbortSignal, got ${describe(signal)}`);
  }
  const live: SubscribeOptions = {};
  if (WebSocket !== undefined) live.WebSocket = WebSocket;
  if (protocol !== undefined) live.protocol = protocol;
  if (auth !== undefined) live.auth = auth;
  if (reconnect !== undefined) live.reconnect = reconnect;
  return {
    pageSize: pageSize ?? DEFAULT_PAGE_SIZE,
    echoTimeout: echoTimeout ?? DEFAULT_ECHO_TIMEOUT,
    idleQuiet: idleQuiet ?? DEFAULT_IDLE_QUIET,
    signal,
    live,
  };
}

function checkDuration(value: unknown, field: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw invalid(field, `must be a finite number of milliseconds (0 or more), got ${describe(value)}`);
  }
}

function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}
