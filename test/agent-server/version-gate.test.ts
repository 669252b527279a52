import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import {
  AGENT_SERVER_FEATURES,
  AGENT_SERVER_VERSION_TOO_OLD,
  AgentServerVersionError,
  assertFeatureSupported,
  compareAgentServerVersions,
  EventsClient,
  isAgentServerVersionError,
  parseAgentServerVersion,
  supportsFeature,
} from '../../src/agent-server/index.js';
import { isAgentPlatformError, isInternalServerError } from '../../src/core/errors.js';
import { useMswServer } from '../helpers/msw.js';
import { simulatedServer } from './simulated.js';

const old = simulatedServer('old.test', { version: '1.11.4' });
const recent = simulatedServer('recent.test', { version: '1.31.0' });
const { server, requests } = useMswServer(...old.handlers, ...recent.handlers);
const paths = () => requests.map((r) => new URL(r.url).pathname);

describe('version parsing and ordering', () => {
  it.each([
    ['1.11.4', '1.11.4', 0],
    ['1.11.4', '1.12.0', -1],
    ['1.18.1', '1.18.0', 1],
    ['2.0.0', '1.99.99', 1],
    ['v1.23.0', '1.23.0', 0],
    ['1.23.0+build.7', '1.23.0', 0],
    ['1.23.0-rc1', '1.23.0', -1],
    ['1.23.0', '1.23.0-rc1', 1],
    ['1.23.0-rc1', '1.23.0-rc2', -1],
    ['1.10.0', '1.9.0', 1],
  ])('%s vs %s → %i', (a, b, expected) => {
    expect(compareAgentServerVersions(a, b)).toBe(expected);
  });

  it.each(['unknown', '', '1.2', '1.2.3.4', 'latest', '1.x.0'])('%j does not parse', (value) => {
    expect(parseAgentServerVersion(value)).toBeUndefined();
    expect(compareAgentServerVersions(value, '1.0.0')).toBeUndefined();
  });

  it('unparseable or missing counts as too old', () => {
    expect(supportsFeature('1.23.0', AGENT_SERVER_FEATURES.hooks)).toBe(true);
    expect(supportsFeature('1.22.9', AGENT_SERVER_FEATURES.hooks)).toBe(false);
    expect(supportsFeature('unknown', AGENT_SERVER_FEATURES.hooks)).toBe(false);
    expect(supportsFeature(undefined, AGENT_SERVER_FEATURES.hooks)).toBe(false);
  });
});

describe('AgentServerVersionError', () => {
  it('has the code, feature, required and actual versions and the platform message', () => {
    let error: unknown;
    try {
      assertFeatureSupported('1.11.4', AGENT_SERVER_FEATURES.mcpOAuth);
    } catch (caught) {
      error = caught;
    }
    expect(isAgentServerVersionError(error)).toBe(true);
    expect(isAgentPlatformError(error)).toBe(true);
    expect(error).toBeInstanceOf(AgentServerVersionError);
    expect(error).toMatchObject({
      name: 'AgentServerVersionError',
      code: AGENT_SERVER_VERSION_TOO_OLD,
      feature: 'mcp-oauth',
      displayName: 'MCP OAuth',
      requiredVersion: '1.31.0',
      actualVersion: '1.11.4',
    });
    expect((error as Error).message).toBe(
      'MCP OAuth requires agent-server 1.31.0 or newer; this backend is running 1.11.4. Please upgrade your agent-server backend.',
    );
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      code: AGENT_SERVER_VERSION_TOO_OLD,
      feature: 'mcp-oauth',
    });
  });

  it('a missing version is reported as "unknown"', () => {
    expect(() => assertFeatureSupported(undefined, AGENT_SERVER_FEATURES.workspaces)).toThrow(
      'this backend is running unknown',
    );
    expect(() => assertFeatureSupported('  ', AGENT_SERVER_FEATURES.workspaces)).toThrow('running unknown');
  });

  it('the guard accepts plain objects with the code (parity with the platform clients) and nothing else', () => {
    expect(isAgentServerVersionError({ code: 'AGENT_SERVER_VERSION_TOO_OLD' })).toBe(true);
    expect(isAgentServerVersionError({ code: 'OTHER' })).toBe(false);
    expect(isAgentServerVersionError(new Error('AGENT_SERVER_VERSION_TOO_OLD'))).toBe(false);
    expect(isAgentServerVersionError(null)).toBe(false);
  });
});

describe('serverInfo and requireFeature against the server', () => {
  it('fetches /server_info once per client, shared by concurrent callers; refresh fetches again', async () => {
    const client = new EventsClient({ baseUrl: old.baseUrl, logLevel: 'off' });
    const [a, b] = await Promise.all([client.serverInfo(), client.serverInfo()]);
    expect(a).toMatchObject({ version: '1.11.4', title: 'OpenHands Agent Server' });
    expect(b).toBe(a);
    expect(await client.serverInfo()).toBe(a);
    expect(paths()).toEqual(['/server_info']);
    await client.serverInfo({ refresh: true });
    expect(paths()).toEqual(['/server_info', '/server_info']);
  });

  it('a failed fetch is not cached', async () => {
    let calls = 0;
    server.use(
      http.get(`${old.baseUrl}/server_info`, () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ detail: 'Internal Server Error', exception: 'boom' }, { status: 500 })
          : HttpResponse.json({ uptime: 1, idle_time: 0, version: '1.11.4' });
      }),
    );
    const client = new EventsClient({ baseUrl: old.baseUrl, logLevel: 'off', maxRetries: 0 });
    expect(isInternalServerError(await client.serverInfo().catch((e: unknown) => e))).toBe(true);
    expect((await client.serverInfo()).version).toBe('1.11.4');
  });

  it('one caller aborting does not cancel the shared request for the others', async () => {
    const client = new EventsClient({ baseUrl: old.baseUrl, logLevel: 'off' });
    const controller = new AbortController();
    const aborted = client.serverInfo({ signal: controller.signal });
    const other = client.serverInfo();
    controller.abort();
    expect(((await aborted.catch((e: unknown) => e)) as Error).name).toBe('APIUserAbortError');
    expect((await other).version).toBe('1.11.4');
  });

  it('requireFeature fails before the feature is used, after /server_info only', async () => {
    const client = new EventsClient({ baseUrl: old.baseUrl, logLevel: 'off' });
    const error = await client.requireFeature(AGENT_SERVER_FEATURES.hooks).catch((e: unknown) => e);
    expect(isAgentServerVersionError(error)).toBe(true);
    expect(error).toMatchObject({ requiredVersion: '1.23.0', actualVersion: '1.11.4', feature: 'hooks' });
    expect(paths()).toEqual(['/server_info']);
    const modern = new EventsClient({ baseUrl: recent.baseUrl, logLevel: 'off' });
    await expect(modern.requireFeature(AGENT_SERVER_FEATURES.mcpOAuth)).resolves.toBeUndefined();
  });

  it('an unparseable server version fails every gated feature', async () => {
    server.use(
      http.get(`${old.baseUrl}/server_info`, () =>
        HttpResponse.json({ uptime: 1, idle_time: 0, version: 'dev' }),
      ),
    );
    const client = new EventsClient({ baseUrl: old.baseUrl, logLevel: 'off' });
    const error = await client
      .requireFeature(AGENT_SERVER_FEATURES.websocketHeaderAuth)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: AGENT_SERVER_VERSION_TOO_OLD,
      actualVersion: 'dev',
      requiredVersion: '1.12.0',
    });
  });
});
