// Every method in the operation tables (AGENT_SERVER_OPERATIONS) sends the request its table entry declares:
// each method is called with sample arguments against a recording msw server, and the request's method and
// path must match the declared operation (the conversation-runtime variant through `client.conversation(id)`).
// For the methods that call through their table this holds by construction; it is the inherited
// EventsClient / ConversationsClient methods, whose paths are written in those clients, that it checks.
import { HttpResponse, http } from 'msw/http';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/agent-server/index.js';
import { AGENT_SERVER_OPERATIONS } from '../../src/agent-server/index.js';
import { AgentServerClient } from '../../src/index.js';
import { useMswServer } from '../helpers/msw.js';

const BASE = 'http://operation-calls.test';
const ID = '6f1c3a52-8a1e-4d0e-9a55-2f3b6d7e8c90';
const { requests } = useMswServer(http.all(`${BASE}/*`, () => HttpResponse.json({})));
const client = new AgentServerClient({ baseUrl: BASE, sessionApiKey: 'k', logLevel: 'off', maxRetries: 0 });

/** Sample arguments by parameter name; objects are shaped to pass the methods' own checks. */
const SAMPLES: Record<string, unknown> = {
  conversationId: ID,
  conversationIds: [ID],
  path: '/w/file.txt',
  relativePath: 'dir/file.txt',
  data: 'text',
  name: 'sample',
  newName: 'renamed',
  profileId: 'profile-1',
  profileName: 'sample',
  jobId: 'job-1',
  commandId: 'cmd-1',
  eventId: 'event-1',
  connectionId: 'conn-1',
  deviceCode: 'device-1',
  sha: 'abc123',
  key: 'server-1',
  question: 'why?',
  model: 'm',
  pluginRef: 'plugin',
  enabled: true,
  title: 'title',
  message: { content: 'hi' },
  policy: 'NeverConfirm',
  response: { accept: true },
  analyzer: { kind: 'LLMSecurityAnalyzer' },
  secrets: { TOKEN: 'value' },
  llm: { model: 'm' },
  goal: { objective: 'o' },
  update: { title: 't' },
  server: { command: 'x' },
  patch: { enabled: false },
  profile: { name: 'p' },
  workspaces: [{ path: '/w' }],
  parents: [{ path: '/w' }],
  search: { provider: 'github' },
  secret: { name: 'N', value: 'v' },
};

/** Per-method overrides where the generic name does not fit. */
const OVERRIDES: Record<string, unknown[]> = {
  'conversations.create': [{ agent_profile_id: 'p', workspace: { working_dir: '/w' } }],
  'conversations.startChild': [ID, { task: 't' }],
  'conversations.navigate': [ID, 'event-1'],
  'skills.install': [{ source: 'gh:x/y' }],
  'plugins.install': [{ source: 'gh:x/y' }],
  'plugins.fetch': [{ source: 'gh:x/y' }],
  'canvasExtensions.install': [{ source: 'gh:x/y' }],
  'mcp.test': [{ server: { command: 'x' } }],
  'mcp.startOAuth': [{ server: { url: 'https://x' } }],
  'mcp.submitOAuthCallback': ['job-1', { code: 'c' }],
  'profiles.save': ['sample', { llm: { model: 'm' } }],
  'profiles.validate': ['sample', { llm: { model: 'm' } }],
  'llm.createConnection': [{ display_name: 'd', api_key: 'k' }],
  'llm.updateConnection': ['conn-1', { display_name: 'e' }],
  'llm.discoverAcpModels': [{ agent_settings: {} }],
  'openai.chatCompletions': [{ model: 'm', messages: [] }],
  'openai.responses': [{ model: 'm', input: 'x' }],
  'bash.start': ['echo hi'],
  'bash.execute': ['echo hi'],
  'bash.get': ['event-1'],
  'settings.update': [{ agent_settings_diff: {} }],
  'settings.addMcpServer': ['server-1', { command: 'x' }],
  'settings.patchMcpServer': ['server-1', { enabled: false }],
  'server.initialize': [{}],
  'hooks.load': [{ projectDir: '/w' }],
  'skills.subAgents': [{}],
  'git.commitChanges': ['abc123', '/w'],
  'files.downloadTrajectory': [ID],
  'events.get': [ID, 'event-1'],
  'events.send': [ID, { content: 'hi' }],
  'events.respondToConfirmation': [ID, { accept: true }],
  'conversations.setConfirmationPolicy': [ID, 'NeverConfirm'],
  'conversations.setTitle': [ID, 'title'],
  'conversations.update': [ID, { title: 't' }],
  'conversations.switchLlm': [ID, { model: 'm' }],
  'conversations.updateSecrets': [ID, { TOKEN: 'v' }],
  'conversations.startGoal': [ID, { objective: 'o' }],
  'conversations.workspaceFile': [ID, 'dir/file.txt'],
  'conversations.fork': [ID, {}],
};

function parameterNames(fn: (...args: unknown[]) => unknown): string[] {
  const source = fn.toString();
  const open = source.indexOf('(');
  let depth = 0;
  let close = open;
  for (; close < source.length; close++) {
    if ('([{'.includes(source[close] as string)) depth++;
    if (')]}'.includes(source[close] as string)) depth--;
    if (depth === 0) break;
  }
  return source
    .slice(open + 1, close)
    .split(',')
    .map((part) => part.trim().split(/[\s=:]/)[0] ?? '')
    .filter((name) => name !== '' && name !== 'options');
}

function matches(operation: Operation, request: Request): boolean {
  // One segment per parameter; `{file_path}` may span several.
  const pattern = operation.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{file_path\}/g, '.+')
    .replace(/\{[^}]+\}/g, '[^/]+');
  return (
    request.method === operation.method && new RegExp(`^${pattern}$`).test(new URL(request.url).pathname)
  );
}

async function callOnce(
  target: Record<string, (...args: unknown[]) => unknown>,
  method: string,
  key: string,
) {
  const fn = target[method] as (...args: unknown[]) => unknown;
  const args = OVERRIDES[key] ?? parameterNames(fn).map((name) => SAMPLES[name]);
  requests.length = 0;
  try {
    const result = fn.apply(target, args) as unknown;
    if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
      for await (const _ of result as AsyncIterable<unknown>) break;
    } else await result;
  } catch (error) {
    // Answers that do not match the method's schema are expected here; only the request matters.
    if ((error as { name?: string }).name === 'RequestValidationError') throw error;
  }
  return [...requests];
}

const rows = Object.entries(AGENT_SERVER_OPERATIONS).flatMap(([namespace, table]) =>
  Object.entries(table).map(([method, entry]) => ({ namespace, method, entry })),
);

describe('each table method sends its declared operation', () => {
  it.each(rows.map((row) => [`${row.namespace}.${row.method}`, row] as const))(
    '%s',
    async (_, { namespace, method, entry }) => {
      const [serverWide, runtime] = Array.isArray(entry) ? entry : [entry as Operation];
      const key = `${namespace}.${method}`;
      const target = (client as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>)[
        namespace
      ];
      const sent = await callOnce(target as Record<string, (...args: unknown[]) => unknown>, method, key);
      expect(sent.length, `${key} sent no request`).toBeGreaterThan(0);
      expect(
        sent.some((request) => matches(serverWide as Operation, request)),
        `${key}: ${sent.map((r) => `${r.method} ${new URL(r.url).pathname}`).join(', ')}`,
      ).toBe(true);
      if (runtime) {
        const scoped = (
          client.conversation(ID) as unknown as Record<
            string,
            Record<string, (...args: unknown[]) => unknown>
          >
        )[namespace];
        const scopedSent = await callOnce(
          scoped as Record<string, (...args: unknown[]) => unknown>,
          method,
          key,
        );
        expect(
          scopedSent.some((request) => matches(runtime, request)),
          `${key} (runtime): ${scopedSent.map((r) => `${r.method} ${new URL(r.url).pathname}`).join(', ')}`,
        ).toBe(true);
      }
    },
  );
});
