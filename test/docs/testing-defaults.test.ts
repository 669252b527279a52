// Issue 33, item 7: the options table of docs/testing.md gives the simulator's defaults as the code has them.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { SIMULATOR_AGENT_SERVER_VERSION } from '../../src/testing/simulator.js';

it("docs/testing.md's agentServerVersion default is the simulator's", () => {
  const doc = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');
  const row = doc.split('\n').find((line) => line.startsWith('| `agentServerVersion` |'));
  expect(row).toBeDefined();
  const documented = /^\| `agentServerVersion` \| `([^`]+)`/.exec(row as string)?.[1];
  expect(documented).toBe(SIMULATOR_AGENT_SERVER_VERSION);
});
