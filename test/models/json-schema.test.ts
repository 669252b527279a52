/** docs/event-model.schema.json is generated from the schemas (scripts/write-json-schema.ts) and up to date. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../src/models/index.js';
import { eventModelJsonSchema } from '../../src/models/json-schema.js';

const file = new URL('../../docs/event-model.schema.json', import.meta.url);

describe('JSON Schema of the model', () => {
  it('docs/event-model.schema.json matches the schemas (run `node scripts/write-json-schema.ts`)', () => {
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(eventModelJsonSchema(), null, 2)}\n`);
  });

  it('describes every event kind and the ConversationState, without generated defaults', () => {
    const schema = eventModelJsonSchema() as {
      $defs: Record<string, { properties?: Record<string, object> }>;
    };
    for (const kind of EVENT_KINDS) expect(schema.$defs[kind]).toBeDefined();
    expect(schema.$defs.ConversationState).toBeDefined();
    expect(schema.$defs.ActionEvent?.properties?.id).toEqual({ type: 'string' });
    expect(schema.$defs.ActionEvent?.properties?.security_risk).toMatchObject({ default: 'UNKNOWN' });
  });
});
