// `agent-platform follow` and `events` against the real agent server: the newest version of the run (session
// socket) and the oldest (events socket only). In tmux, as a person sees it, and as JSON lines compared with
// the server's own REST history. test/cli/follow-tmux.test.ts does the same against the simulator.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationsClient, type Event, EventsClient } from '../../src/index.js';
import { type BuiltCli, buildAgentPlatformCli } from '../cli/support/build-cli.js';
import { tmuxAvailable, tmuxServer, tmuxSkipReason, untilOnScreen } from '../cli/support/tmux.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, finish, startFakeLlm, terminal } from './support/fake-llm.js';
import { startBody } from './support/scenarios.js';

const all = versionsUnderTest('agent-server');
const versions = [...new Set([all[0], all.at(-1)].filter((entry) => entry !== undefined))];
if (!tmuxAvailable) console.log(`cli-follow: the tmux tests are ${tmuxSkipReason}`);

/** Runs the CLI without a terminal; resolves with its exit status and output. */
function run(cli: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const ids = (lines: string) =>
  lines
    .split('\n')
    .filter(Boolean)
    .map((line) => String((JSON.parse(line) as Event).id));

for (const entry of versions) {
  const version = entry.version;
  const venv = requirePeer('agent-server', version);

  describe.skipIf(venv === undefined)(`agent-platform follow / events, real agent server ${version}`, () => {
    const tmux = tmuxServer(`conformance-${version}`);
    let built: BuiltCli;
    let server: RealAgentServer;
    let llm: FakeLlm;
    let conversations: ConversationsClient;
    let events: EventsClient;
    let env: Record<string, string>;

    beforeAll(async () => {
      built = await buildAgentPlatformCli();
      llm = await startFakeLlm();
      server = await startRealAgentServer(venv as string, version);
      const options = { baseUrl: server.url, sessionApiKey: server.sessionApiKey, logLevel: 'off' as const };
      conversations = new ConversationsClient(options);
      events = new EventsClient(options);
      env = { AGENT_SERVER_URL: server.url, SESSION_API_KEY: server.sessionApiKey };
    }, 120_000);

    afterAll(async () => {
      tmux.kill();
      await server?.close();
      await llm?.close();
      built?.remove();
    });

    async function quiet(id: string): Promise<void> {
      let count = -1;
      for (let next = await events.count(id); next !== count; next = await events.count(id)) {
        count = next;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
    }

    /** The REST history, in its order: each event's id, kind and timestamp. */
    async function history(id: string): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      for await (const event of events.search(id))
        found.set(String(event.id), `${event.kind} ${event.timestamp}`);
      return found;
    }

    it.skipIf(!tmuxAvailable)(
      'follow in tmux shows the run as it happens and exits 0 when it finishes',
      async () => {
        llm.script([{ toolCalls: [terminal('echo followed-in-tmux')] }, { toolCalls: [finish('all done')] }]);
        const body = startBody(server, llm);
        const { id } = await conversations.create({ agent: body.agent, workspace: body.workspace });
        const screen = tmux.session('follow', `${process.execPath} ${built.cli} follow ${id}`, env);
        await untilOnScreen(screen, '● idle', 30_000);
        await events.send(id, { content: 'echo something', run: true });
        const text = await untilOnScreen(screen, 'EXIT=', 90_000);
        expect(text).toContain('EXIT=0');
        expect(text).toMatch(/user: echo something/);
        expect(text).toMatch(/→ terminal \$ echo followed-in-tmux/);
        expect(text).toMatch(/← terminal exit 0/);
        expect(text).toMatch(/● finished · 0 reconnects/);
        // The `stats` updates of the real run are in the status line (its cost), not lines of their own.
        expect(text).not.toMatch(/execution_status|stats =|full_state/);
        // Green; tmux may put a background reset between the colour and the text.
        expect(screen(true).replaceAll('\x1b[49m', '')).toContain('\x1b[32m● finished');
      },
      150_000,
    );

    it('follow --json --history of a finished conversation prints its history as JSON lines and exits 0', async () => {
      llm.script([{ toolCalls: [terminal('echo followed-as-json')] }, { toolCalls: [finish('done')] }]);
      const body = startBody(server, llm);
      const { id } = await conversations.create({
        agent: body.agent,
        workspace: body.workspace,
        initial_message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
      });
      await conversations.waitUntil(id, 'finished', { timeout: 90_000 });
      // A finished conversation still persists a state update or two (statistics) for about half a second;
      // `follow` ends at `finished`, so the history it is compared with is read once the log is quiet.
      await quiet(id);
      const followed = await run(built.cli, ['follow', id, '--json', '--history'], env);
      expect(followed.stderr).toBe('');
      expect(followed.code).toBe(0);
      const rest = await history(id);
      const printed = ids(followed.stdout);
      const missing = [...rest.keys()].filter((eventId) => !printed.includes(eventId));
      expect(
        missing.map((eventId) => `${eventId} ${rest.get(eventId)}`),
        [...rest].map(([eventId, what]) => `${printed.includes(eventId) ? ' ' : '!'} ${what}`).join('\n'),
      ).toEqual([]);
      expect(printed).toHaveLength(rest.size);

      const listed = await run(built.cli, ['events', id, '--json'], env);
      expect(listed.code).toBe(0);
      expect(ids(listed.stdout)).toEqual([...rest.keys()]);
    }, 150_000);

    it('an unknown conversation exits non-zero with a message naming it', async () => {
      const missing = '00000000000000000000000000000000';
      const followed = await run(built.cli, ['follow', missing], env);
      expect(followed.code).not.toBe(0);
      expect(followed.stderr).toContain(missing);
    }, 60_000);
  });
}
