/**
 * Timers the SDK itself holds, for tests that say "ending leaves nothing behind". Counting every timer in the
 * process (`process.getActiveResourcesInfo()`) also counts the servers' and other tests' timers, which end
 * when a busy machine gets to them (issue 31); this counts only the timers whose `setTimeout`/`setInterval`
 * was called from the SDK's own code (`src/`, not its doubles under `src/testing/`), and forgets each one when
 * it fires or is cleared. Call `stop()` when done.
 */
const SDK_CALLER = /[\\/]src[\\/](?!testing[\\/])/;

export interface SdkTimers {
  /** SDK timers still pending. */
  alive(): number;
  stop(): void;
}

export function trackSdkTimers(): SdkTimers {
  const original = {
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval,
    clearInterval: globalThis.clearInterval,
  };
  const pending = new Set<unknown>();
  // Lines of the stack: "Error", this function, the wrapper below, then whoever called setTimeout.
  const calledFromSdk = () => SDK_CALLER.test(new Error().stack?.split('\n')[3] ?? '');

  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const fromSdk = calledFromSdk();
    const handle = original.setTimeout(
      (...callArgs: unknown[]) => {
        pending.delete(handle);
        callback(...callArgs);
      },
      ms,
      ...args,
    );
    if (fromSdk) pending.add(handle);
    return handle;
  }) as typeof setTimeout;
  globalThis.setInterval = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const handle = original.setInterval(callback, ms, ...args);
    if (calledFromSdk()) pending.add(handle);
    return handle;
  }) as typeof setInterval;
  globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
    pending.delete(handle);
    original.clearTimeout(handle);
  }) as typeof clearTimeout;
  globalThis.clearInterval = ((handle: Parameters<typeof clearInterval>[0]) => {
    pending.delete(handle);
    original.clearInterval(handle);
  }) as typeof clearInterval;

  return {
    alive: () => pending.size,
    stop: () => Object.assign(globalThis, original),
  };
}
