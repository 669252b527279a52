#!/usr/bin/env node
/**
 * Runs a command beside CPU-bound processes, the way a busy machine runs it (issue 31: the unit suite passes
 * on a busy machine). `.ci/run` runs the unit suite this way after `npm test`; on CI's 2 cores two burners
 * roughly double the load. Prints the wall time and the load average, exits with the command's code.
 *
 *   node scripts/cpu-burners.mjs [--burners N] -- <command> [args…]
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? [] : argv.slice(0, dashes);
const command = dashes === -1 ? argv : argv.slice(dashes + 1);
const flag = own.indexOf('--burners');
const count = flag === -1 ? 2 : Number(own[flag + 1]);
if (command.length === 0 || !Number.isInteger(count) || count < 0) {
  console.error('usage: node scripts/cpu-burners.mjs [--burners N] -- <command> [args…]');
  process.exit(2);
}

const burners = Array.from({ length: count }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopBurners = () => {
  for (const burner of burners) burner.kill('SIGKILL');
};
process.on('exit', stopBurners);

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const started = Date.now();
console.error(`cpu-burners: ${count} CPU-bound processes beside: ${command.join(' ')}`);
const child = spawn(command[0], command.slice(1), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  const loadAtEnd = load();
  stopBurners();
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.error(
    `cpu-burners: exit ${code ?? signal} after ${seconds} s beside ${count} burners (load average at the end: ${loadAtEnd})`,
  );
  process.exit(code ?? 1);
});
