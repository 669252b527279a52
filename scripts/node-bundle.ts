// `npm run build` step: the package's Node entries as one ESM bundle, dist/node/ (see build/node-bundle.ts).
import { join } from 'node:path';

// Node runs this file's types stripped; the hook maps `../build/node-bundle.js` to its `.ts` source.
const hooks = '../bench/_ts-sources.ts';
await import(hooks);
const { buildNodeBundle } = (await import(
  '../build/node-bundle.js'
)) as typeof import('../build/node-bundle.js');

const root = join(import.meta.dirname, '..');
await buildNodeBundle(join(root, 'src'), join(root, 'dist', 'node'), { sourcemap: true });
