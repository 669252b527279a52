/** Text rendering of events: every kind renders, and `encrypted_content` never appears. */
import { readdirSync, readFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEvent, redactEvent, renderEvent } from '../../src/models/index.js';
import { arbitrary, component } from './support/openapi.js';

const DIR = new URL('../fixtures/anchor-events/', import.meta.url);
const load = (name: string) => parseEvent(readFileSync(new URL(name, DIR), 'utf8'));
const SECRET = 'gAAAA-ENCRYPTED-REASONING-SECRET';

describe('renderEvent', () => {
  it.each(readdirSync(DIR).filter((f) => f.endsWith('.json')))(
    'renders %s on a line starting with its timestamp',
    (file) => {
      const event = load(file);
      const text = renderEvent(event);
      expect(text.startsWith(`[${event.timestamp}] ${event.source} ${event.kind}`)).toBe(true);
    },
  );

  it('shows what matters for each real event', () => {
    expect(renderEvent(load('ActionEvent.TerminalAction.json'))).toContain('$ pwd > tool_output.txt');
    expect(renderEvent(load('ActionEvent.TerminalAction.json'))).toContain('[risk LOW]');
    expect(renderEvent(load('ObservationEvent.TerminalObservation.is_error.with-nulls.json'))).toContain(
      'TerminalObservation (error)',
    );
    expect(renderEvent(load('ObservationEvent.TerminalObservation.json'))).toContain('exit 0');
    expect(renderEvent(load('MessageEvent.user.json'))).toContain('user: Use the terminal tool');
    expect(renderEvent(load('SystemPromptEvent.json'))).toContain('tools: terminal, finish, think');
    expect(renderEvent(load('ConversationStateUpdateEvent.execution_status.with-nulls.json'))).toContain(
      'execution_status = "running"',
    );
  });

  it('cuts long text and can leave out the timestamp', () => {
    const text = renderEvent(load('MessageEvent.user.json'), { maxTextLength: 10, timestamp: false });
    expect(text).toMatch(/^user MessageEvent: user: Use the te… \(\d+ more characters\)$/);
  });

  it('renders unknown and invalid events with their fields', () => {
    expect(renderEvent(parseEvent({ kind: 'FutureEvent', source: 'hook', hook_command: 'x.sh' }))).toBe(
      'hook FutureEvent: (unknown kind) {"hook_command":"x.sh"}',
    );
    expect(renderEvent(parseEvent({ kind: 'PauseEvent', source: 'robot' }))).toContain('(invalid)');
  });

  it('never includes encrypted_content, in known or unknown events, actions and messages', () => {
    const reasoning = { summary: ['thinking'], encrypted_content: SECRET, id: 'r' };
    const action = JSON.parse(readFileSync(new URL('ActionEvent.TerminalAction.json', DIR), 'utf8'));
    const events = [
      parseEvent({ ...action, responses_reasoning_item: reasoning }),
      parseEvent({ ...action, action: { kind: 'FutureAction', responses_reasoning_item: reasoning } }),
      parseEvent({ kind: 'FutureEvent', nested: [{ deeper: reasoning }] }),
      parseEvent({
        id: 'm',
        timestamp: 't',
        source: 'agent',
        llm_message: { role: 'assistant', content: [], responses_reasoning_item: reasoning },
        kind: 'MessageEvent',
      }),
    ];
    for (const event of events) {
      expect(renderEvent(event)).not.toContain(SECRET);
      expect(JSON.stringify(redactEvent(event))).not.toContain(SECRET);
    }
    expect(renderEvent(events[0] as never)).toContain('reasoning summary: thinking');
  });

  it('property: no generated event renders its encrypted_content', () => {
    fc.assert(
      fc.property(arbitrary(component('Event')), (input) => {
        const text = JSON.stringify(input).replace(
          /"encrypted_content":"(?:[^"\\]|\\.)*"/g,
          `"encrypted_content":"${SECRET}"`,
        );
        const event = parseEvent(text);
        expect(renderEvent(event)).not.toContain(SECRET);
        expect(JSON.stringify(redactEvent(event))).not.toContain(SECRET);
      }),
      { numRuns: 300 },
    );
  });
});
