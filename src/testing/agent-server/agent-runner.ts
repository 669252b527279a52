import { ScriptedAgent } from './scripted-agent.js';
import type { AgentServerStore, StoredEvent } from './store.js';

export interface AgentRunnerOptions {
  /** Milliseconds between the events of a simulated turn. Default 5. */
  stepDelayMs?: number;
}

/**
 * Runs the ScriptedAgent for a conversation the way the server runs its agent loop: `run`
 * returns at once, the turn's events are published one by one in the background, and when the loop ends a
 * `full_state` snapshot is published (not persisted).
 */
export class AgentRunner {
  readonly #store: AgentServerStore;
  readonly #stepDelay: number;
  readonly #agents = new Map<string, ScriptedAgent>();
  readonly #running = new Set<string>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(store: AgentServerStore, options: AgentRunnerOptions = {}) {
    this.#store = store;
    this.#stepDelay = options.stepDelayMs ?? 5;
  }

  isRunning(conversationId: string): boolean {
    const conversation = this.#store.getConversation(conversationId);
    return (
      this.#running.has(conversation?.id ?? conversationId) ||
      conversation?.info.execution_status === 'running'
    );
  }

  /** Starts a turn answering the last user message; false when a turn already runs (the server's 409). */
  run(conversationId: string): boolean {
    const conversation = this.#store.getConversation(conversationId);
    if (!conversation || this.isRunning(conversation.id)) return false;
    const id = conversation.id;
    let agent = this.#agents.get(id);
    if (!agent) {
      agent = new ScriptedAgent({ seed: this.#agents.size + 1 });
      this.#agents.set(id, agent);
    }
    const lastUser = [...conversation.events]
      .reverse()
      .find((event) => event.kind === 'MessageEvent' && event.source === 'user');
    const text = textOf(lastUser) ?? 'Say hello';
    const steps = agent.respond(text);
    this.#running.add(id);
    this.#publishFrom(id, steps, 0);
    return true;
  }

  /** Stops a running turn (pause): the rest of its events are not published. */
  stop(conversationId: string): void {
    const conversation = this.#store.getConversation(conversationId);
    if (conversation) this.#running.delete(conversation.id);
  }

  /** Cancels every pending step (call when the simulator shuts down). */
  dispose(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#running.clear();
  }

  #publishFrom(id: string, steps: StoredEvent[], index: number): void {
    if (!this.#running.has(id) || !this.#store.getConversation(id)) return;
    const step = steps[index];
    if (!step) {
      this.#running.delete(id);
      this.#store.publishEphemeral(id, this.#store.fullState(id));
      return;
    }
    // A server stamps events when it creates them.
    this.#store.publish(id, { ...step, timestamp: this.#store.timestamp() });
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#publishFrom(id, steps, index + 1);
    }, this.#stepDelay);
    this.#timers.add(timer);
  }
}

function textOf(event: StoredEvent | undefined): string | undefined {
  const content = (event?.llm_message as { content?: { text?: unknown }[] } | undefined)?.content;
  const text = content?.find((item) => typeof item.text === 'string')?.text;
  return typeof text === 'string' ? text : undefined;
}
