// Headless Firefox driven over WebDriver BiDi, for the runtime smoke suite (scripts/test-runtimes.mjs).
// Playwright 1.65's BiDi Firefox cannot open a page in Debian's firefox-esr 153 (it sends
// `emulation.setMediaFeaturesOverride`, which that Firefox does not know), so this speaks the few BiDi commands
// needed itself: session.new, browsingContext.getTree / navigate, script.evaluate.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export function firefoxMissing() {
  if (existsSync(FIREFOX_PATH)) return undefined;
  const reason = `no Firefox at ${FIREFOX_PATH} (install Debian's firefox-esr or set FIREFOX_PATH)`;
  if (process.env.CI === 'true') throw new Error(`the Firefox cells cannot be skipped under CI: ${reason}`);
  return reason;
}

async function startFirefox(profile) {
  const child = spawn(
    FIREFOX_PATH,
    ['--headless', '--no-remote', '--remote-debugging-port=0', '--profile', profile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`Firefox did not start BiDi: ${output.slice(-500)}`)),
      60_000,
    );
    const read = (chunk) => {
      output += chunk;
      const found = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`Firefox exited ${code}: ${output.slice(-500)}`)));
  });
  return { child, url };
}

/** A BiDi session: `send(method, params)` resolves with the command's result or rejects with its error. */
async function connect(url) {
  const socket = new WebSocket(`${url}/session`);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve);
    socket.addEventListener('error', () => reject(new Error(`BiDi socket ${url} refused`)));
  });
  let next = 0;
  const pending = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.type === 'error') waiter.reject(new Error(`${message.error}: ${message.message}`));
    else waiter.resolve(message.result);
  });
  const send = (method, params) =>
    new Promise((resolve, reject) => {
      next += 1;
      pending.set(next, { resolve, reject });
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  await send('session.new', { capabilities: {} });
  return { send, close: () => socket.close() };
}

/** Opens `pageUrl`, waits for `fn` to exist in it, and resolves with `fn(argument)` (JSON round trip). */
export async function inFirefoxPage(pageUrl, fn, argument) {
  const profile = mkdtempSync(join(tmpdir(), 'runtime-smoke-firefox-'));
  const { child, url } = await startFirefox(profile);
  let session;
  try {
    session = await connect(url);
    const tree = await session.send('browsingContext.getTree', {});
    const context = tree.contexts[0].context;
    await session.send('browsingContext.navigate', { context, url: pageUrl, wait: 'complete' });
    const evaluate = async (expression) => {
      const result = await session.send('script.evaluate', {
        expression,
        target: { context },
        awaitPromise: true,
      });
      if (result.type === 'exception') throw new Error(`in the page: ${result.exceptionDetails?.text}`);
      return result.result.value;
    };
    const until = Date.now() + 30_000;
    while (!(await evaluate(`typeof globalThis[${JSON.stringify(fn)}] === 'function'`))) {
      if (Date.now() > until) throw new Error('the page did not load the smoke suite');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const text = await evaluate(
      `globalThis[${JSON.stringify(fn)}](${JSON.stringify(argument)}).then(JSON.stringify)`,
    );
    return JSON.parse(text);
  } finally {
    session?.close();
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    rmSync(profile, { recursive: true, force: true });
  }
}
