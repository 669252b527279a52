import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EventsClient } from '../../src/agent-server/index.js';
import {
  isCredentialError,
  isRequestValidationError,
  type RequestValidationError,
} from '../../src/core/errors.js';
import { Transport } from '../../src/core/transport.js';
import { hasControlCharacters, isPlainObject } from '../../src/core/validate.js';
import { GatewayAdminClient } from '../../src/gateway/index.js';
import * as sdk from '../../src/index.js';
import { splitConversationUrl } from '../../src/platform/conversation-url.js';
import {
  PlatformClient,
  validateConversationTags,
  validateConversationTagsPatch,
} from '../../src/platform/index.js';
import { checkProfileWrite } from '../../src/platform/profile.js';
import { deriveTemplate, prepareWarmRuntimeConfigBody, RuntimeAdminClient } from '../../src/runtime/index.js';
import { resolveTraceExport, TraceTargetError } from '../../src/tracing.js';
import { hostileServer } from './servers.js';

const VALID_BODY = { image: 'repo/img:1', working_dir: '/w', command: ['run'], environment: { A: '1' } };

/** The error `run` throws, which must be a RequestValidationError (never a bare TypeError). */
function validationError(run: () => unknown): RequestValidationError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(isRequestValidationError(thrown), String(thrown)).toBe(true);
  return thrown as RequestValidationError;
}

const fields = (error: RequestValidationError) => error.issues.map((issue) => issue.path.join('.'));

/** Values that are objects but not plain ones: JSON.stringify drops or mangles their content. */
const nonPlain = fc.constantFrom<unknown>(
  new Map([['team', 'alpha']]),
  new Set(['x']),
  new Date(0),
  [],
  new (class Tags {
    team = 'alpha';
  })(),
  new URLSearchParams('team=alpha'),
);
const controlChar = fc.constantFrom(
  '\u0000',
  '\u0007',
  '\n',
  '\t',
  '\u007f',
  '\u0085',
  '\u200b',
  '\u202e',
  '\ufeff',
);

describe('__proto__-shaped input', () => {
  it('a save body wrapped in __proto__ is refused naming the key, not sent as {}', () => {
    const wrapped = JSON.parse(`{"__proto__": ${JSON.stringify(VALID_BODY)}}`) as unknown;
    expect(fields(validationError(() => prepareWarmRuntimeConfigBody(wrapped)))).toContain('__proto__');
  });

  it('an environment with constructor or __proto__ keys is refused', () => {
    const body = JSON.parse(
      `{"image":"i","working_dir":"/","command":[],"environment":{"__proto__":{"A":"1"}}}`,
    );
    expect(fields(validationError(() => prepareWarmRuntimeConfigBody(body)))).toContain(
      'environment.__proto__',
    );
  });

  it('a profile with __proto__ in llm is refused', () => {
    const profile = JSON.parse('{"llm":{"model":"m","__proto__":{"base_url":"http://x"}}}');
    expect(fields(validationError(() => checkProfileWrite(profile)))).toContain('llm.__proto__');
  });

  it('nothing is sent for such a body', async () => {
    const server = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const client = new RuntimeAdminClient({
      baseUrl: server.url,
      adminToken: 't0ken-value-1',
      env: false,
      logLevel: 'off',
    });
    const wrapped = JSON.parse(`{"__proto__": ${JSON.stringify(VALID_BODY)}}`) as Record<string, unknown>;
    await expect(client.saveWarmRuntimeConfig('pool', wrapped)).rejects.toSatisfy(isRequestValidationError);
    expect(server.stats.requests).toBe(0);
  });
});

describe('Maps and other non-plain objects (properties)', () => {
  it('are refused as tags, tag patches, save bodies, environments, headers and overrides', () => {
    fc.assert(
      fc.property(nonPlain, (value) => {
        expect(fields(validationError(() => validateConversationTags(value)))).toEqual(['tags']);
        expect(fields(validationError(() => validateConversationTagsPatch(value)))).toEqual(['tags']);
        validationError(() => prepareWarmRuntimeConfigBody(value));
        expect(
          fields(validationError(() => prepareWarmRuntimeConfigBody({ ...VALID_BODY, environment: value }))),
        ).toEqual(['environment']);
        expect(
          fields(
            validationError(() =>
              checkProfileWrite({ llm: { model: 'm', extra_headers: value as Record<string, string> } }),
            ),
          ),
        ).toEqual(['llm.extra_headers']);
        validationError(() => deriveTemplate({ name: 'a', ...VALID_BODY }, value as object));
      }),
    );
  });

  it('plain tag maps with valid keys and values pass unchanged', () => {
    const key = fc.string({ unit: fc.constantFrom(...'abcxyz0189'), minLength: 1, maxLength: 12 });
    const value = fc.string({ maxLength: 40 }).filter((v) => !hasControlCharacters(v));
    fc.assert(
      fc.property(fc.dictionary(key, value), (tags) => {
        expect(validateConversationTags(tags)).toEqual(tags);
        expect(isPlainObject(validateConversationTags(tags))).toBe(true);
      }),
    );
  });
});

describe('control and invisible characters (properties)', () => {
  it('are refused in tag values, conversation URLs, image references, profile models and base URLs', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '1'), maxLength: 10 }),
        controlChar,
        (text, bad) => {
          const tainted = `v${text}${bad}${text}`;
          expect(fields(validationError(() => validateConversationTags({ team: tainted })))).toEqual([
            'tags.team',
          ]);
          validationError(() => splitConversationUrl(`http://host.test/api/conversations/${tainted}`));
          expect(
            fields(validationError(() => prepareWarmRuntimeConfigBody({ ...VALID_BODY, image: tainted }))),
          ).toEqual(['image']);
          expect(fields(validationError(() => checkProfileWrite({ llm: { model: tainted } })))).toEqual([
            'llm.model',
          ]);
          validationError(() => new PlatformClient({ baseUrl: `http://app.test/${tainted}` }));
        },
      ),
    );
  });
});

describe('misuse of public functions is a typed error, never a bare TypeError', () => {
  const cases: [string, () => unknown][] = [
    ['new EventsClient({})', () => new EventsClient({} as never)],
    ['new EventsClient({ baseUrl: 42 })', () => new EventsClient({ baseUrl: 42 } as never)],
    ['timeout: -5', () => new EventsClient({ baseUrl: 'http://x.test', timeout: -5 })],
    [
      'timeout: NaN',
      () => new GatewayAdminClient({ baseUrl: 'http://x.test', masterKey: 'k-123456', timeout: Number.NaN }),
    ],
    ['totalTimeout: 2^40', () => new EventsClient({ baseUrl: 'http://x.test', totalTimeout: 2 ** 40 })],
    ['maxRetries: 1.5', () => new EventsClient({ baseUrl: 'http://x.test', maxRetries: 1.5 })],
    ['maxResponseBytes: 0', () => new EventsClient({ baseUrl: 'http://x.test', maxResponseBytes: 0 })],
    ['logLevel: loud', () => new EventsClient({ baseUrl: 'http://x.test', logLevel: 'loud' as never })],
    ['headers: Map', () => new EventsClient({ baseUrl: 'http://x.test', headers: new Map() as never })],
    ['new RuntimeAdminClient(null)', () => new RuntimeAdminClient(null as never)],
    [
      'tokenRefreshMargin: -1',
      () => new RuntimeAdminClient({ baseUrl: 'http://x.test', env: false, tokenRefreshMargin: -1 }),
    ],
    ['new PlatformClient(null)', () => new PlatformClient(null as never)],
    ['new PlatformClient({ baseUrl: 42 })', () => new PlatformClient({ baseUrl: 42 } as never)],
    ['baseUrl ftp', () => new EventsClient({ baseUrl: 'ftp://x.test' })],
  ];
  for (const [name, run] of cases) it(name, () => void validationError(run));

  it('a password in baseUrl is refused without being echoed', () => {
    const error = validationError(() => new EventsClient({ baseUrl: 'http://admin:hunter2-secret@x.test' }));
    expect(JSON.stringify(error)).not.toContain('hunter2-secret');
    expect(error.message).not.toContain('hunter2-secret');
  });

  it('a per-call timeout of -5 is a validation error, not a connection error', async () => {
    const transport = new Transport({ baseUrl: 'http://127.0.0.1:9', secrets: () => [], logLevel: 'off' });
    await expect(transport.request({ method: 'GET', path: 'x', timeout: -5 })).rejects.toSatisfy(
      isRequestValidationError,
    );
  });

  it('a credential function that throws is a CredentialError, not a connection error, and nothing is sent', async () => {
    const server = await hostileServer((_req, res) => res.end('{}'));
    const client = new EventsClient({
      baseUrl: server.url,
      logLevel: 'off',
      sessionApiKey: () => {
        throw new Error('vault says: key sk-live-planted-0001 expired');
      },
    });
    const error = await client.get('3fa85f64-5717-4562-b3fc-2c963f66afa6', 'e1').catch((e: unknown) => e);
    expect(isCredentialError(error)).toBe(true);
    expect(JSON.stringify(error)).not.toContain('sk-live-planted-0001');
    expect(server.stats.requests).toBe(0);
  });

  it('listConversations(null) and a null call options object are typed errors', async () => {
    const client = new PlatformClient({ baseUrl: 'http://127.0.0.1:9', logLevel: 'off' });
    expect(() => client.listConversations(null as never)).toThrow(
      expect.objectContaining({ name: 'RequestValidationError' }),
    );
    await expect(
      client.getConversationTags('http://127.0.0.1:9/api/conversations/x', null as never),
    ).rejects.toSatisfy(isRequestValidationError);
  });
});

describe('resolveTraceExport misuse', () => {
  it.each([
    ['env', [null]],
    ['env', ['TRACING_BASE_URL=x']],
    ['env', [new Map([['TRACING_BASE_URL', 'x']])]],
    ['options', [{}, null]],
    ['options.dotenv', [{}, { dotenv: 42 }]],
  ])('names %s in a TraceTargetError', (field, args) => {
    let thrown: unknown;
    try {
      (resolveTraceExport as (...rest: unknown[]) => unknown)(...args);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TraceTargetError);
    expect((thrown as TraceTargetError).field).toBe(field);
    expect((thrown as Error).message).toMatch(
      /^trace target [\w.]+: must be an object, got (null|string|a Map|an array|number)$/,
    );
  });
});

describe('every client constructor turns misuse into a typed error', () => {
  const clients = (Object.entries(sdk) as [string, unknown][]).filter(
    (entry): entry is [string, new (options: unknown) => unknown] =>
      typeof entry[1] === 'function' && /Client$/.test(entry[0]),
  );
  it('finds the clients of every service', () => {
    expect(clients.map(([name]) => name)).toEqual(
      expect.arrayContaining(['AgentServerClient', 'EventsClient', 'RuntimeAdminClient', 'PlatformClient']),
    );
  });
  for (const [name, Client] of clients) {
    for (const options of [undefined, null, 42, 'http://x.test', {}, []]) {
      it(`new ${name}(${JSON.stringify(options)})`, () => void validationError(() => new Client(options)));
    }
  }
});
