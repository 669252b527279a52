// `client.bash.live()` against the real agent servers of the matrix (`/sockets/bash-events`, every version that
// has the socket): commands started through the SDK's bash API, followed live; every BashCommand and BashOutput
// of them arrives exactly once and in the order of the REST bash-events search, also when the server is killed
// (SIGKILL, mid-command) and started again on the same data.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentServerClient, type BashEvent, type BashLiveStream } from '../../src/agent-server/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';

/** True when the version's server has the route (its sockets module declares it; 1.11.4 already does). */
function hasBashSocket(venv: string | undefined): boolean {
  if (venv === undefined) return false;
  const sockets = join(venv, 'lib/python3.12/site-packages/openhands/agent_server/sockets.py');
  return existsSync(sockets) && readFileSync(sockets, 'utf8').includes('"/bash-events"');
}

/** The command a bash event belongs to. */
function commandOf(event: BashEvent): string {
  return event.kind === 'BashOutput' ? event.command_id : event.id;
}

/** Every stored bash event of `commands`, in the REST search's order (timestamp, oldest first). */
async function restLog(client: AgentServerClient, commands: ReadonlySet<string>): Promise<BashEvent[]> {
  const events: BashEvent[] = [];
  for await (const event of client.bash.search({ sortOrder: 'TIMESTAMP' }))
    if (commands.has(commandOf(event))) events.push(event);
  return events;
}

/** The REST log of `commands`, once it holds what the socket delivered (it may lag the socket by a write). */
async function restLogHolding(
  client: AgentServerClient,
  commands: ReadonlySet<string>,
  received: readonly BashEvent[],
): Promise<BashEvent[]> {
  let log: BashEvent[] = [];
  await until(
    async () => {
      log = await restLog(client, commands);
      return log.length >= received.filter((event) => commands.has(commandOf(event))).length;
    },
    10_000,
    'the REST log',
  );
  return log;
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** True once a command's last output (the one with its exit code) was received. */
function finished(received: readonly BashEvent[], commandId: string): boolean {
  return received.some(
    (event) =>
      event.kind === 'BashOutput' &&
      event.command_id === commandId &&
      event.exit_code !== null &&
      event.exit_code !== undefined,
  );
}

/**
 * The REST search's order, by timestamp. Servers before 1.31.1 name their bash event files by the second
 * (`YYYYMMDDHHMMSS_<kind>_…`) and the search sorts by file name, so events of one second come by kind and id
 * there; later ones name them to the microsecond, and the search's order is the timestamp order already. A stable
 * sort by timestamp keeps the search's order on those and gives the order the events were stamped on the older.
 */
function restOrder(events: BashEvent[]): BashEvent[] {
  return [...events].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
}

/** One line per run, printed after the suite (the counts the report quotes). */
const counts: string[] = [];
afterAll(() => {
  if (counts.length > 0) console.log(`bash.live() conformance: ${counts.join('; ')}`);
});

/**
 * The built-in WebSocket, sending its first frame (the first-message auth) `delayMs` late: the server subscribes
 * only once it has read it, and the socket is open, and the stream ready, long before that.
 */
function lateAuthWebSocket(delayMs: number): { WebSocket: typeof WebSocket; authSent: Promise<void> } {
  let sent!: () => void;
  const authSent = new Promise<void>((resolve) => {
    sent = resolve;
  });
  class LateAuthWebSocket extends WebSocket {
    #first = true;
    override send(data: Parameters<WebSocket['send']>[0]): void {
      if (!this.#first) {
        super.send(data);
        return;
      }
      this.#first = false;
      setTimeout(() => {
        if (this.readyState === WebSocket.OPEN) super.send(data);
        sent();
      }, delayMs);
    }
  }
  return { WebSocket: LateAuthWebSocket, authSent };
}

/** Servers from 1.18.1 take the key in the socket's first frame (the SDK's choice there). */
function firstMessageAuth(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  return major > 1 || minor > 18 || (minor === 18 && patch >= 1);
}

function describeEvent(event: BashEvent): string {
  return `${event.kind}:${event.id.slice(0, 8)}@${event.timestamp}`;
}

/** What a test saw of a stream: its events, its `error` events, its reconnects, and how it ended. */
interface Followed {
  received: BashEvent[];
  errors: Error[];
  reconnects: number;
  /** Resolves when the stream ends: with the error it ended with, if any. */
  ended: Promise<unknown>;
}

function follow(live: BashLiveStream): Followed {
  const followed: Followed = { received: [], errors: [], reconnects: 0, ended: Promise.resolve() };
  live.on('error', (error) => followed.errors.push(error));
  live.on('reconnecting', () => {
    followed.reconnects += 1;
  });
  followed.ended = (async () => {
    try {
      for await (const event of live) followed.received.push(event);
      return undefined;
    } catch (error) {
      return error;
    }
  })();
  return followed;
}

for (const { version } of versionsUnderTest('agent-server')) {
  const venv = requirePeer('agent-server', version);
  const bashSocket = hasBashSocket(venv);

  // Every version of the matrix has the socket (1.11.4 already does); one without it is skipped, saying so.
  const title = bashSocket
    ? `real agent server ${version}: bash.live()`
    : `real agent server ${version}: bash.live() (skipped: its sockets module declares no /sockets/bash-events)`;
  describe.skipIf(venv === undefined || !bashSocket)(title, () => {
    let server: RealAgentServer;
    let client: AgentServerClient;

    beforeAll(async () => {
      server = await startRealAgentServer(venv as string, version);
      client = new AgentServerClient({
        baseUrl: server.url,
        sessionApiKey: server.sessionApiKey,
        logLevel: 'off',
      });
    });

    afterAll(async () => {
      await server?.close();
    });

    it('history: a log of several REST pages arrives whole, once, in REST order', async () => {
      // Over a page of 100 (the search's page ids are file names, not event ids): 55 commands at once. Servers
      // before 1.31.1 name files by the second: a second over several pages is sorted as one while it fits in
      // maxBufferedBytes (bashCatchUpPages; these events are small).
      const started = await Promise.all(
        Array.from({ length: 55 }, (_, i) => client.bash.start(`echo history-${i}`)),
      );
      const ids = new Set(started.map((command) => command.id));
      let expected: BashEvent[] = [];
      await until(
        async () => {
          expected = [];
          for await (const event of client.bash.search({ sortOrder: 'TIMESTAMP' })) expected.push(event);
          return [...ids].every((id) => finished(expected, id));
        },
        30_000,
        'every command of the history finished',
      );
      expect(expected.length).toBeGreaterThan(100);
      const live = client.bash.live({ history: true });
      const followed = follow(live);
      const { received, errors } = followed;
      await until(() => received.length >= expected.length, 30_000, 'the whole history');
      live.close();
      expect(await followed.ended).toBeUndefined();
      expect(received.slice(0, expected.length).map(describeEvent)).toEqual(
        restOrder(expected).map(describeEvent),
      );
      expect(followed.reconnects).toBe(0);
      expect(errors).toEqual([]);
    }, 60_000);

    it('live only: every BashCommand and BashOutput of three commands once, in REST order', async () => {
      const live = client.bash.live();
      const followed = follow(live);
      const { received, errors } = followed;
      await live.ready;
      const commands: string[] = [];
      // Several output chunks each (the server publishes a running command's output as it comes).
      for (const name of ['one', 'two', 'three']) {
        const command = await client.bash.start(
          `for i in 1 2 3; do echo ${name}-$i; sleep 0.3; done; echo ${name}-err >&2`,
        );
        commands.push(command.id);
      }
      await until(() => commands.every((id) => finished(received, id)), 30_000, 'every exit code');
      const ids = new Set(commands);
      const expected = await restLogHolding(client, ids, received);
      live.close();
      expect(await followed.ended).toBeUndefined();
      const mine = received.filter((event) => ids.has(commandOf(event)));
      expect(new Set(mine.map((event) => event.id)).size).toBe(mine.length);
      expect(mine.map(describeEvent)).toEqual(restOrder(expected).map(describeEvent));
      expect(mine.filter((event) => event.kind === 'BashCommand')).toHaveLength(3);
      expect(mine.filter((event) => event.kind === 'BashOutput').length).toBeGreaterThanOrEqual(3);
      expect(errors).toEqual([]);
      counts.push(`${version} live: ${mine.length} events`);
    }, 60_000);

    it.skipIf(!firstMessageAuth(version))(
      'the server reads the auth frame late: a command stored before it subscribed comes first, in REST order',
      async () => {
        const late = lateAuthWebSocket(500);
        const live = client.bash.live({ WebSocket: late.WebSocket });
        const followed = follow(live);
        const { received, errors } = followed;
        await live.ready;
        await until(() => live.phase === 'live', 5_000, 'the catch-up made at open');
        const early = await client.bash.start('echo before-the-subscription');
        await until(
          async () => (await restLog(client, new Set([early.id]))).length >= 2,
          10_000,
          'the early command stored',
        );
        await late.authSent;
        const after = await client.bash.start('echo after-it');
        const commands = [early.id, after.id];
        await until(() => commands.every((id) => finished(received, id)), 30_000, 'both exit codes');
        const ids = new Set(commands);
        const expected = await restLogHolding(client, ids, received);
        live.close();
        expect(await followed.ended).toBeUndefined();
        const mine = received.filter((event) => ids.has(commandOf(event)));
        expect(mine.map(describeEvent)).toEqual(restOrder(expected).map(describeEvent));
        expect(errors).toEqual([]);
      },
      60_000,
    );

    it('killed and restarted mid-command: every stored event of the commands once, in REST order', async () => {
      const live = client.bash.live({
        history: true,
        reconnect: { initialDelay: 100, maxDelay: 1000, giveUpAfter: 120_000, leaseTimeout: 120_000 },
      });
      const followed = follow(live);
      const { received, errors } = followed;
      await live.ready;
      const commands: string[] = [];
      // Quick commands, one with output over the server's 1 MiB chunk size (three BashOutputs), then one still
      // running when the server is killed: its BashCommand is stored, its output never will be.
      for (const command of ['echo one', 'head -c 2500000 /dev/zero | tr "\\0" a', 'echo two >&2']) {
        const started = await client.bash.start(command);
        commands.push(started.id);
        await until(() => finished(received, started.id), 30_000, `the exit code of ${command}`);
      }
      const running = await client.bash.start('sleep 60');
      commands.push(running.id);
      await until(() => received.some((event) => event.id === running.id), 30_000, 'the running command');
      await server.kill();
      await server.restart();
      // Started at once: the stream may still be reconnecting (then its REST catch-up reads them).
      for (const command of ['echo after-one', 'echo after-two'])
        commands.push((await client.bash.start(command)).id);
      await until(
        () => commands.slice(-2).every((id) => finished(received, id)),
        60_000,
        "the restarted server's commands",
      );
      const ids = new Set(commands);
      const expected = await restLogHolding(client, ids, received);
      live.close();
      expect(await followed.ended).toBeUndefined();
      expect(followed.reconnects).toBeGreaterThan(0);
      const mine = received.filter((event) => ids.has(commandOf(event)));
      expect(new Set(mine.map((event) => event.id)).size).toBe(mine.length);
      expect(mine.map(describeEvent)).toEqual(restOrder(expected).map(describeEvent));
      expect(mine.filter((event) => event.kind === 'BashCommand').map((event) => event.id)).toEqual(commands);
      expect(mine.filter((event) => event.kind === 'BashOutput').length).toBeGreaterThanOrEqual(7);
      expect(errors).toEqual([]);
      counts.push(`${version} restart: ${mine.length} events, ${followed.reconnects} reconnects`);
    }, 180_000);
  });
}
