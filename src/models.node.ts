// Node entry of `agent-platform-sdk/models` (package.json `node` condition): the same as `models.ts` (see
// `index.node.ts`).
export * from './models.js';
