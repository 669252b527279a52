/**
 * The event schemas of each parse mode, built on first use. Building both modes' schemas took about 10 ms (and
 * as much again in garbage collection) of every import of the package, although valid events never need them:
 * the predicates compiled at build time accept those (docs/performance.md, "Import").
 */
import { buildEventSchemas } from './events.js';
import type { ParseMode } from './schema-kit.js';

/** Every schema of one parse mode. */
export type EventSchemas = ReturnType<typeof buildEventSchemas>;

const built: { strict?: EventSchemas; lenient?: EventSchemas } = {};

export function eventSchemas(mode: ParseMode): EventSchemas {
  built[mode] ??= buildEventSchemas(mode);
  return built[mode];
}
