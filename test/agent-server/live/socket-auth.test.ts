import { describe, expect, it } from 'vitest';
import { authFrame, authQuery, resolveAuth } from '../../../src/agent-server/live/socket-auth.js';

describe('socket auth choice', () => {
  it.each([
    ['1.11.4', true, 'query'],
    ['1.12.0', true, 'header'],
    ['1.12.0', false, 'query'],
    ['1.18.0', true, 'header'],
    ['1.18.1', false, 'first-message'],
    ['1.40.0', true, 'first-message'],
    [undefined, true, 'first-message'],
    ['nightly', false, 'first-message'],
  ])('auto on %s (runtime sends headers: %s) → %s', (version, headers, expected) => {
    expect(resolveAuth('auto', version, true, headers)).toBe(expected);
  });

  it('an unknown version moves on after each refused method; the key goes into the URL last', () => {
    const order = (headers: boolean) =>
      [0, 1, 2, 3].map((refused) => resolveAuth('auto', undefined, true, headers, refused));
    expect(order(true)).toEqual(['first-message', 'header', 'query', 'query']);
    expect(order(false)).toEqual(['first-message', 'query', 'query', 'query']);
    // A known version never moves on.
    expect(resolveAuth('auto', '1.40.0', true, true, 2)).toBe('first-message');
  });

  it('no key means no auth', () => {
    expect(resolveAuth('first-message', '1.11.4', false, true)).toBe('none');
  });

  it('the key goes into the URL with query auth only', () => {
    expect(authQuery('query', 'k-1')).toEqual({ session_api_key: 'k-1' });
    for (const auth of ['first-message', 'header', 'none'] as const)
      expect(authQuery(auth, 'k-1')).toEqual({});
    expect(authQuery('query', undefined)).toEqual({});
    expect(JSON.parse(authFrame('k-1'))).toEqual({ type: 'auth', session_api_key: 'k-1' });
  });
});
