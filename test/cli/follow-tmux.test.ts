import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationsClient, EventsClient } from '../../src/index.js';
import { type LoopbackSimulator, startSimulator } from '../../src/testing.js';

/**
 * `agent-platform follow` in a real terminal: tmux runs it against the simulator, and the test reads the screen
 * (capture-pane) as a person would see it. Skipped with one line when tmux is missing, never under CI=true
 * (CI installs it).
 */
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
if (!hasTmux && process.env.CI === 'true') throw new Error('tmux is missing, and CI=true: install tmux');
if (!hasTmux) console.log('follow-tmux: skipped, tmux is not installed (apt-get install tmux)');

const SOCKET = `agent-platform-test-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });

describe.skipIf(!hasTmux)('agent-platform follow in tmux', () => {
  let work: string;
  let cli: string;
  let sim: LoopbackSimulator;
  let options: { baseUrl: string; sessionApiKey: string };

  beforeAll(async () => {
    const cache = new URL('../../node_modules/.cache/', import.meta.url).pathname;
    mkdirSync(cache, { recursive: true });
    work = mkdtempSync(join(cache, 'agent-platform-tmux-'));
    await build({
      entryPoints: {
        'cli/agent-platform': new URL('../../src/cli/agent-platform.ts', import.meta.url).pathname,
      },
      outdir: work,
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'silent',
    });
    cli = join(work, 'cli', 'agent-platform.js');
    sim = await startSimulator({ stepDelayMs: 20 });
    options = { baseUrl: sim.info.agentServer.url, sessionApiKey: sim.info.agentServer.sessionApiKey };
  }, 60_000);

  afterAll(async () => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
    await sim?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** Starts `command` in a new 100×30 tmux window; returns a reader of its screen (with colours when `escapes`). */
  function session(name: string, command: string) {
    const env = `AGENT_SERVER_URL=${options.baseUrl} SESSION_API_KEY=${options.sessionApiKey} TERM=xterm-256color`;
    tmux(
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      '100',
      '-y',
      '30',
      `env ${env} ${command}; echo EXIT=$?; sleep 30`,
    );
    return (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', name);
  }

  async function until(read: () => string, text: string, ms = 15_000): Promise<string> {
    const end = Date.now() + ms;
    for (;;) {
      const screen = read();
      if (screen.includes(text)) return screen;
      if (Date.now() > end) throw new Error(`"${text}" not on the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

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
    expect(text).toMatch(/execution_status = finished/);
    expect(text).toMatch(/● finished · 0 reconnects/);
    expect(screen(true)).toContain('\x1b[32m● finished'); // green, on a terminal
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
    tmux('send-keys', '-t', 'interrupt', 'C-c');
    expect(await until(screen, 'EXIT=')).toContain('EXIT=130');
  });
});
