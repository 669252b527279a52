// Node entry of `agent-platform-sdk` (package.json `node` condition). Event validators are compiled at build
// time and imported by the parsers themselves (docs/performance.md): nothing is switched on here any more.
export * from './index.js';
