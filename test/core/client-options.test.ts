// One environment policy for every client: options left out are read from the environment (in Node) unless
// `env: false`; a missing baseUrl is a RequestValidationError naming it and its variable (docs/getting-started.md).
import { afterEach, describe, expect, it } from 'vitest';
import {
  AgentServerClient,
  ConversationsClient,
  EventsClient,
  GatewayAdminClient,
  isRequestValidationError,
  PlatformClient,
  RuntimeAdminClient,
} from '../../src/index.js';

interface Case {
  name: string;
  create: (options?: { env?: boolean }) => { baseUrl: string };
  env: Record<string, string>;
  urlVariable: string;
}

const cases: Case[] = [
  ...[AgentServerClient, EventsClient, ConversationsClient].map((Client) => ({
    name: Client.name,
    create: (options?: { env?: boolean }) => {
      const client = new Client(options);
      return { baseUrl: client instanceof AgentServerClient ? client.events.baseUrl : client.baseUrl };
    },
    env: { AGENT_SERVER_URL: 'http://agent.test', SESSION_API_KEY: 'session-key-123' },
    urlVariable: 'AGENT_SERVER_URL',
  })),
  {
    name: 'RuntimeAdminClient',
    create: (options) => new RuntimeAdminClient(options),
    env: { RUNTIME_API_URL: 'http://runtime.test', ADMIN_PASSWORD: 'pw', API_KEY: 'k' },
    urlVariable: 'RUNTIME_API_URL',
  },
  {
    name: 'GatewayAdminClient',
    create: (options) => new GatewayAdminClient(options),
    env: { GATEWAY_URL: 'http://gateway.test', MASTER_KEY: 'sk-master-123' },
    urlVariable: 'GATEWAY_URL',
  },
  {
    name: 'PlatformClient',
    create: (options) => new PlatformClient(options),
    env: { APP_URL: 'http://app.test', APP_SESSION_API_KEY: 'app-key-123' },
    urlVariable: 'APP_URL',
  },
];

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe.each(cases)('$name', ({ create, env, urlVariable }) => {
  it('reads baseUrl (and its credentials) from the environment', () => {
    Object.assign(process.env, env);
    expect(create().baseUrl).toBe(env[urlVariable]);
  });

  it('names baseUrl and its variable when neither is given', () => {
    for (const name of Object.keys(env)) delete process.env[name];
    const error = thrown(() => create());
    expect(isRequestValidationError(error)).toBe(true);
    expect(String((error as Error).message)).toContain('baseUrl');
    expect(String((error as Error).message)).toContain(urlVariable);
  });

  it('ignores the environment with env: false', () => {
    Object.assign(process.env, env);
    const error = thrown(() => create({ env: false }));
    expect(isRequestValidationError(error)).toBe(true);
    expect(String((error as Error).message)).toContain('baseUrl');
  });
});
