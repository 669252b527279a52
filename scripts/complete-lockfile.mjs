// Adds lockfile entries for platform-specific optional packages that npm left out.
//
// Why: the package registry these machines reach lacks some platform builds (e.g. @biomejs/cli-android-arm64,
// several @rollup/rollup-* of the pinned version). `npm install` then silently leaves them out of
// package-lock.json, and `npm ci` refuses the lockfile as "not in sync". Entries with the package's os/cpu/libc
// let `npm ci` validate the lockfile and skip them on platforms they are not for, without fetching anything.
// Run after every `npm install` that changes package-lock.json.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORM =
  /(android|darwin|freebsd|linux|openbsd|openharmony|win32|sunos|netbsd|aix)-(arm64|arm|x64|ia32|loong64|ppc64|riscv64|s390x|mips64el)(?:-(gnu|musl|msvc|gnueabihf|musleabihf|eabi))?/;

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
const added = [];
for (const meta of Object.values(packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key]) continue;
    const match = PLATFORM.exec(name);
    if (!match) {
      console.warn(`not a platform package, left alone: ${name}@${version}`);
      continue;
    }
    const [, os, cpu, abi] = match;
    const libc = abi?.startsWith('musl') ? ['musl'] : abi?.startsWith('gnu') ? ['glibc'] : undefined;
    packages[key] = {
      version,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      cpu: [cpu],
      ...(libc ? { libc } : {}),
    };
    added.push(`${name}@${version}`);
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(path, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
console.log(
  added.length ? `added ${added.length} entries: ${added.join(', ')}` : 'lockfile already complete',
);
