// A fresh process of bench/import.ts: prints how long `import(<specifier or path>)` takes, in milliseconds.
// Plain JavaScript, so that nothing but the import is timed.
const target = process.argv[2];
const started = performance.now();
const module = await import(target);
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ ms, exports: Object.keys(module).length })}\n`);
