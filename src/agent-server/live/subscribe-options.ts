import { invalid } from '../invalid.js';
import { RECONNECT_DEFAULTS, type ReconnectOptions } from './reconnect-options.js';
import type { SubscribeOptions } from './types.js';

/** Default `maxBufferedBytes`: 8 MiB of frame text. */
export const DEFAULT_MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/**
 * Default `maxFrameBytes`: 16 MiB. The session socket's own per-frame budget is 4 MiB (the server closes
 * 1013 `frame_too_large` above it), so a frame four times that is not an event but a fault.
 */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** Default `connectTimeout`: how long a subscription that never connected keeps trying. */
export const DEFAULT_CONNECT_TIMEOUT = 10_000;

/** The options with their defaults filled in: what the live layer's parts read. */
export interface LiveSettings {
  readonly reconnect: Required<ReconnectOptions>;
  readonly maxBuffered: number;
  readonly maxBufferedBytes: number;
  readonly maxFrameBytes: number;
  readonly readyTimeout: number;
  readonly readyFallback: number;
  readonly connectTimeout: number;
  readonly resume: boolean;
  readonly dedupeWindow: number;
  readonly pauseOnOverflow: boolean;
}

export function liveSettings(options: SubscribeOptions): LiveSettings {
  validateOptions(options);
  const resume = options.resume ?? true;
  return {
    reconnect: { ...RECONNECT_DEFAULTS, ...definedOnly(options.reconnect) },
    maxBuffered: options.maxBufferedEvents ?? 1000,
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    maxFrameBytes: options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    readyTimeout: options.readyTimeout ?? 30_000,
    readyFallback: options.readyFallback ?? 3_000,
    connectTimeout: options.connectTimeout ?? DEFAULT_CONNECT_TIMEOUT,
    resume,
    dedupeWindow: options.dedupeWindow ?? 10_000,
    // Pausing resumes by position, which needs `resume`.
    pauseOnOverflow: options.onOverflow !== 'error' && resume,
  };
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

function validateOptions(options: SubscribeOptions): void {
  const positive = (value: unknown, field: string, allowInfinity = false) => {
    if (value === undefined) return;
    const ok =
      typeof value === 'number' &&
      value > 0 &&
      (Number.isInteger(value) || (allowInfinity && value === Number.POSITIVE_INFINITY));
    if (!ok) throw invalid(field, `must be a positive integer, got ${String(value)}`);
  };
  positive(options.maxBufferedEvents, 'options.maxBufferedEvents');
  positive(options.maxBufferedBytes, 'options.maxBufferedBytes', true);
  positive(options.maxFrameBytes, 'options.maxFrameBytes', true);
  positive(options.readyTimeout, 'options.readyTimeout');
  positive(options.readyFallback, 'options.readyFallback');
  positive(options.connectTimeout, 'options.connectTimeout', true);
  positive(options.reconnect?.giveUpAfter, 'options.reconnect.giveUpAfter', true);
  positive(options.reconnect?.leaseTimeout, 'options.reconnect.leaseTimeout', true);
  const { protocol } = options;
  if (protocol !== undefined && !['auto', 'session', 'events'].includes(protocol)) {
    throw invalid('options.protocol', `must be auto, session or events, got ${String(protocol)}`);
  }
  positive(options.dedupeWindow, 'options.dedupeWindow');
  positive(options.reconnect?.initialDelay, 'options.reconnect.initialDelay');
  positive(options.reconnect?.maxDelay, 'options.reconnect.maxDelay');
  positive(options.reconnect?.overloadedDelay, 'options.reconnect.overloadedDelay');
  positive(options.reconnect?.maxAttempts, 'options.reconnect.maxAttempts', true);
  const { after, auth, onOverflow } = options;
  if (auth !== undefined && !['auto', 'first-message', 'header', 'query'].includes(auth)) {
    throw invalid('options.auth', `must be auto, first-message, header or query, got ${String(auth)}`);
  }
  if (onOverflow !== undefined && onOverflow !== 'pause' && onOverflow !== 'error') {
    throw invalid('options.onOverflow', `must be pause or error, got ${String(onOverflow)}`);
  }
  if (after !== undefined) {
    const timestamp = typeof after === 'string' ? after : after?.timestamp;
    const ids = typeof after === 'string' ? [] : after?.eventIds;
    if (typeof timestamp !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(timestamp) || !Array.isArray(ids)) {
      throw invalid('options.after', 'must be a server timestamp or a subscription position');
    }
  }
}
