import type { HttpHandler } from 'msw';
import { http } from 'msw/http';
import { WebSocketHandler, type WebSocketHandlerConnection, ws } from 'msw/ws';
import { sharedBash } from './bash-simulation.js';
import { BashSocketSession } from './bash-socket-session.js';
import { agentRunnerFor } from './handlers.js';
import { SimulatedGit } from './simulated-git.js';
import { simulatedShell } from './simulated-shell.js';
import { decideHandshake, EventSocketSession, type SocketSimulationOptions } from './socket-session.js';
import { AgentServerStore } from './store.js';
import { versionAtLeast } from './versions.js';
import { SimulatedFiles } from './workspace-files.js';

export interface AgentServerSocketHandlersOptions extends Partial<Omit<SocketSimulationOptions, 'runner'>> {
  /** `{base_url}` of the agent server (`http://…` or `ws://…`), e.g. `http://localhost:8000`. */
  baseUrl: string;
}

/**
 * msw `ws` handlers for `/sockets/events/{conversation_id}`, (servers ≥ 1.45.0) `/sockets/session/{…}` and
 * `/sockets/bash-events` (`BashSocketSession`, sharing the bash log of the REST handlers), speaking the protocol of the chosen server
 * version (see `EventSocketSession`). Pair it with `agentServerHandlers` on the same store. A refused
 * handshake is simulated the way a browser sees one: close 1006 without `open`.
 */
export function agentServerSocketHandlers(options: AgentServerSocketHandlersOptions) {
  const store = options.store ?? new AgentServerStore();
  const simulation: SocketSimulationOptions = { ...options, store, runner: agentRunnerFor(store) };
  const base = options.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws');
  const onConnection = ({ client, info }: Connection) => {
    // msw hands over the constructor's second argument as `protocols`: `{ headers }` for header auth.
    const protocols = info.protocols as unknown as { headers?: Record<string, string> } | undefined;
    const headers = protocols?.headers ?? {};
    const headerKey = Object.entries(headers).find(
      ([name]) => name.toLowerCase() === 'x-session-api-key',
    )?.[1];
    if (decideHandshake(client.url, headerKey, simulation) === 'refuse') {
      client.close(1006, '');
      return;
    }
    const session = new EventSocketSession(
      { send: sendWhenOpen(client), close: (code, reason) => client.close(code, reason) },
      client.url,
      headerKey,
      simulation,
    );
    client.addEventListener('message', (event) => session.onMessage(String(event.data)));
    client.addEventListener('close', () => session.onClose());
    session.start();
  };
  const hasSessionSocket = versionAtLeast(simulation.version, [1, 45, 0]);
  // The bash log is shared with the REST handlers of the same store; looked up at connect time, so that their
  // `shell` option applies whichever handlers were made first (a bare shell when there are none).
  const bashLog = () =>
    sharedBash(store, () => {
      const files = new SimulatedFiles();
      return simulatedShell({ files, git: new SimulatedGit(files) });
    });
  // Handlers of our own, not `ws.link()`: msw's link adds a listener to its one BroadcastChannel per link and per
  // connection, and leaks the latter for a handshake refused in the connection listener (see `socketDouble`).
  return [
    ...socketDouble(`${base}/sockets/:socket/:conversationId`, (connection) => {
      for (const observe of OBSERVERS.get(base) ?? []) observe(connection);
      const socket = connection.params.socket;
      // The session socket exists from 1.45.0; a handshake on a path the server lacks is its 404, which a
      // WebSocket client only sees as close 1006 without `open`.
      if (socket === 'events' || (socket === 'session' && hasSessionSocket)) onConnection(connection);
      else connection.client.close(1006, '');
    }),
    ...socketDouble(`${base}/sockets/bash-events`, (connection) => {
      for (const observe of OBSERVERS.get(base) ?? []) observe(connection);
      const { client, info } = connection;
      const protocols = info.protocols as unknown as { headers?: Record<string, string> } | undefined;
      const headerKey = Object.entries(protocols?.headers ?? {}).find(
        ([name]) => name.toLowerCase() === 'x-session-api-key',
      )?.[1];
      if (decideHandshake(client.url, headerKey, simulation) === 'refuse') {
        client.close(1006, '');
        return;
      }
      const session = new BashSocketSession(
        { send: sendWhenOpen(client), close: (code, reason) => client.close(code, reason) },
        client.url,
        headerKey,
        simulation,
        bashLog(),
      );
      client.addEventListener('message', (event) => session.onMessage(String(event.data)));
      client.addEventListener('close', () => session.onClose());
      session.start();
    }),
  ];
}

/** A connection as a socket double sees it: msw's client and server handles, the handshake info, the path params. */
export type Connection = WebSocketHandlerConnection;

const OBSERVERS = new Map<string, Set<(connection: Connection) => void>>();

/**
 * Calls `observe` with every socket connection to the double of `baseUrl`, from the double's own handler (for a
 * test's recorder, which thus sees a connection before the double answers it).
 */
export function observeSocketConnections(baseUrl: string, observe: (connection: Connection) => void): void {
  const base = baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws');
  let set = OBSERVERS.get(base);
  if (!set) {
    set = new Set();
    OBSERVERS.set(base, set);
  }
  set.add(observe);
}

/**
 * msw handlers for the websocket `url` (`ws://host/path`, with `:params`) that call `onConnection` with each
 * connection they match: what `ws.link(url).addEventListener('connection', onConnection)` gives (the websocket
 * handler, and the HTTP `upgrade` handler that lets Node clients such as `ws` reach it), without the link.
 *
 * msw's link keeps its clients in a client manager that listens on one BroadcastChannel shared by every link of
 * the process (msw 3.0.5, `WebSocketClientManager` in msw/lib/_chunks/ws.js): one `message` listener per
 * `ws.link()`, never removed, and one per connection, removed on the client's `close` — registered only after
 * `await this.addClient(client)`, so a connection closed in its `connection` listener (a refused handshake) has
 * already closed by then and its listener stays for good. Past ten, Node warns of a leak
 * (MaxListenersExceededWarning). Doubles use neither `link.clients` nor `broadcast()`, the only things the
 * manager serves: this handler calls `onConnection` from `run()`, which msw awaits for each matching handler
 * before it connects the handler's own (here empty) listeners, and adds no listener to the channel.
 */
export function socketDouble(
  url: string,
  onConnection: (connection: Connection) => void,
): [WebSocketHandler, HttpHandler] {
  const handler = new SocketDoubleHandler(url, onConnection);
  // As msw's own upgrade handler: a Node client's HTTP upgrade request becomes an intercepted WebSocket.
  const upgrade = http.get(
    ({ request }) =>
      request.headers.get('upgrade')?.toLowerCase() === 'websocket' &&
      handler.test(request.url.replace(/^http/, 'ws')),
    ws.onUpgrade,
  );
  return [handler, upgrade];
}

class SocketDoubleHandler extends WebSocketHandler {
  readonly #onConnection: (connection: Connection) => void;

  constructor(url: string, onConnection: (connection: Connection) => void) {
    super(url);
    this.#onConnection = onConnection;
  }

  override async run(...args: Parameters<WebSocketHandler['run']>): ReturnType<WebSocketHandler['run']> {
    const connection = await super.run(...args);
    if (connection) this.#onConnection(connection);
    return connection;
  }
}

/**
 * `client.send`, holding what is sent before the socket is open behind one `open` listener. msw parks each such
 * frame behind an `open` listener of its own, so a connect-time replay of more than ten events set off Node's
 * MaxListenersExceededWarning. msw's client handle does not type its `socket`; without one, frames go straight.
 */
function sendWhenOpen(client: { send(data: string): void }): (text: string) => void {
  const socket = (client as { socket?: WebSocket }).socket;
  let waiting: string[] | undefined;
  return (text) => {
    if (socket?.readyState !== 0 /* CONNECTING */) {
      client.send(text);
      return;
    }
    if (!waiting) {
      waiting = [];
      socket.addEventListener(
        'open',
        () => {
          const frames = waiting ?? [];
          waiting = undefined;
          for (const frame of frames) client.send(frame);
        },
        { once: true },
      );
    }
    waiting.push(text);
  };
}
