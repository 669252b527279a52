import type { DeleteResult } from '../../core/delete-result.js';
import type { RequestOptions } from '../../core/options.js';
import type { ExecutionStatus } from '../../models/index.js';
import type { ConversationInfo } from '../conversation-info.js';
import type { ConfirmationPolicy } from '../conversations-client.js';
import { SubscriptionError, WaitTimeoutError } from '../errors.js';
import type { Subscription } from '../live/subscription.js';
import type { SubscribeOptions } from '../live/types.js';
import type { MessageInput } from '../message-input.js';
import { ConversationView } from '../view/conversation-view.js';
import type { ConversationViewOptions } from '../view/types.js';
import type { WaitUntilOptions } from '../wait-until.js';
import { BashApi } from './bash.js';
import type { ConversationsApi, FinalResponseOptions, ForkRequest } from './conversations.js';
import type { EventsApi } from './events.js';
import { FilesApi } from './files.js';
import { GitApi } from './git.js';
import { VSCodeApi } from './vscode.js';

/**
 * One conversation, for the everyday flow: send, run, follow, wait, read the final answer, fork, interrupt;
 * and its runtime's files, shell, git and VS Code (the `/api/conversations/{id}/…` routes of 1.58.0). A thin
 * face over `client.conversations` and `client.events`: every method is one of theirs with the id filled in.
 */
export class ConversationHandle {
  readonly id: string;
  /** The conversation runtime's files (1.58.0; use `client.files` on older servers). */
  readonly files: FilesApi;
  readonly bash: BashApi;
  readonly git: GitApi;
  readonly vscode: VSCodeApi;
  readonly #conversations: ConversationsApi;
  readonly #events: EventsApi;

  constructor(id: string, conversations: ConversationsApi, events: EventsApi) {
    this.id = id;
    this.#conversations = conversations;
    this.#events = events;
    const api = events.context;
    this.files = new FilesApi(api, id);
    this.bash = new BashApi(api, id, (options) => events.followBash(options));
    this.git = new GitApi(api, id);
    this.vscode = new VSCodeApi(api, id);
  }

  info(options?: RequestOptions): Promise<ConversationInfo> {
    return this.#conversations.get(this.id, options);
  }

  /** Sends a user message; `{run: true}` also starts the agent. */
  send(message: MessageInput, options?: RequestOptions): Promise<void> {
    return this.#events.send(this.id, message, options);
  }

  run(options?: RequestOptions): Promise<void> {
    return this.#conversations.run(this.id, options);
  }

  pause(options?: RequestOptions): Promise<void> {
    return this.#conversations.pause(this.id, options);
  }

  interrupt(options?: RequestOptions): Promise<void> {
    return this.#conversations.interrupt(this.id, options);
  }

  /** Follows the events live (exactly once, in order, across reconnects). */
  subscribe(options?: SubscribeOptions): Subscription {
    return this.#events.subscribe(this.id, options);
  }

  /**
   * A live view of the conversation for a screen (docs/conversation-view.md): the newest page, older pages on
   * demand, live events, streamed text and optimistic sends as one immutable snapshot.
   */
  view(options?: ConversationViewOptions): ConversationView {
    return new ConversationView(this.id, this.#events, options);
  }

  /** See `ConversationsClient.waitUntil` (default: a terminal status). */
  waitUntil(
    statuses?: readonly ExecutionStatus[] | ExecutionStatus,
    options?: WaitUntilOptions,
  ): Promise<ExecutionStatus> {
    return this.#conversations.waitUntil(this.id, statuses, options);
  }

  /**
   * Sends `message` with `run: true` and resolves with the final answer once this run has ended. The
   * subscription opens first, so the run's own status changes are seen (a `waitUntil` alone could return the
   * previous run's `finished`). Rejects like `waitUntil` (timeout, abort, fatal stream errors).
   */
  async ask(
    message: MessageInput,
    options: WaitUntilOptions = {},
  ): Promise<{ status: ExecutionStatus; response: string }> {
    const live = this.#events.subscribe(this.id, options.signal ? { signal: options.signal } : {});
    try {
      await live.ready;
      const ended = watchRunEnd(live);
      ended.catch(() => undefined);
      const text = typeof message === 'string' ? { content: message, run: true } : { ...message, run: true };
      await this.#events.send(
        this.id,
        text as MessageInput,
        options.signal ? { signal: options.signal } : {},
      );
      const status = await withTimeout(ended, options.timeout);
      return { status, response: await this.finalResponse(options.signal ? { signal: options.signal } : {}) };
    } finally {
      live.close();
    }
  }

  finalResponse(options?: FinalResponseOptions): Promise<string> {
    return this.#conversations.finalResponse(this.id, options);
  }

  askAgent(question: string, options?: RequestOptions): Promise<string> {
    return this.#conversations.askAgent(this.id, question, options);
  }

  /** Forks the conversation; resolves with a handle on the fork. */
  async fork(request?: ForkRequest, options?: RequestOptions): Promise<ConversationHandle> {
    const info = await this.#conversations.fork(this.id, request, options);
    return new ConversationHandle(info.id, this.#conversations, this.#events);
  }

  condense(options?: RequestOptions): Promise<void> {
    return this.#conversations.condense(this.id, options);
  }

  setTitle(title: string, options?: RequestOptions): Promise<void> {
    return this.#conversations.setTitle(this.id, title, options);
  }

  setConfirmationPolicy(
    policy: ConfirmationPolicy | ConfirmationPolicy['kind'],
    options?: RequestOptions,
  ): Promise<void> {
    return this.#conversations.setConfirmationPolicy(this.id, policy, options);
  }

  respondToConfirmation(
    response: { accept: boolean; reason?: string },
    options?: RequestOptions,
  ): Promise<void> {
    return this.#events.respondToConfirmation(this.id, response, options);
  }

  /** The trajectory as a zip archive (server-wide route: works on every version that has downloads). */
  downloadTrajectory(options?: RequestOptions): Promise<Uint8Array> {
    return new FilesApi(this.#events.context).downloadTrajectory(this.id, options);
  }

  delete(options?: RequestOptions): Promise<DeleteResult> {
    return this.#conversations.delete(this.id, options);
  }

  toJSON(): Record<string, unknown> {
    return { conversation: this.id };
  }
}

const TERMINAL: readonly string[] = ['finished', 'error', 'stuck'];

/**
 * The status this run ends with: the first terminal `execution_status` update after one that is not
 * terminal (the run started), or an `error`/`stuck` at any point.
 */
async function watchRunEnd(live: Subscription): Promise<ExecutionStatus> {
  let started = false;
  for await (const event of live) {
    const update = event as { kind?: unknown; key?: unknown; value?: unknown };
    if (update.kind !== 'ConversationStateUpdateEvent') continue;
    const status =
      update.key === 'execution_status'
        ? update.value
        : update.key === 'full_state'
          ? (update.value as { execution_status?: unknown } | null)?.execution_status
          : undefined;
    if (typeof status !== 'string') continue;
    if (!TERMINAL.includes(status)) started = true;
    else if (started || status !== 'finished') return status as ExecutionStatus;
  }
  throw new SubscriptionError('The event stream ended before the run did');
}

/** `promise`, or a WaitTimeoutError after `timeout` ms; the timer never outlives the wait (it would keep Node alive). */
async function withTimeout<T>(promise: Promise<T>, timeout: number | undefined): Promise<T> {
  if (timeout === undefined) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new WaitTimeoutError(`the run did not end within ${timeout} ms`, undefined)),
      timeout,
    );
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
