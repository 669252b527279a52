/**
 * Issue 18 item 8: every public method of every client turns misuse (`null`, a number or a string where an
 * object belongs, in any position) into a typed error naming the argument, never a bare `TypeError` from
 * deep inside the call. The clients point at a closed port: what passes the checks fails as a typed
 * connection error.
 */
import { describe, expect, it } from 'vitest';
import { AgentServerClient, EventsClient } from '../../src/agent-server/index.js';
import { isAgentPlatformError } from '../../src/core/errors.js';
import { GatewayAdminClient } from '../../src/gateway/index.js';
import { PlatformClient } from '../../src/platform/index.js';
import { RuntimeAdminClient } from '../../src/runtime/index.js';

const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
const CLOSED = 'http://127.0.0.1:9';
const common = { logLevel: 'off' as const, maxRetries: 0, timeout: 2_000 };

/** Argument lists with one bad value (null, a number, a string) where an object or id belongs. */
const MISUSE: unknown[][] = [
  [null],
  [42],
  [ID, null],
  [ID, 42],
  [ID, 'x', null],
  [ID, {}, null],
  [ID, {}, 'x'],
];

function methodsOf(target: object): string[] {
  const names = new Set<string>();
  for (let proto = Object.getPrototypeOf(target); proto && proto !== Object.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function')
        names.add(name);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return [...names].filter((name) => !['on', 'once', 'off', 'emit', 'toJSON', 'close'].includes(name));
}

/** Runs the call to its first answer (a promise, a page, a subscription's first step) and returns what it threw. */
async function outcome(
  target: Record<string, (...args: unknown[]) => unknown>,
  name: string,
  args: unknown[],
) {
  try {
    const result = target[name]?.(...args) as Record<string, unknown> | undefined;
    // A subscription that passed the checks is live: what matters here is that subscribe() did not throw.
    if (result && typeof result.close === 'function') (result.close as () => void)();
    else if (result && typeof result.then === 'function') await result;
    else if (result && typeof result.next === 'function') await (result.next as () => Promise<unknown>)();
    else if (result && Symbol.asyncIterator in result) {
      await (result as unknown as AsyncIterable<unknown>)[Symbol.asyncIterator]().next();
    }
    return undefined;
  } catch (error) {
    return error;
  }
}

function clients(): [string, object][] {
  const agentServer = new AgentServerClient({ baseUrl: CLOSED, ...common });
  const namespaces = Object.entries(agentServer).filter(
    ([, value]) => typeof value === 'object' && value !== null && methodsOf(value).length > 0,
  ) as [string, object][];
  return [
    ['EventsClient', new EventsClient({ baseUrl: CLOSED, ...common })],
    ...namespaces.map(([name, value]): [string, object] => [`AgentServerClient.${name}`, value]),
    [
      'RuntimeAdminClient',
      new RuntimeAdminClient({ baseUrl: CLOSED, adminToken: 'eyJ.x.y', env: false, ...common }),
    ],
    [
      'GatewayAdminClient',
      new GatewayAdminClient({ baseUrl: CLOSED, masterKey: 'sk-master-123456', ...common }),
    ],
    ['PlatformClient', new PlatformClient({ baseUrl: CLOSED, ...common })],
  ];
}

describe('misuse of any public method is a typed error', () => {
  it('covers the clients and their namespaces', () => {
    const all = clients();
    expect(all.length).toBeGreaterThan(15);
    expect(all.reduce((sum, [, target]) => sum + methodsOf(target).length, 0)).toBeGreaterThan(150);
  });

  for (const [label, target] of clients()) {
    it(`${label}: no bare TypeError`, async () => {
      const bare: string[] = [];
      for (const name of methodsOf(target)) {
        for (const args of MISUSE) {
          const error = await outcome(target as never, name, args);
          if (error !== undefined && !isAgentPlatformError(error)) {
            bare.push(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')}): ${String(error)}`);
          }
        }
      }
      expect(bare).toEqual([]);
    }, 60_000);
  }
});
