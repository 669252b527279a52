// Records what a real agent server produced for every scenario: the REST events, the raw socket frames of
// both protocols, and its /openapi.json. `npm run record:real` writes them under test/fixtures/real/<version>/
// and test/fixtures/openapi/<version>.json; the offline tests read them.
import type { RealAgentServer } from './agent-server.js';
import type { FakeLlm } from './fake-llm.js';
import { allEvents, call, SCENARIOS, startConversation, settle } from './scenarios.js';
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

export async function recordScenario(server: RealAgentServer, llm: FakeLlm, name: string): Promise<RecordedScenario> {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  // Hold the LLM so that the sockets are open before the first step runs.
  llm.hold();
  const id = await startConversation(server, llm, scenario.replies, scenario.options);
  const protocols: SocketProtocol[] = hasSessionSocket(server.version) ? ['events', 'session'] : ['events'];
  const captures = protocols.map((protocol) => [protocol, captureSocket(server, id, protocol)] as const);
  await Promise.all(captures.map(([, capture]) => capture.opened));
  llm.release();
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
