// The setup of a conformance file that runs against one real agent server (conversation-trace,
// expose-secrets-and-skills, agent-server-api): the first version of CONFORMANCE_VERSIONS, else the newest of the
// matrix; a fake LLM beside it and an AgentServerClient on it, started before the file's tests, stopped after.
import { afterAll, beforeAll } from 'vitest';
import { AgentServerClient } from '../../../src/index.js';
import { newestVersion, requirePeer } from '../../peers/peers.js';
import { type RealAgentServer, startRealAgentServer } from './agent-server.js';
import { type FakeLlm, startFakeLlm } from './fake-llm.js';

export interface AgentServerTarget {
  version: string;
  /** Its virtual environment; `undefined` when not provisioned (the file skips: `describe.skipIf`). */
  venv: string | undefined;
}

/** The version such a file runs against (under CI a missing one throws: see `requirePeer`). */
export function oneAgentServer(): AgentServerTarget {
  const version = process.env.CONFORMANCE_VERSIONS?.split(',')[0] ?? newestVersion('agent-server');
  return { version, venv: requirePeer('agent-server', version) };
}

export interface RealSetup {
  readonly server: RealAgentServer;
  readonly llm: FakeLlm;
  readonly client: AgentServerClient;
}

/**
 * Registers the file's `beforeAll` (the fake LLM, then the server, then the client) and `afterAll` (server and
 * LLM closed, whichever started); call it inside the `describe`. The fields are set once `beforeAll` ran: read
 * them in tests and hooks only.
 */
export function useAgentServer(target: AgentServerTarget): RealSetup {
  const setup: Partial<{ -readonly [K in keyof RealSetup]: RealSetup[K] }> = {};
  beforeAll(async () => {
    setup.llm = await startFakeLlm();
    setup.server = await startRealAgentServer(target.venv as string, target.version);
    setup.client = new AgentServerClient({
      baseUrl: setup.server.url,
      sessionApiKey: setup.server.sessionApiKey,
      logLevel: 'off',
    });
  });
  afterAll(async () => {
    await setup.server?.close();
    await setup.llm?.close();
  });
  return setup as RealSetup;
}
