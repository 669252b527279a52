import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { RuntimeAdminClient, type RuntimeAdminClientOptions } from '../../src/runtime/index.js';
import { RuntimeApiState, type RuntimeApiStateOptions, runtimeApiHandlers } from '../../src/testing.js';

export const BASE = 'http://runtime-api.test';
export const PASSWORD = 'correct horse battery staple';
export const API_KEY = 'test-api-key';
export const START = Date.parse('2026-03-01T12:00:00Z');

/** A clock shared by the fake service and the client. */
export class TestClock {
  time = START;
  now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

export interface RuntimeTestContext {
  state: RuntimeApiState;
  clock: TestClock;
  /** Every request msw saw in the current test. */
  requests: Request[];
  server: ReturnType<typeof setupServer>;
  client(options?: RuntimeAdminClientOptions): RuntimeAdminClient;
  /** `METHOD /path` of each request, in order. */
  calls(): string[];
}

/**
 * msw in front of a fresh fake runtime API for every test (1 000 PBKDF2 iterations, to stay fast), with a
 * clock shared by the service and the client.
 */
export function useRuntimeApi(options: RuntimeApiStateOptions = {}): RuntimeTestContext {
  const server = setupServer();
  const requests: Request[] = [];
  server.events.on('request:start', ({ request }) => {
    requests.push(request.clone());
  });
  const context = {
    server,
    requests,
    state: undefined as unknown as RuntimeApiState,
    clock: new TestClock(),
    client(clientOptions: RuntimeAdminClientOptions = {}) {
      return new RuntimeAdminClient({
        env: false,
        baseUrl: BASE,
        adminPassword: PASSWORD,
        logLevel: 'off',
        maxRetryDelay: 5,
        now: context.clock.now,
        ...clientOptions,
      });
    },
    calls: () => requests.map((request) => `${request.method} ${new URL(request.url).pathname}`),
  };
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  beforeEach(() => {
    context.clock = new TestClock();
    context.state = new RuntimeApiState({
      adminPassword: PASSWORD,
      iterations: 10_000,
      now: context.clock.now,
      ...options,
    });
    server.use(...runtimeApiHandlers({ baseUrl: BASE, state: context.state }));
  });
  afterEach(() => {
    server.resetHandlers();
    requests.length = 0;
  });
  afterAll(() => server.close());
  return context;
}

/** The JSON claims of a JWT. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}
