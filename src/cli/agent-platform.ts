#!/usr/bin/env node
import { VERSION } from '../core/version.js';
// The `agent-platform` command: a conversation live in the terminal (`follow`, `events`), a simulated platform
// on this machine (`simulate`) and the SDK demo (`demo`).
// See docs/testing.md. Both need the optional peer dependencies msw and ws; they are loaded only by the
// command that runs, so `--help` works without them.
import { DEFAULT_AGENT_SERVER_VERSION } from '../testing/agent-server/versions.js';
import type { SimulatorInfo } from '../testing/simulator.js';
import { type CommandSpec, type ParsedArgs, selectCommand, UsageError, usageLine } from './args.js';
import { CONNECTION_OPTIONS, eventsCommand, followCommand, INTERRUPTED, type Terminal } from './follow.js';
import { errorJson } from './output.js';

const PROG = 'agent-platform';

/** The demo and the simulator: dist/cli/demo.js, built next to this file. */
type DemoModule = typeof import('./demo.js');

interface Command extends CommandSpec {
  run(args: ParsedArgs): Promise<number>;
}

const out = (text: string) => process.stdout.write(`${text}\n`);
const err = (text: string) => process.stderr.write(`${text}\n`);

const LOCAL_ONLY = `For local use only: the credentials are generated for this run, printed in clear and sent
without TLS. The servers listen on 127.0.0.1.`;

const CONVERSATION_ID = {
  name: 'conversation-id',
  description: 'The conversation (a UUID, with or without dashes).',
  required: true,
};

const COMMANDS: Command[] = [
  {
    name: 'follow',
    summary:
      'Watch a conversation live, as a web page shows it (the conversation view): its newest page, then one line per event of each item (actions with their command, observations with exit code and output, messages, errors in red), streamed LLM output typed as it comes and a status line (status, reconnects, cost), on a terminal. Ends when the conversation is idle.',
    details: `Connects with the options of EventsClient: --base-url or AGENT_SERVER_URL, --session-api-key or
SESSION_API_KEY. Reconnects by itself and shows every event once, in order. State updates are no lines: the
status line shows them. Colours, typing and the status line only on a terminal; piped, it writes plain lines
(a new status and a reconnect on lines of their own). --json writes every event, state updates included.

exit status: 0 when the conversation finished, 1 when it ended in error or stuck or could not be followed,
2 for a bad command line, ${INTERRUPTED} on Ctrl-C.`,
    positionals: [CONVERSATION_ID],
    options: [
      ...CONNECTION_OPTIONS,
      {
        name: 'history',
        type: 'boolean',
        description: 'Show the whole history first (not only the newest page), then follow.',
      },
    ],
    run: (args) => followCommand(args, terminal()),
  },
  {
    name: 'events',
    summary:
      "Print a conversation's history, one line per event of each item as follow shows them (or one JSON event per line, state updates included), and exit.",
    details: `Same connection options as follow.

exit status: 0 when the history was printed, 1 when it could not be read, 2 for a bad command line,
${INTERRUPTED} on Ctrl-C.`,
    positionals: [CONVERSATION_ID],
    options: CONNECTION_OPTIONS,
    run: (args) => eventsCommand(args, terminal()),
  },
  {
    name: 'simulate',
    summary:
      'Start a simulated platform on loopback (agent server with a scripted agent, runtime API, gateway chained to an external gateway, platform app) and print its addresses and credentials. Runs until Ctrl-C (SIGINT) or SIGTERM.',
    details: `${LOCAL_ONLY}

With --port N the services listen on N (agent server), N+1 (runtime API), N+2 (gateway), N+3 (external
gateway) and N+4 (platform app); without it, on random free ports.

--json prints one line of JSON: the addresses and credentials (the SimulatorInfo of
agent-platform-sdk/testing) and "env", the same as environment variables for the examples.

exit status: 0 when stopped by a signal, 1 when it cannot start (port in use, msw or ws missing),
2 for a bad command line.`,
    positionals: [],
    options: [
      { name: 'port', type: 'string', valueName: 'N', description: 'First of five consecutive ports.' },
      { name: 'json', type: 'boolean', description: 'One line of JSON on stdout instead of the text.' },
      {
        name: 'agent-server-version',
        type: 'string',
        valueName: 'VERSION',
        description: `Version the agent server reports (decides its answers and socket protocol). Default ${DEFAULT_AGENT_SERVER_VERSION}.`,
      },
    ],
    run: simulate,
  },
  {
    name: 'demo',
    summary:
      'Walk through the SDK against a simulated platform: a live conversation, history, warm pools, gateway models, profiles and tags, trace export. Takes a few seconds; prints no credential.',
    details: 'exit status: 0 when every step worked, 1 when one failed, 2 for a bad command line.',
    positionals: [],
    options: [],
    run: demo,
  },
];

export async function main(argv: readonly string[]): Promise<number> {
  const selected = selectCommand(PROG, COMMANDS, argv, {
    out,
    err,
    version: VERSION,
    description:
      'A conversation of an agent server live in the terminal, a simulated agent platform on this machine, and a demo of agent-platform-sdk against it.',
    epilogue: [LOCAL_ONLY],
  });
  if ('exit' in selected) return selected.exit;
  const { command, args } = selected;
  try {
    return await command.run(args);
  } catch (error) {
    const message = `${PROG} ${command.name}: error: ${describeFailure(error)}`;
    const exitCode = error instanceof UsageError ? 2 : 1;
    if (error instanceof UsageError) err(usageLine(PROG, command));
    err(message);
    if (args.options.json) out(errorJson(error, message, exitCode));
    return exitCode;
  }
}

/** The process's terminal; Ctrl-C (SIGINT) asks the running command to stop. */
function terminal(): Terminal {
  // A reader that stops early (`| head`) closes the pipe: that ends the command, it is not a failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    interrupted: new Promise<void>((resolve) => process.once('SIGINT', () => resolve())),
  };
}

async function simulate(args: ParsedArgs): Promise<number> {
  const port = portOption(args.options.port);
  const version = args.options['agent-server-version'];
  const { startSimulator } = await loadDemoModule();
  const sim = await startSimulator({
    ...(port === undefined ? {} : { port }),
    ...(typeof version === 'string' ? { agentServerVersion: version } : {}),
  });
  if (args.options.json) out(JSON.stringify({ ...sim.info, env: sim.env }));
  else printSimulator(sim.info, sim.env);
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      err(`${PROG}: ${signal}: stopping the simulator`);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await sim.close();
  return 0;
}

function portOption(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || port < 1 || port > 65_531) {
    throw new UsageError(`argument --port: must be a port from 1 to 65531, got '${String(value)}'`);
  }
  return port;
}

function printSimulator(info: SimulatorInfo, env: Record<string, string>): void {
  const rows: [string, string][] = [
    ['agent server', `${info.agentServer.url}  (version ${info.agentServer.version})`],
    ['  event socket', info.agentServer.socketUrl],
    ['runtime API', info.runtimeApi.url],
    ['gateway', info.gateway.url],
    ['external gateway', info.externalGateway.url],
    ['platform app', info.app.url],
  ];
  out('agent-platform simulator: one in-memory platform on loopback.');
  out('');
  for (const [name, value] of rows) out(`  ${name.padEnd(18)}${value}`);
  out('');
  out('Environment for the examples and your own scripts (credentials in clear):');
  for (const [name, value] of Object.entries(env)) out(`  export ${name}=${shellWord(value)}`);
  out('');
  out(LOCAL_ONLY);
  out('Press Ctrl-C to stop.');
}

function shellWord(value: string): string {
  return /^[\w@%+=:,./{}-]+$/.test(value) ? value : `'${value.replaceAll("'", `'"'"'`)}'`;
}

async function demo(): Promise<number> {
  const { runDemo } = await loadDemoModule();
  return runDemo();
}

/**
 * Loads dist/cli/demo.js. The specifier is built at run time so the bundler leaves it alone: msw and ws are
 * needed only once a command runs, and a missing one is an error that says what to install.
 */
async function loadDemoModule(): Promise<DemoModule> {
  try {
    return (await import(new URL('./demo.js', import.meta.url).href)) as DemoModule;
  } catch (error) {
    const missing = /Cannot find (?:package|module) '(msw|ws)[/']/.exec(String(error));
    if (missing) {
      throw new Error(
        `this command needs the optional peer dependencies msw and ws ('${missing[1]}' is missing): npm install --save-dev msw ws`,
      );
    }
    throw error;
  }
}

function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return `a port is already in use (${(error as Error).message})`;
  return error instanceof Error ? error.message : String(error);
}

process.exitCode = await main(process.argv.slice(2));
