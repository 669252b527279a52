/**
 * What browser bundles get instead of checks.ts (package.json `browser` field): no build-time predicates, so
 * every event is copied by zod's runtime parser, with equal results. The predicates are about 14 kB gzip,
 * more than is left of the browser bundle budget (docs/performance.md).
 */
export const identityChecks: Readonly<Record<string, (value: unknown) => boolean>> = {};
