// Shared by the examples: which platform to talk to.
//
// - Every variable an example requires is set: a real platform, from the environment. Steps that change
//   something (start a conversation, save a pool, add a model, save a profile, tag a conversation) run only
//   with EXAMPLES_WRITE=1; without it the example does its read-only part and says what it skipped.
// - None is set: a simulated platform started on loopback in this process (`startSimulator` from
//   agent-platform-sdk/testing; needs the msw and ws packages). Everything runs.
// - Some are set: an error naming the missing ones, so a typo never sends you to the simulator by accident.

/**
 * @param {string[]} required variables that select a real platform
 * @returns {Promise<{ simulated: boolean, writes: boolean, env: Record<string, string | undefined>,
 *   info?: import('agent-platform-sdk/testing').SimulatorInfo, close(): Promise<void> }>}
 */
export async function connect(required) {
  const missing = required.filter((name) => !process.env[name]);
  if (missing.length === 0) {
    const writes = process.env.EXAMPLES_WRITE === '1';
    console.log(
      `Real platform from the environment${writes ? '' : ' (read-only: set EXAMPLES_WRITE=1 to change it)'}.`,
    );
    return { simulated: false, writes, env: process.env, close: async () => {} };
  }
  if (missing.length < required.length) {
    throw new Error(
      `set all of ${required.join(', ')} for a real platform, or none of them for the simulator (missing: ${missing.join(', ')})`,
    );
  }
  const { startSimulator } = await import('agent-platform-sdk/testing');
  const sim = await startSimulator({ stepDelayMs: 20 });
  console.log(
    `No ${required[0]}: using a simulated platform on 127.0.0.1 (see examples/README.md for a real one).`,
  );
  return { simulated: true, writes: true, env: sim.env, info: sim.info, close: () => sim.close() };
}

/** Prints a step header. */
export function step(text) {
  console.log(`\n▸ ${text}`);
}

/** Prints that a step was skipped because the platform is real and writes are off. */
export function skipped(what) {
  console.log(`  skipped (read-only): ${what}`);
}
