/**
 * The one way a unit test waits for something to happen: poll `condition` until it holds. The bound is not
 * a deadline the code under test must meet, only what ends a test that would otherwise hang, so it is far
 * above what any step takes on a busy machine (issue 31: the suite passes beside two CPU burners) and below
 * the suite's 20 s test timeout, so that a hung test fails naming what it waited for.
 */
export const HUNG_AFTER_MS = 15_000;

export async function waitFor(
  condition: () => boolean,
  what = 'condition',
  bound = HUNG_AFTER_MS,
): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > bound) throw new Error(`timed out waiting for ${what} (${bound} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
