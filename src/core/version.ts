// The package's version, as openai-node keeps it: a constant that a test holds equal to package.json's
// `version` (test/core/version.test.ts), so bundles and CLIs know it without reading files.
export const VERSION = '0.1.0';
