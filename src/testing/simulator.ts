import type { RequestHandler, UnhandledFrameStrategy, WebSocketHandler } from 'msw';
import type { SetupServer } from 'msw/node';
import { agentRunnerFor } from './agent-server/handlers.js';
import { DEFAULT_AGENT_SERVER_VERSION } from './agent-server/versions.js';
import { type ComposedPlatform, composePlatform, type SimulatorStores } from './simulator/compose.js';
import { type SimulatorCredentials, simulatorCredentials } from './simulator/credentials.js';
import {
  SIMULATED_SERVICES,
  type SimulatedService,
  type SimulatorInfo,
  type SimulatorMode,
  simulatorEnv,
  simulatorInfo,
} from './simulator/info.js';
import { importNodeOnly } from './simulator/node-only.js';

export type { SimulatorStores } from './simulator/compose.js';
export type { SimulatorCredentials } from './simulator/credentials.js';
export {
  EXTERNAL_GATEWAY_KEY_ENV,
  SIMULATED_SERVICES,
  type SimulatedService,
  type SimulatorInfo,
  type SimulatorMode,
  simulatorEnv,
} from './simulator/info.js';

/** What `GET /server_info` of the simulated agent server reports unless told otherwise. */
export const SIMULATOR_AGENT_SERVER_VERSION = DEFAULT_AGENT_SERVER_VERSION;

/** The addresses the in-process (msw) simulator answers for: in-cluster service names, never reachable. */
export const SIMULATOR_MSW_URLS: Readonly<Record<SimulatedService, string>> = {
  agentServer: 'http://agent-server:8000',
  runtimeApi: 'http://runtime-api:8080',
  gateway: 'http://gateway:4000',
  externalGateway: 'http://external-gateway:4100',
  app: 'http://platform-app:3000',
};

interface CommonSimulatorOptions {
  /** Fixed credentials (default: random ones per run). */
  credentials?: Partial<SimulatorCredentials>;
  /** The agent server's version: decides its answers and socket protocol. Default: the newest real version the conformance suite runs. */
  agentServerVersion?: string;
  /** Milliseconds between the events of the scripted agent's turn. Default 5. */
  stepDelayMs?: number;
}

export interface MswSimulatorOptions extends CommonSimulatorOptions {
  /** In-process: msw handlers (HTTP and websocket) answer `fetch` and `WebSocket` of this process. */
  mode: 'msw';
  /** Base URLs to answer for. Default `SIMULATOR_MSW_URLS`. */
  urls?: Partial<Record<SimulatedService, string>>;
  /**
   * Set up and start an msw server (`msw/node`'s `setupServer`, Node only). Default true. With `false`, pass
   * `simulator.handlers.all` to your own `setupServer(...)` or `setupWorker(...)`.
   */
  listen?: boolean;
  /** What that server does with a request no handler answers. Default `bypass` (it goes to the network). */
  onUnhandledRequest?: UnhandledFrameStrategy;
}

export interface LoopbackSimulatorOptions extends CommonSimulatorOptions {
  /** Real HTTP and websocket servers on loopback (Node only), one port per service. */
  mode?: 'loopback';
  /** Default `127.0.0.1`. The credentials travel in clear: keep it on loopback. */
  host?: string;
  /**
   * The first of five consecutive ports: agent server, runtime API, gateway, external gateway, platform app
   * (in that order, `SIMULATED_SERVICES`). Default: a random free port for each.
   */
  port?: number;
  /** Ports per service (overrides `port`). */
  ports?: Partial<Record<SimulatedService, number>>;
}

export type SimulatorOptions = MswSimulatorOptions | LoopbackSimulatorOptions;

interface SimulatorBase {
  /** Addresses and credentials: a plain JSON object. */
  readonly info: SimulatorInfo;
  /** `info` as environment variables (`AGENT_SERVER_URL`, `SESSION_API_KEY`, …): what the examples read. */
  readonly env: Record<string, string>;
  /** The state of every service, shared by both ways of serving. */
  readonly stores: SimulatorStores;
  /** Stops the agent and every server (and the msw server it set up). */
  close(): Promise<void>;
}

export interface MswSimulator extends SimulatorBase {
  readonly mode: 'msw';
  /** The handlers answering for `info`'s URLs: `all` = `http` then `ws`. */
  readonly handlers: {
    http: RequestHandler[];
    /** The sockets' handlers, each with the HTTP upgrade handler through which Node clients such as `ws` reach it. */
    ws: (WebSocketHandler | RequestHandler)[];
    all: (RequestHandler | WebSocketHandler)[];
  };
  /** The msw server it set up (`listen` true), else undefined. */
  readonly server: SetupServer | undefined;
}

export interface LoopbackSimulator extends SimulatorBase {
  readonly mode: 'loopback';
  /** Event sockets open right now. */
  connections(): number;
}

export type Simulator = MswSimulator | LoopbackSimulator;

/**
 * Starts one in-memory platform: an agent server whose conversations are driven by a deterministic scripted
 * agent (actions, observations and state updates like a real one), the runtime API (admin password, an API
 * key named `default`, the installer entry `v1_current`), the built-in gateway (master key) chained to an
 * external gateway, and the platform application (session key, LLM profiles, conversation tags). The same
 * handlers are served in-process through msw (`mode: 'msw'`) or as real HTTP and websocket servers on
 * loopback (`mode: 'loopback'`, the default).
 *
 * ```ts
 * const sim = await startSimulator();
 * const events = new EventsClient({ baseUrl: sim.info.agentServer.url, sessionApiKey: sim.info.agentServer.sessionApiKey });
 * …
 * await sim.close();
 * ```
 */
export function startSimulator(options: MswSimulatorOptions): Promise<MswSimulator>;
export function startSimulator(options?: LoopbackSimulatorOptions): Promise<LoopbackSimulator>;
export function startSimulator(options?: SimulatorOptions): Promise<Simulator>;
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const credentials = simulatorCredentials(options.credentials);
  const version = options.agentServerVersion ?? SIMULATOR_AGENT_SERVER_VERSION;
  const stepDelayMs = options.stepDelayMs ?? 5;
  if (options.mode === 'msw') return startInProcess(options, credentials, version, stepDelayMs);
  return startOnLoopback(options, credentials, version, stepDelayMs);
}

function summary(
  mode: SimulatorMode,
  platform: ComposedPlatform,
  urls: Record<SimulatedService, string>,
  credentials: SimulatorCredentials,
  version: string,
) {
  const { installerConfigs, configuredModels } = platform;
  const info = simulatorInfo(mode, urls, credentials, version, installerConfigs, configuredModels);
  return { info, env: simulatorEnv(info), stores: platform.stores };
}

async function startInProcess(
  options: MswSimulatorOptions,
  credentials: SimulatorCredentials,
  version: string,
  stepDelayMs: number,
): Promise<MswSimulator> {
  const urls = Object.fromEntries(
    SIMULATED_SERVICES.map((service) => [
      service,
      (options.urls?.[service] ?? SIMULATOR_MSW_URLS[service]).replace(/\/+$/, ''),
    ]),
  ) as Record<SimulatedService, string>;
  const platform = composePlatform({ urls, bases: urls, credentials, version, stepDelayMs });
  // The agent server's set first: the app's sandbox routes share its URL and must not shadow it.
  const http = SIMULATED_SERVICES.flatMap((service) => platform.http[service]);
  const all = [...http, ...platform.ws];
  let server: SetupServer | undefined;
  if (options.listen !== false) {
    const { setupServer } = await importNodeOnly<typeof import('msw/node')>('msw/node');
    server = setupServer(...all);
    server.listen({ onUnhandledFrame: options.onUnhandledRequest ?? 'bypass' });
  }
  return {
    mode: 'msw',
    ...summary('msw', platform, urls, credentials, version),
    handlers: { http, ws: platform.ws, all },
    server,
    async close() {
      agentRunnerFor(platform.stores.agentServer).dispose();
      server?.close();
    },
  };
}

async function startOnLoopback(
  options: LoopbackSimulatorOptions,
  credentials: SimulatorCredentials,
  version: string,
  stepDelayMs: number,
): Promise<LoopbackSimulator> {
  const { listenPlatform } = await import('./simulator/loopback.js');
  const ports: Partial<Record<SimulatedService, number>> = {};
  SIMULATED_SERVICES.forEach((service, index) => {
    const port = options.ports?.[service] ?? (options.port === undefined ? undefined : options.port + index);
    if (port !== undefined) ports[service] = port;
  });
  const served = await listenPlatform(options.host ?? '127.0.0.1', ports);
  const bases = Object.fromEntries(SIMULATED_SERVICES.map((service) => [service, '*'])) as Record<
    SimulatedService,
    string
  >;
  const platform = composePlatform({ urls: served.urls, bases, credentials, version, stepDelayMs });
  try {
    await served.serve(platform, { sessionApiKey: credentials.sessionApiKey, version });
  } catch (error) {
    await served.close();
    throw error;
  }
  return {
    mode: 'loopback',
    ...summary('loopback', platform, served.urls, credentials, version),
    connections: () => served.connections(),
    close: () => served.close(),
  };
}
