// `/sockets/bash-events` subscribes only once it has read the first-message auth frame, and says nothing when
// it has; the client counts the socket as ready when it opens. A command stored in between came neither on the
// socket nor in the catch-up read made at open: real 1.31.1 delivered its BashCommand after a later reconnect,
// out of order (docs/compatibility.md A42). Here the double reads the auth frame only when the test says.
import { describe, expect, it } from 'vitest';
import { AgentServerClient, type BashEvent, type BashLiveOptions } from '../../../src/agent-server/index.js';
import { sharedBash } from '../../../src/testing/agent-server/bash-simulation.js';
import { BashSocketSession } from '../../../src/testing/agent-server/bash-socket-session.js';
import { agentRunnerFor } from '../../../src/testing/agent-server/handlers.js';
import { SimulatedGit } from '../../../src/testing/agent-server/simulated-git.js';
import { simulatedShell } from '../../../src/testing/agent-server/simulated-shell.js';
import { socketDouble } from '../../../src/testing/agent-server/socket-handlers.js';
import { SimulatedFiles } from '../../../src/testing/agent-server/workspace-files.js';
import { agentServerApiHandlers } from '../../../src/testing.js';
import { useMswServer } from '../../helpers/msw.js';
import { simulatedServer, until } from '../simulated.js';

const KEY = 'bash-late-key-42';
const VERSION = '1.31.1';
const server = simulatedServer('bash-late.test', { version: VERSION, sessionApiKey: KEY });

/** Opens the newest connection's gate: the double reads the frames the client sent, auth first, and subscribes. */
const gates: (() => void)[] = [];

const lateSocket = socketDouble('ws://bash-late.test/sockets/bash-events', ({ client }) => {
  const bash = sharedBash(server.store, () => {
    const files = new SimulatedFiles();
    return simulatedShell({ files, git: new SimulatedGit(files) });
  });
  const session = new BashSocketSession(
    { send: (text) => client.send(text), close: (code, reason) => client.close(code, reason) },
    client.url,
    undefined,
    { store: server.store, runner: agentRunnerFor(server.store), version: VERSION, sessionApiKey: KEY },
    bash,
  );
  let open!: () => void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  gates.push(open);
  client.addEventListener('message', (event) => {
    void gate.then(() => session.onMessage(String(event.data)));
  });
  client.addEventListener('close', () => session.onClose());
  session.start();
});

useMswServer(
  ...lateSocket,
  ...agentServerApiHandlers({ baseUrl: server.baseUrl, store: server.store, sessionApiKey: KEY }),
  ...server.restHandlers,
);

const client = new AgentServerClient({
  baseUrl: server.baseUrl,
  sessionApiKey: KEY,
  logLevel: 'off',
  maxRetries: 0,
});

async function stored(): Promise<string[]> {
  const ids: string[] = [];
  for await (const event of client.bash.search({ sortOrder: 'TIMESTAMP' })) ids.push(event.id);
  return ids;
}

async function follow(options: BashLiveOptions) {
  const live = client.bash.live(options);
  const seen: BashEvent[] = [];
  const loop = (async () => {
    for await (const event of live) seen.push(event);
  })();
  await live.ready;
  // Caught up (the read made at open is over): what comes next is the socket's, once the server subscribed.
  await until(() => live.phase === 'live', 'the catch-up made at open');
  return { live, seen, loop };
}

describe('bash.live(): the server subscribes after the socket opened', () => {
  it.each<[string, BashLiveOptions]>([
    ['live only', {}],
    ['history', { history: true }],
  ])('%s: a command stored before the subscription comes first, in REST order, once', async (_, options) => {
    const before = new Set(await stored());
    const { live, seen, loop } = await follow(options);
    const early = await client.bash.execute('echo before the subscription');
    gates.at(-1)?.();
    const late = await client.bash.execute('echo after it');
    await until(() => seen.some((event) => event.id === late.id), 'the live output');
    live.close();
    await loop;
    const mine = seen.filter((event) => !before.has(event.id));
    expect(mine.map((event) => event.id)).toEqual((await stored()).filter((id) => !before.has(id)));
    expect(mine.map((event) => event.kind)).toEqual([
      'BashCommand',
      'BashOutput',
      'BashCommand',
      'BashOutput',
    ]);
    expect(mine[1]?.id).toBe(early.id);
  });

  it('a command that finished before the subscription, with nothing after it, still comes', async () => {
    const before = new Set(await stored());
    const { live, seen, loop } = await follow({});
    const early = await client.bash.execute('echo alone');
    gates.at(-1)?.();
    await until(() => seen.some((event) => event.id === early.id), 'the command read once more over REST');
    live.close();
    await loop;
    const mine = seen.filter((event) => !before.has(event.id));
    expect(mine.map((event) => event.kind)).toEqual(['BashCommand', 'BashOutput']);
  });
});
