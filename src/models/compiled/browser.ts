/**
 * What browser bundles get instead of validators.ts (package.json `browser` field): no build-time validators,
 * so events are checked by zod's runtime parser, with the same results. The generated validators are about
 * 350 kB minified (50 kB gzip), more than the whole browser bundle budget (docs/performance.md).
 */
export const compiledParsers: ReadonlyMap<unknown, (input: unknown) => unknown> = new Map();
