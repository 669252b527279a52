/**
 * The view a component holds, closed a microtask after the component lets it go unless it takes the same one
 * back first. React 19's StrictMode runs every effect twice in development (mount, clean up, mount again, in
 * one go): closing at once would open a second view and fetch the newest page twice; deferring the close
 * lets the second mount take back the view the first one opened. A different key (another conversation)
 * closes the old view at once and opens a new one.
 */
export class ViewLease<View extends { close(): void }> {
  #held: { key: readonly unknown[]; view: View; releasing: boolean } | undefined;

  /** The view for `key`: the one held if its key is the same, else a new one from `open`. */
  acquire(key: readonly unknown[], open: () => View): View {
    const held = this.#held;
    if (held && sameKey(held.key, key)) {
      held.releasing = false;
      return held.view;
    }
    this.#held = undefined;
    held?.view.close();
    const view = open();
    this.#held = { key, view, releasing: false };
    return view;
  }

  /** Closes `view` after the current task's microtasks, unless `acquire` takes it back before. */
  release(view: View): void {
    const held = this.#held;
    if (held?.view !== view) return;
    held.releasing = true;
    queueMicrotask(() => {
      if (this.#held !== held || !held.releasing) return;
      this.#held = undefined;
      held.view.close();
    });
  }
}

/** Same parts, compared with `Object.is`, as React compares dependencies. */
export function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((part, index) => Object.is(part, b[index]));
}
