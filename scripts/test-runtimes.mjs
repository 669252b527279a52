// The runtime smoke suite of `npm test` (after the package checks; docs/runtimes.md): the packed package,
// installed into a scratch app as a user installs it, runs test/runtimes/smoke.ts on Node 22, Node 24, Bun,
// Deno (only --allow-net --allow-read), workerd through miniflare (with and without nodejs_compat), headless
// Chromium and headless Firefox (over WebDriver BiDi, scripts/firefox-bidi.mjs), each against the simulator as
// 1.58.2 and as 1.15.0 (before the session socket and first-message auth). One line per cell; any red cell fails the run. A browser missing skips its cells with one line, never
// under CI=true.
//
//   node scripts/test-runtimes.mjs [--only node22,deno] [--versions 1.58.2] [--keep] [--verbose]
//   (--verbose prints every check of every cell with what it found: the auth each socket used, …)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromiumUnavailable, launchChromium } from '../test/browser/chromium.ts';
import { firefoxMissing, inFirefoxPage } from './firefox-bidi.mjs';
import { installPacked, nodeBinary } from './lib/packed-app.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index < 0 ? undefined : args[index + 1]?.split(',');
};
const only = option('--only');
const versions = option('--versions') ?? ['1.58.2', '1.15.0'];
const keep = args.includes('--keep');
const verbose = args.includes('--verbose');
const CELL_TIMEOUT_MS = 90_000;

async function closedPort() {
  const server = createNetServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** The packed tarball installed into a scratch app, with the smoke suite and its hosts next to it. */
async function prepareApp(work) {
  const app = installPacked(work, { manifest: { name: 'runtime-smoke', type: 'module' } });
  // Each host with the smoke suite in one module whose SDK imports are the installed package's.
  const asPackage = {
    name: 'sdk-as-package',
    setup(plugin) {
      plugin.onResolve({ filter: /\/src\/(index|models|tracing)\.js$/ }, (found) => {
        const entry = /\/src\/(index|models|tracing)\.js$/.exec(found.path)[1];
        return {
          path: entry === 'index' ? 'agent-platform-sdk' : `agent-platform-sdk/${entry}`,
          external: true,
        };
      });
    },
  };
  for (const name of ['cli-host', 'worker-host', 'browser-host']) {
    await build({
      entryPoints: [join(root, 'test/runtimes', `${name}.ts`)],
      outfile: join(app, `${name}.js`),
      format: 'esm',
      bundle: true,
      plugins: [asPackage],
      logLevel: 'error',
    });
  }
  // Workers and pages get one file, as an app's bundler makes it, from the installed package.
  const bundle = async (entry, platform, conditions) =>
    (
      await build({
        entryPoints: [join(app, entry)],
        bundle: true,
        format: 'esm',
        platform,
        conditions,
        target: 'es2022',
        write: false,
        logLevel: 'error',
        absWorkingDir: app,
      })
    ).outputFiles[0].text;
  return {
    app,
    worker: await bundle('worker-host.js', 'browser', ['workerd', 'worker', 'browser']),
    page: await bundle('browser-host.js', 'browser', ['browser']),
  };
}

/** Runs a command, resolves with its stdout; rejects with its output on a non-zero exit or a timeout. */
function runProcess(command, commandArgs, cwd) {
  return new Promise((done, fail) => {
    const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CELL_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done(stdout);
      else fail(new Error(`exit ${code ?? signal}: ${(stderr || stdout).trim().slice(-2000)}`));
    });
  });
}

function checksFrom(stdout) {
  const line = stdout.trim().split('\n').at(-1);
  return JSON.parse(line);
}

const cliRuntime = (label, command, prefix) => ({
  label,
  run: async ({ app }, config) =>
    checksFrom(await runProcess(command, [...prefix, join(app, 'cli-host.js'), JSON.stringify(config)], app)),
});

async function workerdCell({ worker }, config, compatibilityFlags) {
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({
    modules: true,
    script: worker,
    compatibilityDate: '2026-07-01',
    compatibilityFlags,
  });
  try {
    const response = await mf.dispatchFetch('http://smoke.local/', {
      method: 'POST',
      body: JSON.stringify(config),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`worker answered ${response.status}: ${text.slice(0, 2000)}`);
    return JSON.parse(text);
  } finally {
    await mf.dispose();
  }
}

/**
 * Serves the page on its own loopback port (the agent server is another origin, as for a real app) and calls
 * `fn(argument)` in it: a function of browser-host.ts (`runSmoke`, `probeCors`). `host` names the page's
 * origin: Chromium resolves it to 127.0.0.1, so a page can be on a non-loopback origin.
 */
export async function inChromiumPage({ page: script }, fn, argument, host = '127.0.0.1') {
  const server = await servePage(script);
  const { context, close } = await launchChromium(
    host === '127.0.0.1' ? [] : [`--host-resolver-rules=MAP ${host} 127.0.0.1`],
  );
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const errors = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`http://${host}:${server.address().port}/`);
    await page
      .waitForFunction((name) => name in globalThis, fn, { timeout: 30_000 })
      .catch(() => {
        throw new Error(`the page did not load the smoke suite: ${errors.join('; ')}`);
      });
    return await page.evaluate(([name, value]) => globalThis[name](value), [fn, argument]);
  } finally {
    await close();
    server.close();
  }
}

const chromiumCell = (built, config) => inChromiumPage(built, 'runSmoke', config);

/** The page and its one script on a loopback port of its own. */
async function servePage(script) {
  const html = '<!doctype html><meta charset="utf-8"><script type="module" src="/smoke.js"></script>';
  const server = createServer((request, response) => {
    if (request.url === '/smoke.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

async function firefoxCell({ page: script }, config) {
  const server = await servePage(script);
  try {
    return await inFirefoxPage(`http://127.0.0.1:${server.address().port}/`, 'runSmoke', config);
  } finally {
    server.close();
  }
}

export const chromiumMissing = chromiumUnavailable;

export const RUNTIMES = [
  cliRuntime('node24', process.execPath, []),
  { label: 'node22', lazy: () => cliRuntime('node22', nodeBinary('22'), []) },
  cliRuntime('bun', join(root, 'node_modules/.bin/bun'), ['run']),
  cliRuntime('deno', join(root, 'node_modules/.bin/deno'), ['run', '--allow-net', '--allow-read']),
  { label: 'workerd', run: (built, config) => workerdCell(built, config, []) },
  { label: 'workerd+nodejs_compat', run: (built, config) => workerdCell(built, config, ['nodejs_compat']) },
  { label: 'chromium', skip: chromiumMissing, run: chromiumCell },
  { label: 'firefox', skip: firefoxMissing, run: firefoxCell },
];

/** The simulator's part of the configuration (the agent server's, the runtime API's and the gateway's). */
function simulatorConfig(info, port) {
  return {
    agentServer: {
      url: info.agentServer.url,
      sessionApiKey: info.agentServer.sessionApiKey,
      version: info.agentServer.version,
    },
    conversation: {
      agent: { llm: { model: 'claude-sonnet-4-5' } },
      workspace: { working_dir: 'workspace/smoke' },
    },
    closedPort: port,
    runtimeApi: { url: info.runtimeApi.url, adminPassword: info.runtimeApi.adminPassword },
    gateway: { url: info.gateway.url, masterKey: info.gateway.masterKey },
    tracingEnv: info.tracing.env,
  };
}

/** Runs one cell; resolves with its line and whether it was green. */
export async function runCell(runtime, built, config, label) {
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  try {
    const checks = await runtime.run(built, config);
    const failed = checks.filter((check) => !check.ok);
    if (failed.length === 0)
      return { ok: true, line: `✔ ${label}: ${checks.length} checks (${seconds()})`, checks };
    const detail = failed.map((check) => `    ✘ ${check.name}: ${check.detail}`).join('\n');
    return {
      ok: false,
      line: `✘ ${label}: ${failed.length} of ${checks.length} checks failed (${seconds()})\n${detail}`,
      checks,
    };
  } catch (error) {
    return {
      ok: false,
      line: `✘ ${label}: ${error instanceof Error ? error.message : String(error)} (${seconds()})`,
    };
  }
}

async function main() {
  const started = performance.now();
  const { startSimulator } = await import('agent-platform-sdk/testing');
  const work = mkdtempSync(join(tmpdir(), 'runtime-smoke-'));
  let red = 0;
  try {
    console.log('• runtime smoke: packing and installing the package');
    const built = await prepareApp(work);
    const runtimes = RUNTIMES.filter((runtime) => !only || only.includes(runtime.label));
    for (const version of versions) {
      const sim = await startSimulator({ mode: 'loopback', agentServerVersion: version });
      try {
        const config = simulatorConfig(sim.info, await closedPort());
        for (const entry of runtimes) {
          const label = `${entry.label.padEnd(22)} simulator ${version}`;
          const skipped = entry.skip?.();
          if (skipped) {
            console.log(`- ${label}: skipped, ${skipped}`);
            continue;
          }
          const runtime = entry.lazy ? entry.lazy() : entry;
          const result = await runCell(runtime, built, config, label);
          if (!result.ok) red += 1;
          console.log(result.line);
          if (verbose && result.ok)
            for (const check of result.checks) console.log(`    ${check.name}: ${check.detail}`);
        }
      } finally {
        await sim.close();
      }
    }
  } finally {
    if (keep) console.log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  const wall = ((performance.now() - started) / 1000).toFixed(0);
  if (red > 0) {
    console.error(`runtime smoke: ${red} red cell(s) (${wall} s)`);
    process.exit(1);
  }
  console.log(`runtime smoke: every cell green (${wall} s)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();

export { prepareApp, simulatorConfig };
