// Node entry of `agent-platform-sdk` (package.json `node` condition): the default entry with compiled event
// parsers. Bundle size does not matter on servers; browser bundles get `index.ts` without the compiler.
import { compile } from 'zod/mini';
import { enableCompiledParsers } from './models/parse.js';

enableCompiledParsers(compile);

export * from './index.js';
