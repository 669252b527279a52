/**
 * Every real sample of test/fixtures/anchor-events parses in both modes, with and without nulls, and
 * re-serialises to equivalent JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isKnownAction,
  isKnownEvent,
  isKnownObservation,
  isUnknownEvent,
  type ParseMode,
  parseConversationState,
  parseEvent,
  safeParseModel,
} from '../../src/models/index.js';
import { ActionSchema, ObservationSchema } from '../../src/models.js';

const DIR = new URL('../fixtures/anchor-events/', import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, DIR), 'utf8');
const EVENT_FILES = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const MODES: ParseMode[] = ['strict', 'lenient'];

/** A deep copy without `null` object fields (what servers >= 1.31.2 send for the same event). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('real anchor events', () => {
  it('the corpus is the 13 real events', () => {
    expect(EVENT_FILES).toHaveLength(13);
  });

  describe.each(EVENT_FILES)('%s', (file) => {
    const text = read(file);
    const original = JSON.parse(text) as Record<string, unknown>;
    const hasNulls = text.includes('null');

    it.each(MODES)('parses in %s mode from JSON text and re-serialises to the same JSON', (mode) => {
      const event = parseEvent(text, { mode });
      expect(isKnownEvent(event)).toBe(true);
      expect(event.kind).toBe(file.split('.')[0]);
      expect(roundTrip(event)).toEqual(original);
    });

    it.each(MODES)('parses in %s mode from an object without changing it', (mode) => {
      const input = JSON.parse(text) as unknown;
      const event = parseEvent(input, { mode });
      expect(input).toEqual(original);
      expect(event).not.toBe(input);
      expect(roundTrip(event)).toEqual(original);
    });

    it.each(MODES)('parses in %s mode with its nulls removed, to the same JSON without nulls', (mode) => {
      const stripped = withoutNulls(original);
      const event = parseEvent(stripped, { mode });
      expect(isUnknownEvent(event)).toBe(false);
      expect(roundTrip(event)).toEqual(stripped);
      if (hasNulls) expect(JSON.stringify(stripped)).not.toContain('null');
    });

    it('gives the same event in both modes', () => {
      expect(roundTrip(parseEvent(text, { mode: 'lenient' }))).toEqual(
        roundTrip(parseEvent(text, { mode: 'strict' })),
      );
    });
  });

  it('the with-nulls samples keep their nulls in nullable fields (null and absent are both accepted)', () => {
    const event = parseEvent(read('ActionEvent.TerminalAction.reasoning.with-nulls.json'), {
      mode: 'strict',
    });
    expect(event).toMatchObject({ responses_reasoning_item: null, critic_result: null });
    const observation = parseEvent(read('ObservationEvent.TerminalObservation.is_error.with-nulls.json'));
    expect(observation).toMatchObject({ observation: { exit_code: null, metadata: { username: null } } });
  });

  it('the post-anchor `responses_item_id` of a tool call is carried through in both modes', () => {
    for (const mode of MODES) {
      const event = parseEvent(read('ActionEvent.TerminalAction.reasoning.with-nulls.json'), { mode });
      expect(event).toMatchObject({ tool_call: { responses_item_id: null } });
    }
  });
});

describe('real nested samples', () => {
  it.each(MODES)('GrepAction parses in %s mode and re-serialises unchanged', (mode) => {
    const text = read('nested/GrepAction.json');
    const result = safeParseModel(ActionSchema, text, { mode });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(isKnownAction(result.data)).toBe(true);
    expect(roundTrip(result.data)).toEqual(JSON.parse(text));
  });

  it.each(MODES)('GrepObservation parses in %s mode and re-serialises unchanged', (mode) => {
    const text = read('nested/GrepObservation.json');
    const result = safeParseModel(ObservationSchema, text, { mode });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(isKnownObservation(result.data)).toBe(true);
    expect(roundTrip(result.data)).toEqual(JSON.parse(text));
  });

  it.each(MODES)('the persisted ConversationState parses in %s mode and keeps every field', (mode) => {
    const text = read('nested/ConversationState.persisted-base_state.json');
    const original = JSON.parse(text) as Record<string, unknown>;
    const state = parseConversationState(text, { mode });
    expect(state.execution_status).toBe('finished');
    expect(state.agent.kind).toBe('Agent');
    const back = roundTrip(state) as Record<string, unknown>;
    // Fields the persisted state omitted come back with the server model's defaults.
    expect(back).toEqual({ ...original, agent_state: {} });
  });
});
