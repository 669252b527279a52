import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuntimeAdminClient } from '../../src/runtime/index.js';
import type { SimulatorInfo } from '../../src/testing.js';
import { type BuiltCli, buildAgentPlatformCli } from './support/build-cli.js';

/** The `agent-platform` CLI as a child process (test/cli/support/build-cli.ts), with its demo module. */
let built: BuiltCli;
let cli: string;

beforeAll(async () => {
  built = await buildAgentPlatformCli({ withDemo: true });
  cli = built.cli;
}, 60_000);

afterAll(() => built?.remove());

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function env(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NODE_NO_WARNINGS: '1' };
}

/** Starts the CLI; `done` resolves when it exits. */
function start(args: string[]) {
  const child = spawn(process.execPath, [cli, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  const result = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    result.stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    result.stderr += chunk;
  });
  const done = new Promise<Run>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, ...result }));
  });
  return { child, result, done };
}

const run = (args: string[]) => start(args).done;

/** Waits until the child has printed `predicate`-satisfying stdout, or fails (with its stderr). */
async function waitForOutput(
  child: ChildProcess,
  result: { stdout: string; stderr: string },
  predicate: (stdout: string) => boolean,
  timeout = 15_000,
): Promise<string> {
  const started = Date.now();
  while (!predicate(result.stdout)) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${result.stderr}`);
    if (Date.now() - started > timeout) throw new Error(`no output in time; stderr: ${result.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return result.stdout;
}

describe('the bin', () => {
  it('package.json maps agent-platform to the built file, whose source starts with the node shebang', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.bin['agent-platform']).toBe('./dist/cli/agent-platform.js');
    const source = readFileSync(new URL('../../src/cli/agent-platform.ts', import.meta.url), 'utf8');
    expect(source.split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(readFileSync(cli, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });

  it('imports neither msw nor ws itself: --help works without the optional peers', () => {
    const code = readFileSync(cli, 'utf8');
    expect(code).not.toMatch(/from\s*["'](msw|ws)[/"']/);
  });
});

describe('help and usage', () => {
  it('--help lists the commands and says the simulator is for local use (exit 0)', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('simulate');
    expect(stdout).toContain('demo');
    expect(stdout).toContain('For local use only');
  });

  it.each([['simulate'], ['demo']])('%s --help exits 0 with its options', async (command) => {
    const { code, stdout } = await run([command, '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain(`usage: agent-platform ${command}`);
    if (command === 'simulate') expect(stdout).toMatch(/--port N[\s\S]*--json/);
  });

  it.each([
    [[], 'a command is required'],
    [['serve'], "invalid choice: 'serve'"],
    [['simulate', '--port', 'abc'], 'must be a port'],
    [['simulate', '--verbose'], 'unrecognized argument: --verbose'],
    [['demo', 'extra'], 'unrecognized arguments: extra'],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const { code, stderr, stdout } = await run(args);
    expect(code).toBe(2);
    expect(stderr).toContain('usage: agent-platform');
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
  });
});

describe('simulate', () => {
  it('--json prints the addresses and credentials, serves them, and stops on SIGTERM (exit 0)', async () => {
    const { child, result, done } = start(['simulate', '--json']);
    try {
      const stdout = await waitForOutput(child, result, (text) => text.includes('\n'));
      const info = JSON.parse(stdout.split('\n')[0]!) as SimulatorInfo & { env: Record<string, string> };
      expect(info.mode).toBe('loopback');
      for (const service of ['agentServer', 'runtimeApi', 'gateway', 'externalGateway', 'app'] as const) {
        expect(new URL(info[service].url).hostname).toBe('127.0.0.1');
      }
      expect(info.env.AGENT_SERVER_URL).toBe(info.agentServer.url);

      // Real HTTP: the agent server answers, and the printed admin password logs in.
      const serverInfo = await (await fetch(`${info.agentServer.url}/server_info`)).json();
      expect(serverInfo.version).toBe(info.agentServer.version);
      const runtime = new RuntimeAdminClient({
        baseUrl: info.runtimeApi.url,
        adminPassword: info.runtimeApi.adminPassword,
        env: false,
      });
      expect(typeof (await runtime.login())).toBe('string');

      // A real websocket: a conversation the agent server does not know closes with 4004 after auth.
      const socket = new WebSocket(
        info.agentServer.socketUrl.replace('{conversation_id}', crypto.randomUUID()),
      );
      const closeCode = await new Promise<number>((resolve) => {
        socket.addEventListener('open', () =>
          socket.send(JSON.stringify({ type: 'auth', session_api_key: info.agentServer.sessionApiKey })),
        );
        socket.addEventListener('close', (event) => resolve(event.code));
      });
      expect(closeCode).toBe(4004);
    } finally {
      child.kill('SIGTERM');
    }
    const { code, signal, stderr, stdout } = await done;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(stderr).toContain('SIGTERM: stopping the simulator');
    expect(stdout.trim().split('\n')).toHaveLength(1); // nothing but the JSON line on stdout
    const info = JSON.parse(stdout) as SimulatorInfo;
    expect(await fetch(`${info.agentServer.url}/server_info`).catch((e: unknown) => e)).toBeInstanceOf(
      TypeError,
    );
  });

  it('prints the addresses and export lines for a shell, and stops on SIGINT (exit 0)', async () => {
    const { child, result, done } = start(['simulate']);
    try {
      await waitForOutput(child, result, (text) => text.includes('Press Ctrl-C to stop.'));
    } finally {
      child.kill('SIGINT');
    }
    const { code, stdout } = await done;
    expect(code).toBe(0);
    expect(stdout).toMatch(/agent server\s+http:\/\/127\.0\.0\.1:\d+/);
    expect(stdout).toMatch(/^ {2}export AGENT_SERVER_URL=http:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).toMatch(/^ {2}export ADMIN_PASSWORD=\S+$/m);
    expect(stdout).toContain('For local use only');
  });

  it('--port N: five consecutive ports from N; a port in use is an error (exit 1)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      // The runtime API would take N+1: let the agent server's port be the one below the taken one.
      const { code, stderr, stdout } = await run(['simulate', '--port', String(taken - 1), '--json']);
      expect(code).toBe(1);
      expect(stderr).toMatch(/already in use|EADDRINUSE/);
      // Under --json the failure is one JSON object on stdout too.
      expect(JSON.parse(stdout).error).toMatchObject({ type: 'Error', exitCode: 1 });
      expect(JSON.parse(stdout).error.message).toMatch(/already in use/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('demo', () => {
  it('runs the walk-through against the simulator and exits 0', async () => {
    const { code, stdout, stderr } = await run(['demo']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (let step = 1; step <= 7; step += 1) expect(stdout).toContain(`▸ ${step}/7 `);
    expect(stdout).toMatch(/✔ demo finished in \d+\.\d s\n$/);
  }, 60_000);
});
