// Replays the REST exchanges recorded from the newest real agent server (test/fixtures/real/<version>/
// exchanges.json, written by `npm run record:real`) against our double (the handlers behind the simulator
// and `serveAgentServer`, at its default version) and fails on any difference in status or answer shape
// that is not listed below as intended.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServerLoopback, serveAgentServer } from '../../src/testing.js';
import { fillPath, type RecordedExchange } from '../conformance/support/record.js';
import { newestVersion } from '../peers/peers.js';

const version = newestVersion('agent-server');
const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, '../fixtures/real', version, 'exchanges.json'), 'utf8'),
) as { exchanges: RecordedExchange[] };

/** Answers whose shape the double does not reproduce on purpose, with the reason. */
const INTENDED: Record<string, string> = {
  'server info':
    'the double reports the fields the SDK reads, not the build and tool details of a real install',
  'start (initial message with run: false)':
    'a real conversation carries the whole agent and LLM configuration',
  'get conversation': 'a real conversation carries the whole agent and LLM configuration',
  'search events': 'the double runs a scripted agent, not the real one, so the events differ',
};

/** The JSON type tree of a value: object keys with their shapes, an array's first element, a primitive's type. */
function shape(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((key) => [key, shape((value as Record<string, unknown>)[key])]),
    );
  }
  return typeof value;
}

const KEY = 'replay-session-key';
let server: AgentServerLoopback;

beforeAll(async () => {
  server = await serveAgentServer({ sessionApiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

describe(`the double answers like the real agent server ${version}`, () => {
  it('reports the newest real version by default', async () => {
    const info = (await (await fetch(`${server.url}/server_info`)).json()) as { version: string };
    expect(info.version).toBe(version);
  });

  it('replays every recorded exchange with the same status and answer shape', async () => {
    let id: string | undefined;
    const differences: string[] = [];
    for (const exchange of recorded.exchanges) {
      const response = await fetch(`${server.url}${fillPath(exchange.path, id)}`, {
        method: exchange.method,
        headers: { 'content-type': 'application/json', 'X-Session-API-Key': KEY },
        ...(exchange.body === undefined ? {} : { body: JSON.stringify(exchange.body) }),
      });
      const text = await response.text();
      const body: unknown = text === '' ? '' : JSON.parse(text);
      if (exchange.name.startsWith('start')) id = (body as { id: string }).id;
      if (response.status !== exchange.status) {
        differences.push(`${exchange.name}: status ${response.status}, real ${exchange.status}`);
        continue;
      }
      if (exchange.name in INTENDED) continue;
      const ours = JSON.stringify(shape(body));
      const real = JSON.stringify(shape(exchange.response));
      if (ours !== real) differences.push(`${exchange.name}: answer ${ours}, real ${real}`);
      // Error details are compared word for word: apps show them.
      const detail = (exchange.response as { detail?: unknown } | undefined)?.detail;
      if (typeof detail === 'string' && (body as { detail?: unknown }).detail !== detail) {
        differences.push(
          `${exchange.name}: detail ${JSON.stringify((body as { detail?: unknown }).detail)}, real ${JSON.stringify(detail)}`,
        );
      }
    }
    expect(differences).toEqual([]);
  });

  it('runs an initial message even when it says run: false, as the real server does', async () => {
    const start = recorded.exchanges.find((exchange) =>
      exchange.name.startsWith('start'),
    ) as RecordedExchange;
    const response = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Session-API-Key': KEY },
      body: JSON.stringify(start.body),
    });
    const { id } = (await response.json()) as { id: string };
    let status = '';
    for (let i = 0; i < 100 && status !== 'finished'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = (
        (await (
          await fetch(`${server.url}/api/conversations/${id}`, { headers: { 'X-Session-API-Key': KEY } })
        ).json()) as { execution_status: string }
      ).execution_status;
    }
    expect(status).toBe('finished');
  });
});
