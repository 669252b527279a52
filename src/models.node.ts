// Node entry of `agent-platform-sdk/models` (package.json `node` condition): compiled event parsers, as in
// `index.node.ts`.
import { compile } from 'zod/mini';
import { enableCompiledParsers } from './models/parse.js';

enableCompiledParsers(compile);

export * from './models.js';
