// Each protocol's socket URL, as its adapter builds it: the path and parameters the real servers take
// (test/conformance/ runs them against the servers of the matrix). The key's parameter comes from socket-auth.ts
// and goes last.
import { describe, expect, it } from 'vitest';
import { bashEventsSocketUrl } from '../../../src/agent-server/live/bash-events-adapter.js';
import { eventsSocketUrl } from '../../../src/agent-server/live/legacy-events-adapter.js';
import { sessionSocketUrl } from '../../../src/agent-server/live/session-adapter.js';

const KEY = { session_api_key: 'k&=?#/ +é' };

describe('socket URLs', () => {
  it('map http(s) to ws(s), keep a base path, add no /api prefix', () => {
    expect(eventsSocketUrl('https://host.example/runtime/abc/', 'c-1', {})).toBe(
      'wss://host.example/runtime/abc/sockets/events/c-1',
    );
    expect(sessionSocketUrl('http://127.0.0.1:8000', 'c-1', undefined, {})).toBe(
      'ws://127.0.0.1:8000/sockets/session/c-1',
    );
    expect(bashEventsSocketUrl('https://host.example/runtime/abc//', {})).toBe(
      'wss://host.example/runtime/abc/sockets/bash-events',
    );
  });

  it('/sockets/session/{id}: after_seq when replaying (-1: all), nothing when live only; the key last', () => {
    const base = 'http://h:8000';
    expect(sessionSocketUrl(base, 'a b/c', -1, {})).toBe(
      'ws://h:8000/sockets/session/a%20b%2Fc?after_seq=-1',
    );
    expect(sessionSocketUrl(base, 'c-1', 0, KEY)).toBe(
      'ws://h:8000/sockets/session/c-1?after_seq=0&session_api_key=k%26%3D%3F%23%2F+%2B%C3%A9',
    );
    expect(sessionSocketUrl(base, 'c-1', undefined, KEY)).toBe(
      'ws://h:8000/sockets/session/c-1?session_api_key=k%26%3D%3F%23%2F+%2B%C3%A9',
    );
  });

  it('/sockets/events/{id}: live frames only (no resend_mode, no resend_all), the key last', () => {
    const base = 'http://h:8000';
    expect(eventsSocketUrl(base, 'c-1', KEY)).toBe(
      'ws://h:8000/sockets/events/c-1?session_api_key=k%26%3D%3F%23%2F+%2B%C3%A9',
    );
    expect(eventsSocketUrl(base, 'a b/c', {})).toBe('ws://h:8000/sockets/events/a%20b%2Fc');
  });

  it('/sockets/bash-events: server-wide, live frames only (no resend_all)', () => {
    expect(bashEventsSocketUrl('http://h:8000', KEY)).toBe(
      'ws://h:8000/sockets/bash-events?session_api_key=k%26%3D%3F%23%2F+%2B%C3%A9',
    );
    expect(bashEventsSocketUrl('http://h:8000', {})).toBe('ws://h:8000/sockets/bash-events');
  });
});
