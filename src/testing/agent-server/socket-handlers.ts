import { ws } from 'msw/ws';
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
  const onConnection: Parameters<ReturnType<typeof ws.link>['addEventListener']>[1] = ({ client, info }) => {
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
  const bashLink = ws.link(`${base}/sockets/bash-events`);
  // One link for both sockets: msw adds a listener to one shared BroadcastChannel per `ws.link()`, and a test
  // file with several simulated servers went past Node's limit of ten (MaxListenersExceededWarning).
  return [
    socketLink(base).addEventListener('connection', (connection) => {
      for (const observe of OBSERVERS.get(base) ?? []) observe(connection);
      const socket = connection.params.socket;
      // The session socket exists from 1.45.0; a handshake on a path the server lacks is its 404, which a
      // WebSocket client only sees as close 1006 without `open`.
      if (socket === 'events' || (socket === 'session' && hasSessionSocket)) onConnection(connection);
      else connection.client.close(1006, '');
    }),
    bashLink.addEventListener('connection', (connection) => {
      for (const observe of OBSERVERS.get(base) ?? []) observe(connection as Connection);
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

type Link = ReturnType<typeof ws.link>;
type Connection = Parameters<Parameters<Link['addEventListener']>[1]>[0];

const LINKS = new Map<string, Link>();
const OBSERVERS = new Map<string, Set<(connection: Connection) => void>>();

/**
 * Calls `observe` with every socket connection to the double of `baseUrl`, from the double's own handler (for a
 * test's recorder). msw adds a listener to its shared BroadcastChannel per handler and connection: a second
 * handler on the same link doubled them.
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
 * The msw link of `/sockets/{socket}/{conversation_id}` on one server (`params.socket` is `events` or
 * `session`), made once per base URL so that handlers of one server (the double's, a test's recorder) share it.
 */
export function socketLink(base: string): Link {
  const url = `${base.replace(/\/+$/, '').replace(/^http/, 'ws')}/sockets/:socket/:conversationId`;
  let link = LINKS.get(url);
  if (!link) {
    link = ws.link(url);
    LINKS.set(url, link);
  }
  return link;
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
