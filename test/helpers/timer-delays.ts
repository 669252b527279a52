/**
 * The delay of every `setTimeout` the process schedules while recording: a test of a wait the SDK chooses
 * (a Retry-After, a cap) asserts the delay asked for, not how long a busy machine took to get there.
 */
export function recordTimerDelays(): { delays: number[]; stop: () => void } {
  const original = globalThis.setTimeout;
  const delays: number[] = [];
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    delays.push(ms ?? 0);
    return original(callback, ms, ...args);
  }) as typeof setTimeout;
  return {
    delays,
    stop: () => {
      globalThis.setTimeout = original;
    },
  };
}
