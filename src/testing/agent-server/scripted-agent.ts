import type { StoredEvent } from './store.js';

export interface ScriptedAgentOptions {
  /** Clock for event timestamps (default: the real clock). */
  now?: () => Date;
  /** Seed of the deterministic ids (default 1). Two agents with the same seed produce the same ids. */
  seed?: number;
}

/**
 * A deterministic stand-in for the LLM-driven agent: it answers a user message with the events a real
 * agent server emits for one terminal command (shapes of the anchor samples):
 * `execution_status` running → ActionEvent(TerminalAction) → ObservationEvent(TerminalObservation) →
 * agent MessageEvent → ActionEvent(FinishAction) → ObservationEvent(FinishObservation) →
 * `execution_status` finished.
 */
export class ScriptedAgent {
  readonly #now: () => Date;
  #counter: number;

  constructor(options: ScriptedAgentOptions = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#counter = (options.seed ?? 1) * 1_000_000;
  }

  /** The user's message as the server stores it (POST /events). */
  userMessage(text: string): StoredEvent {
    return {
      ...this.#common('user'),
      kind: 'MessageEvent',
      llm_message: {
        role: 'user',
        content: [{ cache_prompt: false, type: 'text', text }],
        thinking_blocks: [],
      },
      activated_skills: [],
      extended_content: [],
    };
  }

  /** The events of one agent turn answering `text`. */
  respond(text: string): StoredEvent[] {
    const command = commandFor(text);
    const terminal = this.#action(
      'terminal',
      { command, is_input: false, reset: false, kind: 'TerminalAction' },
      {
        command,
        security_risk: 'LOW',
        summary: `Run ${command}`,
      },
    );
    const output = `${outputOf(command)}\n`;
    const reply = `I ran \`${command}\`; it printed: ${outputOf(command)}`;
    const finish = this.#action(
      'finish',
      { message: reply, kind: 'FinishAction' },
      { message: reply, summary: 'Done' },
    );
    return [
      this.#stateUpdate('execution_status', 'running'),
      terminal,
      this.#observation(terminal, {
        content: [{ cache_prompt: false, type: 'text', text: output }],
        is_error: false,
        command,
        exit_code: 0,
        timeout: false,
        metadata: {
          exit_code: 0,
          pid: -1,
          username: 'openhands',
          hostname: 'simulator',
          working_dir: '/workspace/project',
          prefix: '',
          suffix: '\n[The command completed with exit code 0.]',
        },
        kind: 'TerminalObservation',
      }),
      {
        ...this.#common('agent'),
        kind: 'MessageEvent',
        llm_message: {
          role: 'assistant',
          content: [{ cache_prompt: false, type: 'text', text: reply }],
          thinking_blocks: [],
        },
        llm_response_id: this.#id('chatcmpl'),
        activated_skills: [],
        extended_content: [],
      },
      finish,
      this.#observation(finish, {
        content: [{ cache_prompt: false, type: 'text', text: reply }],
        is_error: false,
        kind: 'FinishObservation',
      }),
      this.#stateUpdate('execution_status', 'finished'),
    ];
  }

  #action(tool: string, action: Record<string, unknown>, args: Record<string, unknown>): StoredEvent {
    const callId = this.#id('call');
    return {
      ...this.#common('agent'),
      kind: 'ActionEvent',
      thought: [],
      thinking_blocks: [],
      action,
      tool_name: tool,
      tool_call_id: callId,
      tool_call: { id: callId, name: tool, arguments: JSON.stringify(args), origin: 'completion' },
      llm_response_id: this.#id('chatcmpl'),
      security_risk: (args.security_risk as string | undefined) ?? 'UNKNOWN',
      summary: args.summary,
    };
  }

  #observation(action: StoredEvent, observation: Record<string, unknown>): StoredEvent {
    return {
      ...this.#common('environment'),
      kind: 'ObservationEvent',
      tool_name: action.tool_name,
      tool_call_id: action.tool_call_id,
      observation,
      action_id: action.id,
    };
  }

  #stateUpdate(key: string, value: unknown): StoredEvent {
    return { ...this.#common('environment'), kind: 'ConversationStateUpdateEvent', key, value };
  }

  #common(source: 'agent' | 'user' | 'environment') {
    // The server's timestamps are naive local ISO strings.
    return { id: this.#uuid(), timestamp: this.#now().toISOString().replace('Z', ''), source };
  }

  #uuid(): string {
    this.#counter += 1;
    const hex = this.#counter.toString(16).padStart(12, '0');
    return `00000000-0000-4000-8000-${hex}`;
  }

  #id(prefix: string): string {
    this.#counter += 1;
    return `${prefix}-sim${this.#counter.toString(36)}`;
  }
}

/** The command the agent runs: text in backticks when there is some, else an `echo` of the message. */
function commandFor(text: string): string {
  const quoted = /`([^`]+)`/.exec(text)?.[1];
  return quoted ?? `echo ${JSON.stringify(text.slice(0, 60))}`;
}

function outputOf(command: string): string {
  if (command === 'pwd') return '/workspace/project';
  const echo = /^echo\s+"?(.*?)"?$/.exec(command);
  return echo ? (echo[1] ?? '') : `(simulated output of ${command})`;
}
