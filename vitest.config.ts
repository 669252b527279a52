import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // real servers: npm run test:conformance (vitest.conformance.config.ts)
    exclude: ['test/conformance/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // A MaxListenersExceededWarning fails the test file it happens in.
    setupFiles: ['test/helpers/leak-warnings.ts'],
  },
});
