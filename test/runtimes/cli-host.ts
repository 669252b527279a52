// The smoke suite's host in Node, Bun and Deno: the configuration as the first argument (Deno is run without
// `--allow-env`, so not from the environment), the checks as one JSON line on stdout.
import { type SmokeConfig, smoke } from './smoke.js';

interface Runtime {
  Deno?: { args: string[]; exit(code: number): never };
  process?: { argv: string[]; exit(code: number): never };
}
const runtime = globalThis as Runtime;
const argument = runtime.Deno ? runtime.Deno.args[0] : runtime.process?.argv[2];
const checks = await smoke(JSON.parse(argument ?? '{}') as SmokeConfig);
console.log(JSON.stringify(checks));
// A socket the runtime keeps in its pool must not hold the process open.
(runtime.Deno ?? runtime.process)?.exit(0);
