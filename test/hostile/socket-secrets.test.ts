/**
 * Issue 18 item 7 over the event socket: a hostile server echoes the session key back in close reasons, in
 * frames that break the event model, in `error` envelopes and in ServerErrorEvents. None of it reaches an
 * error, a `reconnecting` or `close` report, or a log line.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CloseInfo, ReconnectInfo } from '../../src/agent-server/index.js';
import { EventsClient } from '../../src/agent-server/index.js';
import { fast, fullState, ID, legacyServer, until } from './subscriber-server.js';

const KEY = 'PLANTED-socket-session-key-5e1d0b';

function recorded() {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  return { lines, logger: { debug: log, info: log, warn: log, error: log } };
}

const shown = (value: unknown) =>
  [
    JSON.stringify(value),
    inspect(value, { depth: 10, showHidden: true }),
    String((value as Error)?.stack),
  ].join('\n');

describe('the session key echoed over the socket', () => {
  it('is in no error, report or log line: close reasons, bad frames, error envelopes, ServerErrorEvents', async () => {
    const server = await legacyServer((socket, connection) => {
      socket.send(fullState());
      // A frame that is not JSON, one that breaks the event model, both echoing the key (raw and escaped).
      socket.send(`not json ${KEY}`);
      socket.send(JSON.stringify({ kind: 'MessageEvent', id: 1, source: KEY, note: `"${KEY}"` }));
      socket.send(
        JSON.stringify({
          kind: 'ServerErrorEvent',
          id: `server-error-${connection}`,
          timestamp: '2026-11-24T10:00:00',
          source: 'environment',
          code: 'echo',
          detail: `rejected key ${KEY}`,
        }),
      );
      setTimeout(() => socket.close(1011, `bad key ${KEY}`.slice(0, 120)), 20);
    });
    const { lines, logger } = recorded();
    const client = new EventsClient({
      baseUrl: server.url,
      sessionApiKey: KEY,
      logger,
      logLevel: 'debug',
      maxRetries: 0,
    });
    // No short giveUpAfter: it also bounds the first connection, and a busy machine may take longer (issue 31).
    const sub = client.subscribe(ID, { reconnect: fast });
    const errors: unknown[] = [];
    const reports: (ReconnectInfo | CloseInfo)[] = [];
    sub.on('error', (error) => errors.push(error));
    sub.on('reconnecting', (info) => reports.push(info));
    sub.on('close', (info) => reports.push(info));
    await until(
      () => reports.some((info) => 'closeReason' in info && info.closeReason !== undefined),
      'a close reason',
    );
    sub.close();
    expect(errors.length).toBeGreaterThanOrEqual(2);
    const everything = [...errors, ...reports].map(shown).join('\n') + lines.join('\n');
    expect(everything).toContain('[redacted]');
    expect(everything).not.toContain(KEY);
  });
});
