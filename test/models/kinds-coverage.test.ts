/**
 * The SDK's model against what the real packages define (test/fixtures/kinds/<version>.json, written by
 * `node scripts/dump-kinds.ts` after importing every module of openhands-sdk, -tools, -agent-server and
 * -workspace of each matrix version). A kind that any version defines and the SDK does not know fails here, so
 * a new server release with a new tool fails before a user meets `UnknownEvent`s; the module paths the events
 * `kind` filter needs must be the newest server's; and each kind's fields must be the ones the servers define.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ACTION_KIND_MODULE_PATHS,
  EVENT_KIND_MODULE_PATHS,
  OBSERVATION_KIND_MODULE_PATHS,
  TOOL_DEFINITION_KIND_MODULE_PATHS,
} from '../../src/models/kinds.js';
import { eventSchemas } from '../../src/models/mode-schemas.js';

interface KindEntry {
  module: string;
  schema?: { $ref?: string };
}
interface Dump {
  version: string;
  unions: Record<Union, Record<string, KindEntry>>;
  $defs: Record<string, { properties?: Record<string, unknown> }>;
}
type Union = 'Event' | 'Action' | 'Observation' | 'ToolDefinition';

const DIR = new URL('../fixtures/kinds/', import.meta.url).pathname;
const byVersion = (a: string, b: string) => {
  const [pa, pb] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
};
const dumps: Dump[] = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Dump)
  .sort((a, b) => byVersion(a.version, b.version));
const newest = dumps.at(-1) as Dump;

const strict = eventSchemas('strict');
const modelled: Record<Union, Record<string, unknown>> = {
  Event: strict.variants,
  Action: strict.actions.variants,
  Observation: strict.observations.variants,
  ToolDefinition: strict.tools.variants,
};
const modulePaths: Record<Union, Record<string, string>> = {
  Event: EVENT_KIND_MODULE_PATHS,
  Action: ACTION_KIND_MODULE_PATHS,
  Observation: OBSERVATION_KIND_MODULE_PATHS,
  ToolDefinition: TOOL_DEFINITION_KIND_MODULE_PATHS,
};
const UNIONS = Object.keys(modelled) as Union[];

/** The field names a dumped kind's schema defines. */
function fieldsOf(dump: Dump, entry: KindEntry): string[] | undefined {
  const name = entry.schema?.$ref?.split('/').pop();
  const properties = name === undefined ? undefined : dump.$defs[name]?.properties;
  return properties === undefined ? undefined : Object.keys(properties);
}

/** The field names of one of the SDK's strict variants. */
function sdkFieldsOf(union: Union, kind: string): string[] {
  const variant = modelled[union][kind] as { _zod: { def: { shape: Record<string, unknown> } } };
  return Object.keys(variant._zod.def.shape);
}

describe('the kinds the real packages define', () => {
  it('were dumped for the matrix, newest first in the SDK', () => {
    expect(dumps.length).toBeGreaterThan(0);
    expect(newest.unions.Event.ActionEvent).toBeDefined();
  });

  describe.each(dumps.map((dump) => [dump.version, dump] as const))('%s', (_version, dump) => {
    it.each(UNIONS)('every %s kind is one the SDK models', (union) => {
      const unknown = Object.keys(dump.unions[union]).filter((kind) => !(kind in modelled[union]));
      expect(unknown).toEqual([]);
    });

    it.each(UNIONS)('every field of each %s kind is in the SDK strict schema', (union) => {
      const missing: string[] = [];
      for (const [kind, entry] of Object.entries(dump.unions[union])) {
        if (!(kind in modelled[union])) continue; // reported above
        const sdk = new Set(sdkFieldsOf(union, kind));
        for (const field of fieldsOf(dump, entry) ?? [])
          if (!sdk.has(field)) missing.push(`${kind}.${field}`);
      }
      expect(missing).toEqual([]);
    });
  });

  it.each(UNIONS)('the %s module paths are the newest server’s', (union) => {
    const wrong = Object.entries(newest.unions[union])
      .filter(([kind, entry]) => kind in modulePaths[union] && modulePaths[union][kind] !== entry.module)
      .map(([kind, entry]) => `${kind}: ${modulePaths[union][kind]} ≠ ${entry.module}`);
    expect(wrong).toEqual([]);
  });

  it.each(UNIONS)('strict %s kinds are ones a server defines (or derives at run time)', (union) => {
    const defined = new Set(dumps.flatMap((dump) => Object.keys(dump.unions[union])));
    // The `…WithRisk` / `…WithSummary` action classes are made at run time per tool (the served OpenAPI lists
    // them once a conversation has built them); no import defines them.
    const derived = (kind: string) => /With(Risk|Summary)$/.test(kind);
    const extra = Object.keys(modelled[union]).filter((kind) => !defined.has(kind) && !derived(kind));
    expect(extra).toEqual([]);
  });
});
