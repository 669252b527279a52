import { ConversationView } from '../agent-server/view/conversation-view.js';
import {
  type Event,
  EventsClient,
  isNotAnAgentServerError,
  isRequestValidationError,
  isSubscriptionNotFoundError,
  isTerminalExecutionStatus,
  Projection,
  type WebSocketConstructor,
} from '../index.js';
import type { OptionSpec, ParsedArgs } from './args.js';
import { UsageError } from './args.js';
import { cliWebSocket } from './cli-web-socket.js';
import { LiveView, type Screen } from './live-view.js';

/** `agent-platform follow` and `events`: a conversation in the terminal, through the SDK's public API only. */

export const CONNECTION_OPTIONS: OptionSpec[] = [
  {
    name: 'base-url',
    type: 'string',
    valueName: 'URL',
    description: 'The agent server, e.g. http://localhost:8000. Default: $AGENT_SERVER_URL.',
  },
  {
    name: 'session-api-key',
    type: 'string',
    valueName: 'KEY',
    description: 'Sent as X-Session-API-Key. Default: $SESSION_API_KEY (prefer it: a flag shows in ps).',
  },
  { name: 'json', type: 'boolean', description: 'One JSON event per line on stdout, nothing else.' },
  { name: 'no-color', type: 'boolean', description: 'No colours (also: NO_COLOR set, or not a terminal).' },
];

export interface Terminal {
  stdout: { write(text: string): unknown; isTTY?: boolean | undefined; columns?: number | undefined };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Resolves when the user asks to stop (Ctrl-C). */
  interrupted: Promise<void>;
}

/** Exit status of a follow that the user stopped (128 + SIGINT, as shells report it). */
export const INTERRUPTED = 130;

export async function followCommand(args: ParsedArgs, terminal: Terminal): Promise<number> {
  const id = conversationId(args);
  const events = client(args, terminal);
  const WebSocket = await cliWebSocket();
  if (args.options.json === true) return followJson(id, events, WebSocket, args, terminal);
  return followView(id, events, WebSocket, args, terminal);
}

/**
 * `follow` on a terminal: a `ConversationView`, the same items a web page shows (docs/conversation-view.md).
 * The newest page first (all of the history with `--history`), then live, until the conversation is idle:
 * `whenIdle()`, which also waits for the `stats` update the server persists after the status, so nothing of a
 * finished run is left out.
 */
async function followView(
  id: string,
  events: EventsClient,
  WebSocket: WebSocketConstructor | undefined,
  args: ParsedArgs,
  terminal: Terminal,
): Promise<number> {
  const screen = new LiveView(screenOf(args, terminal));
  const view = new ConversationView(id, events, { ...(WebSocket ? { WebSocket } : {}) });
  let stopped = false;
  void terminal.interrupted.then(() => {
    stopped = true;
    view.close();
  });
  // Lines only once what comes before them is loaded: with `--history`, after the oldest page.
  let showing = false;
  const unsubscribe = view.subscribe(() => {
    if (showing) screen.show(view.getSnapshot());
  });
  try {
    await view.ready;
    if (args.options.history === true) while (await view.loadOlder()) {}
    showing = true;
    screen.show(view.getSnapshot());
    const idle = await view.whenIdle();
    screen.show(idle);
    screen.end();
    return exitFor(String(idle.status));
  } catch (error) {
    screen.end();
    if (stopped) {
      terminal.stderr.write('interrupted\n');
      return INTERRUPTED;
    }
    if (isRequestValidationError(error)) throw new UsageError(error.message);
    throw await explained(error, events, id);
  } finally {
    unsubscribe();
    view.close();
  }
}

/** `follow --json`: every event as the server sends it, state updates included, one JSON line each. */
async function followJson(
  id: string,
  events: EventsClient,
  WebSocket: WebSocketConstructor | undefined,
  args: ParsedArgs,
  terminal: Terminal,
): Promise<number> {
  const subscription = events.subscribe(id, {
    history: args.options.history === true,
    ...(WebSocket ? { WebSocket } : {}),
  });
  subscription.on('reconnecting', (info) => {
    terminal.stderr.write(`reconnecting (${info.reason}, attempt ${info.attempt})\n`);
  });
  let stopped = false;
  /** The terminal status the conversation reached, once everything before it was written. */
  let ended: string | undefined;
  // The state mirror is the conversation's current state (history replayed with `--history` does not roll it
  // back): the output ends when it is terminal and every event delivered so far has been written.
  const endIfOver = () => {
    const status = subscription.state?.execution_status;
    if (isTerminalExecutionStatus(status) && subscription.buffered === 0 && subscription.phase === 'live') {
      ended = status;
      subscription.close();
    }
  };
  subscription.on('state', () => queueMicrotask(endIfOver));
  // A finished conversation sends nothing more: the catch-up after `ready` ends in `open` (phase live) alone.
  subscription.on('open', () => queueMicrotask(endIfOver));
  void terminal.interrupted.then(() => {
    stopped = true;
    subscription.close();
  });
  try {
    await subscription.ready;
    endIfOver();
    for await (const event of subscription) {
      terminal.stdout.write(`${JSON.stringify(event)}\n`);
      endIfOver();
    }
    if (ended !== undefined) return exitFor(ended);
    if (stopped) terminal.stderr.write('interrupted\n');
    return stopped ? INTERRUPTED : 1;
  } catch (error) {
    if (stopped) {
      terminal.stderr.write('interrupted\n');
      return INTERRUPTED;
    }
    if (isRequestValidationError(error)) throw new UsageError(error.message);
    throw await explained(error, events, id);
  }
}

/**
 * The subscription says "not found" for a conversation the server lacks and for a base URL that is no agent
 * server alike; one REST call tells them apart (it throws NotAnAgentServerError for the latter).
 */
async function explained(error: unknown, events: EventsClient, id: string): Promise<unknown> {
  if (!isSubscriptionNotFoundError(error)) return error;
  try {
    await events.count(id);
  } catch (rest) {
    if (isNotAnAgentServerError(rest)) return rest;
  }
  return error;
}

export async function eventsCommand(args: ParsedArgs, terminal: Terminal): Promise<number> {
  const id = conversationId(args);
  const events = client(args, terminal);
  const json = args.options.json === true;
  const view = json ? undefined : new LiveView({ ...screenOf(args, terminal), interactive: false });
  // The same items as `follow` and a web page: the projection of the history (state updates make none).
  const projection = new Projection();
  const controller = new AbortController();
  void terminal.interrupted.then(() => controller.abort());
  try {
    // Printed a page at a time: a result joins its call's item, which may be any of the page's items.
    let page: Event[] = [];
    for await (const event of events.search(id, {}, { signal: controller.signal })) {
      if (!view) terminal.stdout.write(`${JSON.stringify(event)}\n`);
      else if (page.push(event) === 100) {
        projection.append(page);
        view.items(projection.items);
        page = [];
      }
    }
    if (view && projection.append(page)) view.items(projection.items);
    return 0;
  } catch (error) {
    if (controller.signal.aborted) return INTERRUPTED;
    if (isRequestValidationError(error)) throw new UsageError(error.message);
    throw error;
  }
}

function conversationId(args: ParsedArgs): string {
  const id = args.positionals['conversation-id'];
  if (!id) throw new UsageError('the following arguments are required: conversation-id');
  return id;
}

/** The same client options and environment variables as `new EventsClient()` in an app. */
function client(args: ParsedArgs, terminal: Terminal): EventsClient {
  const baseUrl = stringOption(args, 'base-url') ?? terminal.env.AGENT_SERVER_URL;
  if (!baseUrl) throw new UsageError('no agent server: pass --base-url or set AGENT_SERVER_URL');
  const sessionApiKey = stringOption(args, 'session-api-key') ?? terminal.env.SESSION_API_KEY;
  // The view shows reconnects itself; the SDK's log lines would cut through the status line.
  return new EventsClient({ baseUrl, ...(sessionApiKey ? { sessionApiKey } : {}), logLevel: 'off' });
}

export function screenOf(args: ParsedArgs, terminal: Terminal): Screen {
  const tty = terminal.stdout.isTTY === true && terminal.env.TERM !== 'dumb';
  const noColor = args.options['no-color'] === true || (terminal.env.NO_COLOR ?? '') !== '';
  return {
    write: (text) => terminal.stdout.write(text),
    interactive: tty,
    color: tty && !noColor,
    width: terminal.stdout.columns && terminal.stdout.columns > 20 ? terminal.stdout.columns : 160,
  };
}

function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** 0 when the conversation finished; 1 when it ended in `error` or `stuck`. */
function exitFor(status: string): number {
  return status === 'finished' ? 0 : 1;
}
