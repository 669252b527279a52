import type { EventEmitter } from 'eventemitter3';
import type { SafeLogger } from '../../core/logger.js';
import { redactError } from '../../core/redact.js';
import type { Event } from '../../models/index.js';
import type { SubscriptionEventMap } from './types.js';

/**
 * Emits to the caller's listeners: a listener that throws must not break the stream (it is logged and
 * reported on `error`), and an `error` built from frames (bad frames' rawBody, error envelopes) may echo a
 * credential, so it is redacted first.
 */
export class SafeEmitter {
  readonly #target: EventEmitter<SubscriptionEventMap>;
  readonly #logger: SafeLogger;
  readonly #secrets: () => readonly string[];

  constructor(
    target: EventEmitter<SubscriptionEventMap>,
    logger: SafeLogger,
    secrets: () => readonly string[],
  ) {
    this.#target = target;
    this.#logger = logger;
    this.#secrets = secrets;
  }

  emit<K extends keyof SubscriptionEventMap>(name: K, ...args: SubscriptionEventMap[K]): void {
    if (name === 'error') redactError(args[0], this.#secrets());
    try {
      (this.#target.emit as (name: string, ...rest: unknown[]) => boolean)(name, ...args);
    } catch (error) {
      this.#listenerThrew(name, error);
    }
  }

  /** `emit` for the per-event names, without the rest-argument array (this runs for every event). */
  emitEvent(name: string, event: Event): void {
    try {
      (this.#target.emit as (name: string, event: Event) => boolean)(name, event);
    } catch (error) {
      this.#listenerThrew(name, error);
    }
  }

  listens(name: keyof SubscriptionEventMap | string): boolean {
    return this.#target.listenerCount(name as keyof SubscriptionEventMap) > 0;
  }

  /**
   * False when no listener at all is registered (a `for await` loop alone): then the per-event names are not
   * looked up. eventemitter3 counts the names that have listeners in `_eventsCount`; anything but 0 (or a
   * version without the field) takes the normal path.
   */
  anyListener(): boolean {
    return (this.#target as unknown as { _eventsCount?: unknown })._eventsCount !== 0;
  }

  #listenerThrew(name: string, error: unknown): void {
    this.#logger.warn(`a '${name}' listener threw: ${(error as Error)?.message ?? String(error)}`);
    if (name !== 'error') this.emit('error', error instanceof Error ? error : new Error(String(error)));
  }
}
