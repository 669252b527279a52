import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationsClient, EventsClient } from '../../src/index.js';
import { type LoopbackSimulator, startSimulator } from '../../src/testing.js';
import { type BuiltCli, buildAgentPlatformCli } from './support/build-cli.js';
import { tmuxAvailable, tmuxServer, tmuxSkipReason, untilOnScreen } from './support/tmux.js';

/**
 * `agent-platform follow` in a real terminal: tmux runs it against the simulator, and the test reads the screen
 * (capture-pane) as a person would see it. Skipped with one line when tmux is missing, never under CI=true
 * (CI installs it). test/conformance/cli-follow.test.ts does the same against the real agent server.
 */
if (!tmuxAvailable) console.log(`follow-tmux: ${tmuxSkipReason}`);

describe.skipIf(!tmuxAvailable)('agent-platform follow in tmux', () => {
  const tmux = tmuxServer('follow-test');
  let built: BuiltCli;
  let cli: string;
  let sim: LoopbackSimulator;
  let options: { baseUrl: string; sessionApiKey: string };

  beforeAll(async () => {
    built = await buildAgentPlatformCli();
    cli = built.cli;
    sim = await startSimulator({ stepDelayMs: 20 });
    options = { baseUrl: sim.info.agentServer.url, sessionApiKey: sim.info.agentServer.sessionApiKey };
  }, 60_000);

  afterAll(async () => {
    tmux.kill();
    await sim?.close();
    built?.remove();
  });

  const session = (name: string, command: string) =>
    tmux.session(name, command, {
      AGENT_SERVER_URL: options.baseUrl,
      SESSION_API_KEY: options.sessionApiKey,
    });
  const until = untilOnScreen;

  it('shows the run as it happens, with colours and a status line, and exits 0 when it finishes', async () => {
    const { id } = await new ConversationsClient(options).create({
      agent: { llm: { model: 'm' }, tools: [{ name: 'terminal' }] },
      workspace: { working_dir: '/tmp' },
    });
    const screen = session('tty', `${process.execPath} ${cli} follow ${id}`);
    await until(screen, '● idle');
    await new EventsClient(options).send(id, { content: 'list the files', run: true });
    const text = await until(screen, 'EXIT=');
    expect(text).toContain('EXIT=0');
    expect(text).toMatch(/user: list the files/);
    expect(text).toMatch(/→ terminal \$ /);
    expect(text).toMatch(/← terminal exit 0/);
    // State updates are in the status line, never lines of their own (the stats blobs were noise).
    expect(text).not.toMatch(/execution_status|stats =|full_state/);
    expect(text).toMatch(/● finished · 0 reconnects/);
    // Green; tmux may put a background reset between the colour and the text.
    expect(screen(true).replaceAll('\x1b[49m', '')).toContain('\x1b[32m● finished');
  });

  it('writes no colour or cursor movement when its output is not a terminal, even inside one', async () => {
    const { id } = await new ConversationsClient(options).create({
      agent: { llm: { model: 'm' } },
      workspace: { working_dir: '/tmp' },
      initial_message: 'hello',
    });
    await new ConversationsClient(options).waitUntil(id, 'finished', { timeout: 10_000 });
    const screen = session('pipe', `${process.execPath} ${cli} events ${id} | cat`);
    await until(screen, 'EXIT=');
    expect(screen()).toMatch(/user: hello/);
    expect(screen(true)).not.toContain('\x1b[3'); // no foreground colour
  });

  it('Ctrl-C stops it with exit status 130', async () => {
    const { id } = await new ConversationsClient(options).create({
      agent: { llm: { model: 'm' } },
      workspace: { working_dir: '/tmp' },
    });
    const screen = session('interrupt', `${process.execPath} ${cli} follow ${id}`);
    await until(screen, '● idle');
    tmux.sendKeys('interrupt', 'C-c');
    expect(await until(screen, 'EXIT=')).toContain('EXIT=130');
  });
});
