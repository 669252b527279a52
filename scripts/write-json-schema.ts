// Writes docs/event-model.schema.json: the JSON Schema of the strict event model (z.toJSONSchema), for users of
// other languages. Run with Node 24 (which strips TypeScript types): `npm run docs:schema` (`node scripts/write-json-schema.ts`).
// `--check` exits 1 when the file is out of date instead of writing it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { fileURLToPath } from 'node:url';

// The sources import siblings as `./x.js` (TypeScript's NodeNext convention); map those to the `.ts` files.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
      const url = new URL(`${specifier.slice(0, -3)}.ts`, context.parentURL);
      if (existsSync(fileURLToPath(url))) return nextResolve(url.href, context);
    }
    return nextResolve(specifier, context);
  },
});

const { eventModelJsonSchema } = await import('../src/models/json-schema.js');
const target = fileURLToPath(new URL('../docs/event-model.schema.json', import.meta.url));
const text = `${JSON.stringify(eventModelJsonSchema(), null, 2)}\n`;

if (process.argv.includes('--check')) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== text) {
    console.error(`${target} is out of date: run node scripts/write-json-schema.ts`);
    process.exit(1);
  }
  console.log(`${target} is up to date`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${target} (${text.length} bytes)`);
}
