// Records what a real agent server produced for every scenario: the REST events, the raw socket frames of
// both protocols, and its /openapi.json. `npm run record:real` writes them under test/fixtures/real/<version>/
// and test/fixtures/openapi/<version>.json; the offline tests read them.
import type { RealAgentServer } from './agent-server.js';
import type { FakeLlm } from './fake-llm.js';
import { allEvents, call, SCENARIOS, settle, startConversation } from './scenarios.js';
import { captureSocket, type SocketProtocol } from './socket-capture.js';

export interface RecordedScenario {
  readonly name: string;
  readonly conversationId: string;
  readonly status: string;
  readonly events: Record<string, unknown>[];
  readonly frames: Partial<Record<SocketProtocol, string[]>>;
}

export const hasSessionSocket = (version: string) => compareVersions(version, '1.45.0') >= 0;

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The scenarios a server version can run (those whose `since` it reaches), split by `afterOpenApi`. */
export function scenariosFor(version: string): { before: string[]; after: string[] } {
  const runnable = Object.entries(SCENARIOS).filter(
    ([, scenario]) => scenario.since === undefined || compareVersions(version, scenario.since) >= 0,
  );
  return {
    before: runnable.filter(([, scenario]) => !scenario.afterOpenApi).map(([name]) => name),
    after: runnable.filter(([, scenario]) => scenario.afterOpenApi).map(([name]) => name),
  };
}

export async function recordScenario(
  server: RealAgentServer,
  llm: FakeLlm,
  name: string,
): Promise<RecordedScenario> {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  // Hold the LLM so that the sockets are open before the first step runs.
  llm.hold();
  const id = await startConversation(server, llm, scenario.replies, scenario.options);
  const protocols: SocketProtocol[] = hasSessionSocket(server.version) ? ['events', 'session'] : ['events'];
  const captures = protocols.map((protocol) => [protocol, captureSocket(server, id, protocol)] as const);
  await Promise.all(captures.map(([, capture]) => capture.opened));
  if (scenario.during) await scenario.during(server, llm, id);
  else llm.release();
  let status = await settle(server, id);
  if (status === 'waiting_for_confirmation') {
    await call(server, 'POST', `/api/conversations/${id}/events/respond_to_confirmation`, {
      accept: false,
      reason: 'conformance: rejected on purpose',
    });
    // A rejected action ends the step: the agent records the rejection and goes idle until the next message.
    const deadline = Date.now() + 30_000;
    while (status === 'waiting_for_confirmation' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = (await settle(server, id, 30_000, ['idle'])) ?? status;
    }
  }
  // Let the last frames (final state update) arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const events = await allEvents(server, id);
  const frames: Partial<Record<SocketProtocol, string[]>> = {};
  for (const [protocol, capture] of captures) {
    await capture.close();
    frames[protocol] = capture.frames;
  }
  return { name, conversationId: id, status, events, frames };
}

export async function recordOpenApi(server: RealAgentServer): Promise<unknown> {
  const { json } = await call(server, 'GET', '/openapi.json');
  return json;
}

/** One request and the real server's answer, replayed against our doubles by test/testing/replay-real.test.ts. */
export interface RecordedExchange {
  readonly name: string;
  readonly method: string;
  /** `{id}` stands for the conversation the sequence started, `{unknown}` for an id no server knows. */
  readonly path: string;
  readonly body?: unknown;
  readonly status: number;
  readonly response: unknown;
}

export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The exchanges of one fixed sequence, in order (each may depend on the ones before). The conversation is
 * started with the fake LLM answering plain text, so it finishes at once and every later answer is settled.
 */
export function exchangeSequence(llmBaseUrl: string, workingDir: string) {
  const start = {
    agent: {
      kind: 'Agent',
      llm: {
        model: 'openai/conformance-fake',
        base_url: llmBaseUrl,
        api_key: 'sk-conformance-fake',
        usage_id: 'agent',
        num_retries: 0,
      },
      tools: [{ name: 'terminal', params: { terminal_type: 'subprocess' } }],
    },
    workspace: { kind: 'LocalWorkspace', working_dir: workingDir },
    initial_message: { role: 'user', content: [{ type: 'text', text: 'go' }], run: false },
    max_iterations: 5,
    stuck_detection: false,
    autotitle: false,
  };
  return [
    { name: 'server info', method: 'GET', path: '/server_info' },
    {
      name: 'start (initial message with run: false)',
      method: 'POST',
      path: '/api/conversations',
      body: start,
    },
    { name: 'get conversation', method: 'GET', path: '/api/conversations/{id}' },
    { name: 'get unknown conversation', method: 'GET', path: '/api/conversations/{unknown}' },
    { name: 'search events', method: 'GET', path: '/api/conversations/{id}/events/search?limit=100' },
    {
      name: 'search unknown conversation',
      method: 'GET',
      path: '/api/conversations/{unknown}/events/search',
    },
    { name: 'count events', method: 'GET', path: '/api/conversations/{id}/events/count' },
    { name: 'get unknown event', method: 'GET', path: `/api/conversations/{id}/events/${UNKNOWN_ID}` },
    {
      name: 'send message without run',
      method: 'POST',
      path: '/api/conversations/{id}/events',
      body: { role: 'user', content: [{ type: 'text', text: 'more' }], run: false },
    },
    { name: 'set title', method: 'PATCH', path: '/api/conversations/{id}', body: { title: 'Replayed' } },
    {
      name: 'set title of unknown conversation',
      method: 'PATCH',
      path: '/api/conversations/{unknown}',
      body: { title: 'x' },
    },
    {
      name: 'confirmation policy',
      method: 'POST',
      path: '/api/conversations/{id}/confirmation_policy',
      body: { policy: { kind: 'NeverConfirm' } },
    },
    { name: 'run unknown conversation', method: 'POST', path: '/api/conversations/{unknown}/run' },
    { name: 'pause unknown conversation', method: 'POST', path: '/api/conversations/{unknown}/pause' },
    { name: 'delete unknown conversation', method: 'DELETE', path: '/api/conversations/{unknown}' },
    { name: 'delete conversation', method: 'DELETE', path: '/api/conversations/{id}' },
    { name: 'get deleted conversation', method: 'GET', path: '/api/conversations/{id}' },
  ] as const;
}

export function fillPath(path: string, id: string | undefined): string {
  return path.replaceAll('{id}', id ?? UNKNOWN_ID).replaceAll('{unknown}', UNKNOWN_ID);
}

export async function recordExchanges(server: RealAgentServer, llm: FakeLlm): Promise<RecordedExchange[]> {
  llm.script([{ text: 'Nothing to do.' }]);
  const recorded: RecordedExchange[] = [];
  let id: string | undefined;
  for (const step of exchangeSequence(llm.baseUrl, server.workspaceDir)) {
    const body = 'body' in step ? step.body : undefined;
    const answer = await call(server, step.method, fillPath(step.path, id), body);
    if (step.name.startsWith('start')) {
      id = (answer.json as { id: string }).id;
      await settle(server, id, 30_000, ['idle']);
    }
    recorded.push({
      name: step.name,
      method: step.method,
      path: step.path,
      ...(body === undefined ? {} : { body }),
      status: answer.status,
      response: answer.json ?? answer.text,
    });
  }
  return recorded;
}
