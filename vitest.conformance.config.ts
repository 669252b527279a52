import { defineConfig } from 'vitest/config';

// The conformance suite runs against real servers (test/peers): one file at a time, since each starts
// Python processes and the machines have two cores.
export default defineConfig({
  test: {
    include: ['test/conformance/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
