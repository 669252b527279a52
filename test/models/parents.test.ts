import { describe, expect, it } from 'vitest';
import { parentChain, parentOf } from '../../src/models/index.js';

const events = [
  { id: 'root' },
  { id: 'a', parent_id: 'root' },
  { id: 'b', parent_id: 'a' },
  { id: 'c', parent_id: 'missing' },
  { id: 'x', parent_id: 'y' },
  { id: 'y', parent_id: 'x' },
];

describe('parentOf / parentChain', () => {
  it('follows parent_id nearest first, from an array, a Map or a lookup function', () => {
    expect(parentChain(events[2] as (typeof events)[number], events).map((e) => e.id)).toEqual(['a', 'root']);
    const byId = new Map(events.map((e) => [e.id, e]));
    expect(parentChain({ id: 'b', parent_id: 'a' }, byId).map((e) => e.id)).toEqual(['a', 'root']);
    expect(parentOf({ id: 'b', parent_id: 'a' }, (id) => byId.get(id))?.id).toBe('a');
  });

  it('stops at a root, at a parent not held, and at a cycle', () => {
    expect(parentChain({ id: 'root' }, events)).toEqual([]);
    expect(parentChain({ id: 'n', parent_id: null }, events)).toEqual([]);
    expect(parentChain({ id: 'c', parent_id: 'missing' }, events)).toEqual([]);
    expect(parentChain({ id: 'x', parent_id: 'y' }, events).map((e) => e.id)).toEqual(['y']);
    expect(parentOf({ id: 'c', parent_id: 'missing' }, events)).toBeUndefined();
  });
});
