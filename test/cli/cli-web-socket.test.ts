// Issue 33, item 5: `agent-platform follow` on Node 20 (no built-in WebSocket) uses the ws package when it is
// installed, or says plainly what is needed; advice to pass an option a shell cannot pass is no answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import type { ParsedArgs } from '../../src/cli/args.js';
import { cliWebSocket, NoWebSocketError } from '../../src/cli/cli-web-socket.js';
import { followCommand, type Terminal } from '../../src/cli/follow.js';
import { ConversationsClient } from '../../src/index.js';
import { type LoopbackSimulator, startSimulator } from '../../src/testing.js';

const builtIn = globalThis.WebSocket;
afterEach(() => {
  globalThis.WebSocket = builtIn;
});

describe('cliWebSocket', () => {
  it('the ws package, which bounds frames, even where the runtime has its own', () => {
    expect(cliWebSocket({ WebSocket: builtIn })).toBe(WsWebSocket);
    expect(cliWebSocket({})).toBe(WsWebSocket);
  });

  it("ws not loadable: the runtime's own (nothing to pass)", () => {
    expect(cliWebSocket({ WebSocket: builtIn }, () => undefined)).toBeUndefined();
  });

  it('no built-in, no ws: an error naming Node 22 and npm i ws, not the WebSocket option', () => {
    let error: unknown;
    try {
      cliWebSocket({}, () => undefined);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NoWebSocketError);
    expect((error as Error).message).toContain('Node 22 or newer');
    expect((error as Error).message).toContain('npm i ws');
    expect((error as Error).message).not.toContain('WebSocket option');
  });
});

describe('follow without a built-in WebSocket (as on Node 20)', () => {
  let sim: LoopbackSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ mode: 'loopback' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('follows a finished conversation with the ws package and exits 0', async () => {
    const options = { baseUrl: sim.info.agentServer.url, sessionApiKey: sim.info.agentServer.sessionApiKey };
    const conversations = new ConversationsClient(options);
    const { id } = await conversations.create({
      agent: { llm: { model: 'm' } },
      workspace: { working_dir: '/tmp' },
      initial_message: 'hello',
    });
    await conversations.waitUntil(id, 'finished', { timeout: 10_000 });
    let stderr = '';
    const term: Terminal = {
      stdout: { write: () => true },
      stderr: {
        write: (text: string) => {
          stderr += text;
          return true;
        },
      },
      env: { AGENT_SERVER_URL: options.baseUrl, SESSION_API_KEY: options.sessionApiKey },
      interrupted: new Promise(() => {}),
    };
    const args: ParsedArgs = { positionals: { 'conversation-id': id }, options: {}, help: false };
    delete (globalThis as { WebSocket?: unknown }).WebSocket;
    expect(await followCommand(args, term)).toBe(0);
    expect(stderr).toBe('');
  }, 20_000);
});
