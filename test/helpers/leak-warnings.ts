import { afterAll } from 'vitest';

/**
 * Setup file of the unit tests (vitest.config.ts): a MaxListenersExceededWarning ("possible memory leak") in a
 * test file fails that file, with the warning's stack, which names where the eleventh listener was added. Node
 * only prints the warning, so a leak used to pass unnoticed in a green run (issue 26).
 */
const warnings: Error[] = [];
const kInstalled = Symbol.for('agent-platform-sdk.test.leak-warnings');
const scope = globalThis as { [kInstalled]?: Error[] };
if (!scope[kInstalled]) {
  scope[kInstalled] = warnings;
  process.on('warning', (warning) => {
    if (warning.name === 'MaxListenersExceededWarning') scope[kInstalled]?.push(warning);
  });
}

afterAll(() => {
  const seen = scope[kInstalled] ?? [];
  if (seen.length === 0) return;
  const stacks = seen.map((warning) => warning.stack ?? String(warning)).join('\n\n');
  seen.length = 0;
  throw new Error(`MaxListenersExceededWarning in this test file: a listener leaks.\n\n${stacks}`);
});
