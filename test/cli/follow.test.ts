import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectEvents } from '../../src/agent-server/view/projection.js';
import type { ParsedArgs } from '../../src/cli/args.js';
import { eventsCommand, followCommand, screenOf, type Terminal } from '../../src/cli/follow.js';
import { LiveView, type Screen } from '../../src/cli/live-view.js';
import {
  type ConversationItem,
  type ConversationSnapshot,
  ConversationsClient,
  type Event,
  EventsClient,
  Projection,
} from '../../src/index.js';
import { type LoopbackSimulator, startSimulator } from '../../src/testing.js';

const ESC = '\x1b[';
const at = '2026-11-27T10:00:0';

/** Events as the server writes them, cut to the fields the view reads. */
const sample = {
  action: {
    id: 'a1',
    timestamp: `${at}1.000000`,
    source: 'agent',
    kind: 'ActionEvent',
    tool_name: 'terminal',
    tool_call_id: 't1',
    llm_response_id: 'r1',
    thought: [],
    security_risk: 'UNKNOWN',
    tool_call: { id: 't1', name: 'terminal', arguments: '{}', origin: 'completion' },
    action: { kind: 'TerminalAction', command: 'ls -la', is_input: false, reset: false },
  },
  observation: {
    id: 'o1',
    timestamp: `${at}2.000000`,
    source: 'environment',
    kind: 'ObservationEvent',
    tool_name: 'terminal',
    tool_call_id: 't1',
    action_id: 'a1',
    observation: {
      kind: 'TerminalObservation',
      command: 'ls -la',
      exit_code: 2,
      is_error: false,
      content: [{ type: 'text', text: 'ls: cannot access\n  x: No such file\n' }],
    },
  },
  message: {
    id: 'm1',
    timestamp: `${at}3.000000`,
    source: 'agent',
    kind: 'MessageEvent',
    llm_message: { role: 'assistant', content: [{ type: 'text', text: 'Done:\nall files listed' }] },
  },
  state: {
    id: 's1',
    timestamp: `${at}4.000000`,
    source: 'environment',
    kind: 'ConversationStateUpdateEvent',
    key: 'execution_status',
    value: 'finished',
  },
  error: {
    id: 'e1',
    timestamp: `${at}5.000000`,
    source: 'agent',
    kind: 'AgentErrorEvent',
    tool_name: 'terminal',
    tool_call_id: 't1',
    error: 'the command timed out',
  },
} as unknown as Record<string, Event>;

function screen(interactive: boolean, color = interactive): Screen & { text: () => string } {
  let out = '';
  return {
    write: (t) => {
      out += t;
    },
    interactive,
    color,
    width: 80,
    text: () => out,
  };
}

/** A snapshot of the view showing `items`, as `ConversationView.getSnapshot()` gives it. */
function snapshot(
  items: readonly ConversationItem[],
  fields: Partial<ConversationSnapshot> = {},
): ConversationSnapshot {
  return {
    items,
    hasOlder: false,
    loadingOlder: false,
    ready: true,
    status: 'running',
    connection: 'live',
    state: { execution_status: 'running' },
    ...fields,
  };
}

const streaming = (text: string): ConversationItem => ({
  id: 'streaming:i',
  type: 'agent-message',
  events: [],
  text,
  streaming: true,
});

describe('the live view', () => {
  it('writes one line per event of an item: tool and command, exit code and trimmed output, messages, errors; no state lines', () => {
    const s = screen(false);
    const view = new LiveView(s);
    view.items(projectEvents(Object.values(sample)));
    expect(s.text().split('\n')).toEqual([
      '10:00:01 → terminal $ ls -la',
      '10:00:02 ← terminal exit 2 ls: cannot access ⏎ x: No such file',
      '10:00:03 agent: Done: ⏎ all files listed',
      '10:00:05 ✗ terminal failed: the command timed out',
      '',
    ]);
  });

  it('prints each event once, a result when it joins its tool call, and nothing for an unchanged item', () => {
    const s = screen(false);
    const view = new LiveView(s);
    const projection = new Projection();
    projection.append([sample.action as Event]);
    view.show(snapshot(projection.items));
    view.show(snapshot(projection.items));
    projection.append([sample.observation as Event, sample.state as Event]);
    view.show(snapshot(projection.items, { status: 'finished' }));
    expect(s.text().split('\n')).toEqual([
      '● running',
      '10:00:01 → terminal $ ls -la',
      '10:00:02 ← terminal exit 2 ls: cannot access ⏎ x: No such file',
      '● finished',
      '',
    ]);
  });

  it('is plain text when not a terminal: no colour, no cursor movement, no typing; reconnects get a line', () => {
    const s = screen(false);
    const view = new LiveView(s);
    view.show(snapshot([streaming('Hel')]));
    view.items(projectEvents([sample.error as Event]));
    view.show(snapshot([], { connection: 'reconnecting' }));
    view.show(snapshot([], { connection: 'live' }));
    view.end();
    expect(s.text()).not.toContain(ESC);
    expect(s.text()).not.toContain('Hel');
    expect(s.text()).toContain('↻ reconnecting\n');
  });

  it('on a terminal: errors in red, streamed text typed above a status line with the status, reconnects and cost', () => {
    const s = screen(true);
    const view = new LiveView(s);
    view.show(snapshot([streaming('Hel')]));
    view.show(snapshot([streaming('Hello')]));
    expect(s.text()).toContain('✎ Hello');
    view.show(snapshot([streaming('Hello')], { connection: 'reconnecting' }));
    view.show(snapshot([streaming('Hello')]));
    expect(s.text()).toContain('1 reconnect');
    view.items(projectEvents([sample.error as Event]));
    expect(s.text()).toContain(`${ESC}31m10:00:05 ✗ terminal failed`);
    // The persisted message takes the streamed text's place: no more typing. The `stats` state is the cost.
    const stats = {
      usage_to_metrics: { agent: { accumulated_cost: 0.0123 }, condenser: { accumulated_cost: 0.001 } },
    };
    const state = { execution_status: 'running', stats } as unknown as ConversationSnapshot['state'];
    view.show(snapshot(projectEvents([sample.message as Event]), { state }));
    const afterMessage = s.text().slice(s.text().lastIndexOf('agent: Done'));
    expect(afterMessage).not.toContain('✎');
    expect(afterMessage).toContain('● running');
    expect(afterMessage).toContain('· 1 reconnect · $0.0133');
    expect(s.text()).not.toContain('stats');
  });

  it('turns colours off when stdout is not a TTY, with NO_COLOR or --no-color', () => {
    const args = (options: ParsedArgs['options'] = {}): ParsedArgs => ({
      positionals: {},
      options,
      help: false,
    });
    const tty = (env: Record<string, string> = {}): Terminal => ({
      stdout: { write: () => true, isTTY: true, columns: 100 },
      stderr: { write: () => true },
      env,
      interrupted: new Promise(() => {}),
    });
    expect(screenOf(args(), tty())).toMatchObject({ interactive: true, color: true, width: 100 });
    expect(screenOf(args(), { ...tty(), stdout: { write: () => true } })).toMatchObject({
      interactive: false,
      color: false,
    });
    expect(screenOf(args(), tty({ NO_COLOR: '1' })).color).toBe(false);
    expect(screenOf(args({ 'no-color': true }), tty()).color).toBe(false);
  });
});

describe('follow and events against the simulator (not a terminal)', () => {
  let sim: LoopbackSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ stepDelayMs: 1 });
  });
  afterAll(() => sim?.close());

  function terminal() {
    let stdout = '';
    let stderr = '';
    const term: Terminal = {
      stdout: {
        write: (t: string) => {
          stdout += t;
          return true;
        },
      },
      stderr: {
        write: (t: string) => {
          stderr += t;
          return true;
        },
      },
      env: {
        AGENT_SERVER_URL: sim.info.agentServer.url,
        SESSION_API_KEY: sim.info.agentServer.sessionApiKey,
      },
      interrupted: new Promise(() => {}),
    };
    return { term, out: () => stdout, err: () => stderr };
  }
  const args = (id: string, options: ParsedArgs['options'] = {}): ParsedArgs => ({
    positionals: { 'conversation-id': id },
    options,
    help: false,
  });

  it('follows until the run finishes, then exits 0; plain lines, --json one event per line', async () => {
    const options = { baseUrl: sim.info.agentServer.url, sessionApiKey: sim.info.agentServer.sessionApiKey };
    const { id } = await new ConversationsClient(options).create({
      agent: { llm: { model: 'm' } },
      workspace: { working_dir: '/tmp' },
    });
    const text = terminal();
    const json = terminal();
    const following = followCommand(args(id), text.term);
    const followingJson = followCommand(args(id, { json: true }), json.term);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await new EventsClient(options).send(id, { content: 'say hi', run: true });
    expect(await following).toBe(0);
    expect(await followingJson).toBe(0);
    expect(text.out()).not.toContain(ESC);
    expect(text.out()).toMatch(/user: say hi\n/);
    // The status as lines of its own, no state update as a line (the stats blobs were noise).
    expect(text.out()).toMatch(/● running\n[\s\S]*● finished\n$/);
    expect(text.out()).not.toMatch(/execution_status|stats|full_state/);
    const lines = json.out().trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as Event).kind)).toContain('MessageEvent');

    const history = terminal();
    expect(await eventsCommand(args(id), history.term)).toBe(0);
    // One line per event that is not a state update, as `follow` printed them.
    const kinds = lines.map((line) => (JSON.parse(line) as Event).kind);
    const shown = kinds.filter((kind) => kind !== 'ConversationStateUpdateEvent').length;
    expect(history.out().split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(shown);
    expect(history.out()).not.toMatch(/execution_status|stats/);
  });

  it('exits 0 at once for a conversation already finished; a bad id is a usage error', async () => {
    const options = { baseUrl: sim.info.agentServer.url, sessionApiKey: sim.info.agentServer.sessionApiKey };
    const conversations = new ConversationsClient(options);
    const { id } = await conversations.create({
      agent: { llm: { model: 'm' } },
      workspace: { working_dir: '/tmp' },
      initial_message: 'hello',
    });
    await conversations.waitUntil(id, 'finished', { timeout: 10_000 });
    expect(await followCommand(args(id), terminal().term)).toBe(0);
    await expect(followCommand(args('not-a-uuid'), terminal().term)).rejects.toThrow(/conversationId/);
  });
});
