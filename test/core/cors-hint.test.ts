// Issue 33, item 4: a browser shows a request its CORS check refused as a bare network error. Where the SDK
// can tell (a page, a base URL on another origin, no response at all), the error says it may be CORS and what
// to configure; elsewhere it says nothing of the kind.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventsClient, isAPIConnectionError, isSubscriptionConnectionError } from '../../src/index.js';

const ID = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';

/** What Chromium's fetch throws for a cross-origin request refused by CORS. */
const corsRefusal = async (): Promise<Response> => {
  throw new TypeError('Failed to fetch');
};

function asPage(origin: string): void {
  vi.stubGlobal('document', {});
  vi.stubGlobal('location', { origin });
}

afterEach(() => vi.unstubAllGlobals());

async function failure(baseUrl: string, fetch: typeof globalThis.fetch = corsRefusal): Promise<Error> {
  const client = new EventsClient({ baseUrl, fetch, maxRetries: 0, logLevel: 'off' });
  return (await client.serverInfo().catch((error: unknown) => error)) as Error;
}

describe('a network error without a response', () => {
  it('in a page, to another origin: APIConnectionError says it may be CORS and what to configure', async () => {
    asPage('http://localhost:5173');
    const error = await failure('http://agent.example:8000');
    expect(isAPIConnectionError(error)).toBe(true);
    expect(error.message).toContain('Failed to fetch');
    expect(error.message).toContain('may be CORS');
    expect(error.message).toContain('http://localhost:5173');
    expect(error.message).toContain('allow_cors_origins');
    expect(error.message).toContain('allow_cors_origin_regex');
    expect(error.message).toContain('proxy');
  });

  it('in a page, to its own origin: no CORS hint (a same-origin request is not checked)', async () => {
    asPage('http://agent.example:8000');
    const error = await failure('http://agent.example:8000');
    expect(isAPIConnectionError(error)).toBe(true);
    expect(error.message).not.toContain('CORS');
  });

  it('outside a browser (Node): no CORS hint', async () => {
    const error = await failure('http://agent.example:8000');
    expect(isAPIConnectionError(error)).toBe(true);
    expect(error.message).not.toContain('CORS');
  });

  it('in a page, a failure the runtime named (connection refused): no CORS hint', async () => {
    asPage('http://localhost:5173');
    const refused = async (): Promise<Response> => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }),
      });
    };
    const error = await failure('http://agent.example:8000', refused);
    expect(error.message).toContain('connection refused');
    expect(error.message).not.toContain('CORS');
  });

  it('subscribe() in a page, to another origin: SubscriptionConnectionError says it may be CORS', async () => {
    asPage('http://localhost:5173');
    const client = new EventsClient({
      baseUrl: 'http://agent.example:8000',
      fetch: corsRefusal,
      maxRetries: 0,
      logLevel: 'off',
    });
    const sub = client.subscribe(ID, { connectTimeout: 300 });
    const error = (await sub.ready.catch((e: unknown) => e)) as Error;
    expect(isSubscriptionConnectionError(error)).toBe(true);
    expect(error.message).toContain('may be CORS');
    expect(error.message).toContain('allow_cors_origins');
  }, 10_000);
});
