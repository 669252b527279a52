import { describe, expect, it } from 'vitest';
import { ViewLease } from '../../src/react/view-lease.js';

class Closable {
  closed = 0;
  close() {
    this.closed += 1;
  }
}

const microtasks = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('ViewLease', () => {
  it('keeps the view through a release and acquire of the same key in one task (StrictMode)', async () => {
    const lease = new ViewLease<Closable>();
    let opened = 0;
    const open = () => {
      opened += 1;
      return new Closable();
    };
    const first = lease.acquire(['client', 'c-1'], open);
    lease.release(first);
    const second = lease.acquire(['client', 'c-1'], open);
    await microtasks();
    expect(second).toBe(first);
    expect(opened).toBe(1);
    expect(first.closed).toBe(0);
  });

  it('closes a released view after the microtasks of the task', async () => {
    const lease = new ViewLease<Closable>();
    const view = lease.acquire(['c-1'], () => new Closable());
    lease.release(view);
    expect(view.closed).toBe(0);
    await microtasks();
    expect(view.closed).toBe(1);
    // Acquiring again afterwards opens a new one.
    const next = lease.acquire(['c-1'], () => new Closable());
    expect(next).not.toBe(view);
  });

  it('closes the old view at once when another key is acquired, and only once', async () => {
    const lease = new ViewLease<Closable>();
    const old = lease.acquire(['c-1'], () => new Closable());
    lease.release(old);
    const next = lease.acquire(['c-2'], () => new Closable());
    expect(old.closed).toBe(1);
    await microtasks();
    expect(old.closed).toBe(1);
    expect(next.closed).toBe(0);
  });

  it('ignores the release of a view it no longer holds', async () => {
    const lease = new ViewLease<Closable>();
    const old = lease.acquire(['c-1'], () => new Closable());
    const next = lease.acquire(['c-2'], () => new Closable());
    lease.release(old);
    await microtasks();
    expect(next.closed).toBe(0);
    expect(old.closed).toBe(1);
  });
});
