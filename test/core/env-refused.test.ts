// Issue 33, item 2: Deno without `--allow-env` throws `NotCapable` (older Deno: `PermissionDenied`) when
// `process.env.X` is read. A variable the runtime refuses to read is an unset one: the client's own typed
// error (or its default) follows, never the runtime's raw error.
import { describe, expect, it } from 'vitest';
import { EventsClient, isRequestValidationError, RuntimeAdminClient } from '../../src/index.js';

class RuntimeRefusal extends Error {
  constructor(name: string, variable: string) {
    super(`Requires env access to "${variable}", run again with the --allow-env flag`);
    this.name = name;
  }
}

/** Runs `body` with a `process.env` that refuses every read the way Deno's does. */
function withRefusingEnv<T>(errorName: string, body: () => T): T {
  const original = Object.getOwnPropertyDescriptor(process, 'env') as PropertyDescriptor;
  const refusing = new Proxy(
    {},
    {
      get: (_target, name) => {
        throw new RuntimeRefusal(errorName, String(name));
      },
    },
  );
  Object.defineProperty(process, 'env', { value: refusing, configurable: true, writable: true });
  try {
    return body();
  } finally {
    Object.defineProperty(process, 'env', original);
  }
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe.each(['NotCapable', 'PermissionDenied'])('an environment the runtime refuses (%s)', (name) => {
  it('is unset: RuntimeAdminClient without apiKey is built from its options alone', () => {
    const client = withRefusingEnv(name, () => new RuntimeAdminClient({ baseUrl: 'http://runtime.test' }));
    expect(client.baseUrl).toBe('http://runtime.test');
  });

  it('is unset: EventsClient({}) names baseUrl in a RequestValidationError, not the runtime error', () => {
    const error = withRefusingEnv(name, () => thrown(() => new EventsClient({})));
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as Error).message).toContain('baseUrl');
  });
});

it('any other error reading the environment is not swallowed', () => {
  const error = withRefusingEnv('TypeError', () =>
    thrown(() => new RuntimeAdminClient({ baseUrl: 'http://runtime.test' })),
  );
  expect((error as Error).name).toBe('TypeError');
});
