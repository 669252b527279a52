import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { HttpResponse, http } from 'msw/http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type LoopbackServer,
  RuntimeApiState,
  runtimeApiHandlers,
  serveHandlers,
} from '../../src/testing.js';

/**
 * The `warm-pools` CLI as a child process (built with esbuild from src/cli/warm-pools.ts, like the bin) against
 * the fake runtime API served on a real loopback port.
 */
const PASSWORD = "hunter2 'quoted' ünïcode";
const API_KEY = 'test-api-key';
const INSTALLER_IMAGE = 'ghcr.io/openhands/agent-server:1.46.0-python';

let work: string;
let cli: string;
let server: LoopbackServer;
let state: RuntimeApiState;
let handlers: ReturnType<typeof runtimeApiHandlers>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'warm-pools-cli-'));
  cli = join(work, 'warm-pools.mjs');
  await build({
    entryPoints: [new URL('../../src/cli/warm-pools.ts', import.meta.url).pathname],
    outfile: cli,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    logLevel: 'silent',
  });
  server = await serveHandlers(() => handlers);
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  state = new RuntimeApiState({ adminPassword: PASSWORD, iterations: 10_000 });
  handlers = runtimeApiHandlers({ state });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    RUNTIME_API_URL: server.url,
    ADMIN_PASSWORD: PASSWORD,
    API_KEY,
    NODE_NO_WARNINGS: '1',
    ...extra,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return env;
}

function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: options.env ?? baseEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // A command that exits before reading its stdin makes this write fail with EPIPE: expected, not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

const warmPools = (args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}) =>
  run(process.execPath, [cli, ...args], options);

/** Runs a shell script in which `wp` runs the CLI. */
const shell = (script: string, env: NodeJS.ProcessEnv = baseEnv()) =>
  run('sh', ['-c', `wp() { "$WP_NODE" "$WP_CLI" "$@"; }\n${script}`], {
    env: { ...env, WP_NODE: process.execPath, WP_CLI: cli },
  });

const body = (image: string, count = 1) =>
  JSON.stringify({
    image,
    working_dir: '/workspace/project',
    command: ['agent'],
    environment: { A: '1' },
    count,
  });

describe('the bin', () => {
  it('source and bundle start with the node shebang (tsup and esbuild keep it as the first line)', () => {
    const source = readFileSync(new URL('../../src/cli/warm-pools.ts', import.meta.url), 'utf8');
    expect(source.split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(readFileSync(cli, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  });
});

describe('help and usage', () => {
  it.each(['list', 'template', 'save', 'delete', 'bootstrap', 'check'])(
    '%s --help exits 0',
    async (command) => {
      const result = await warmPools([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`usage: warm-pools ${command}`);
    },
  );

  it.each([['--version'], ['-V'], ['version']])('%s prints the package version and exits 0', async (flag) => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const result = await warmPools([flag]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(`warm-pools ${manifest.version}`);
  });

  it('help <command> is <command> --help; help of an unknown command is a usage error', async () => {
    const help = await warmPools(['help', 'save']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await warmPools(['save', '--help'])).stdout);
    expect((await warmPools(['help', 'frobnicate'])).code).toBe(2);
  });

  it('--help lists every command and the exit codes', async () => {
    const result = await warmPools(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['list', 'template', 'save', 'delete', 'bootstrap'])
      expect(result.stdout).toContain(command);
    expect(result.stdout).toContain('exit codes');
  });

  it.each([
    [[]],
    [['frobnicate']],
    [['save']],
    [['template', 'v1_current', '--count', 'many']],
    [['list', '--nope']],
  ])('bad usage %j → exit 2', async (args) => {
    const result = await warmPools(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/usage:|error:/);
    expect(state.log).toHaveLength(0);
  });
});

describe('list', () => {
  it('prints the effective set as a JSON array (X-API-Key, no JWT)', async () => {
    const result = await warmPools(['list']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(state.effectiveConfigs());
    expect(result.stdout).toBe(`${JSON.stringify(state.effectiveConfigs(), null, 2)}\n`);
    expect(state.log).toEqual([
      { method: 'GET', path: '/api/warm-runtime-configs', status: 200, bearer: false, apiKey: true },
    ]);
  });

  it('without API_KEY logs in and uses the default key', async () => {
    const result = await warmPools(['list', '--json'], { env: baseEnv({ API_KEY: undefined }) });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((c: { name: string }) => c.name)).toEqual(['v1_current']);
    expect(state.log.map((e) => `${e.method} ${e.path} bearer=${e.bearer} apiKey=${e.apiKey}`)).toEqual([
      'GET /api/admin/challenge bearer=false apiKey=false',
      'POST /api/admin/login bearer=false apiKey=false',
      'GET /api/admin/api-keys bearer=true apiKey=false',
      'GET /api/warm-runtime-configs bearer=false apiKey=true',
    ]);
  });

  it('masks credential-like environment values unless --show-secrets', async () => {
    state.installer.get('v1_current')!.environment.LMNR_PROJECT_API_KEY = 'lmnr-ingest-secret';
    const masked = await warmPools(['list']);
    expect(masked.stdout).not.toContain('lmnr-ingest-secret');
    expect(JSON.parse(masked.stdout)[0].environment).toEqual({
      BASE: '1',
      LMNR_PROJECT_API_KEY: '[redacted]',
    });
    const shown = await warmPools(['list', '--show-secrets']);
    expect(JSON.parse(shown.stdout)[0].environment.LMNR_PROJECT_API_KEY).toBe('lmnr-ingest-secret');
  });

  it('RUNTIME_API_URL unset → exit 1 with a hint', async () => {
    const result = await warmPools(['list'], { env: baseEnv({ RUNTIME_API_URL: undefined }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('RUNTIME_API_URL is not set');
  });

  it('no API_KEY and no admin credentials → exit 1', async () => {
    const result = await warmPools(['list'], {
      env: baseEnv({ API_KEY: undefined, ADMIN_PASSWORD: undefined }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('API_KEY is not set');
  });

  it('a refused API key → exit 2 with the helper format', async () => {
    const result = await warmPools(['list'], { env: baseEnv({ API_KEY: 'wrong-key-value' }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'HTTP 401 GET /api/warm-runtime-configs: {"detail":"provide a valid API key"}',
    );
    expect(result.stderr).not.toContain('wrong-key-value');
  });

  it('under --json a failure is also a JSON object on stdout: type, message, exit code, status', async () => {
    const refused = await warmPools(['list', '--json'], { env: baseEnv({ API_KEY: 'wrong-key-value' }) });
    expect(refused.code).toBe(2);
    const { error } = JSON.parse(refused.stdout);
    expect(error).toMatchObject({ type: 'AuthenticationError', exitCode: 2, status: 401 });
    expect(error.message).toContain('HTTP 401 GET /api/warm-runtime-configs');
    expect(refused.stdout).not.toContain('wrong-key-value');

    const usage = await warmPools(['list', '--json', '--nope']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout).error).toMatchObject({ type: 'UsageError', exitCode: 2 });

    const unset = await warmPools(['list', '--json'], { env: baseEnv({ RUNTIME_API_URL: undefined }) });
    expect(unset.code).toBe(1);
    expect(JSON.parse(unset.stdout).error.message).toContain('RUNTIME_API_URL');
  });

  it('connection refused → exit 2 Could not connect', async () => {
    const result = await warmPools(['list'], { env: baseEnv({ RUNTIME_API_URL: 'http://127.0.0.1:9' }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Could not connect to http://127.0.0.1:9');
  });
});

describe('template and save', () => {
  it('template prints a body without name/source, image and count overridden', async () => {
    const result = await warmPools([
      'template',
      'v1_current',
      '--image',
      'ghcr.io/acme/php:8.4',
      '--count',
      '2',
    ]);
    expect(result.code).toBe(0);
    const derived = JSON.parse(result.stdout);
    expect(derived).toEqual({
      image: 'ghcr.io/acme/php:8.4',
      count: 2,
      command: ['/usr/local/bin/openhands-agent-server', '--port', '60000'],
      working_dir: '/workspace/project',
      environment: { BASE: '1' },
    });
    expect(result.stderr).toBe('');
  });

  it('template -o writes the file (with a final newline)', async () => {
    const file = join(work, 'php.json');
    const result = await warmPools(['template', 'v1_current', '--image', 'x:1', '--count', '0', '-o', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(text)).toMatchObject({ image: 'x:1', count: 0 });
  });

  it('template without --image notes rule 1 on stderr', async () => {
    const result = await warmPools(['template', 'v1_current']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('rule 1');
  });

  it('template of an unknown name → exit 1', async () => {
    const result = await warmPools(['template', 'nope', '--image', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No configuration named 'nope' in the effective set.");
  });

  it('template | save -f - creates the configuration', async () => {
    const result = await shell(
      'wp template v1_current --image ghcr.io/acme/php:8.4 --count 2 | wp save php-web -f -',
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Saved php-web image=ghcr.io/acme/php:8.4 count=2\n');
    expect(state.sourceOf('php-web')).toBe('db');
    expect(state.db.get('php-web')).toEqual({
      image: 'ghcr.io/acme/php:8.4',
      count: 2,
      command: ['/usr/local/bin/openhands-agent-server', '--port', '60000'],
      working_dir: '/workspace/project',
      environment: { BASE: '1' },
    });
    const put = state.log.find((e) => e.method === 'PUT')!;
    expect(put).toEqual({
      method: 'PUT',
      path: '/api/admin/warm-runtime-configs/php-web',
      status: 200,
      bearer: true,
      apiKey: false,
    });
  });

  it('save reads stdin when -f is omitted, and from a file with --file', async () => {
    expect((await warmPools(['save', 'a'], { input: body('img:a') })).stdout).toBe(
      'Saved a image=img:a count=1\n',
    );
    const file = join(work, 'b.json');
    writeFileSync(file, body('img:b', 3));
    expect((await warmPools(['save', 'b', '--file', file])).stdout).toBe('Saved b image=img:b count=3\n');
    expect([...state.db.keys()]).toEqual(['a', 'b']);
    expect(state.stats.challengesIssued).toBe(2); // one login per process
  });

  it('save --json prints the saved configuration', async () => {
    const result = await warmPools(['save', 'a', '--json'], { input: body('img:a') });
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'a', source: 'db', image: 'img:a' });
  });

  it('save prints count=None when the configuration has no count (like the helper)', async () => {
    const input = JSON.stringify({ image: 'img:n', working_dir: '/', command: [], environment: {} });
    expect((await warmPools(['save', 'n'], { input })).stdout).toBe('Saved n image=img:n count=None\n');
  });

  it.each([
    ['empty stdin', '', 'No JSON body on stdin'],
    ['invalid JSON', '{"image":', 'Invalid JSON'],
    ['an array', '[]', 'must be a JSON object'],
    ['missing fields', '{"image":"x"}', 'working_dir: is required'],
  ])('save with %s → exit 1 and nothing sent', async (_label, input, message) => {
    const result = await warmPools(['save', 'x'], { input });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(state.log.filter((e) => e.method === 'PUT')).toHaveLength(0);
  });

  it('save of a missing file → exit 1', async () => {
    const result = await warmPools(['save', 'x', '-f', join(work, 'nope.json')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Could not read');
  });

  it('save refuses an image another configuration uses (rule 1) unless --allow-shared-image', async () => {
    // Overriding v1_current itself with its own image is not sharing.
    expect((await warmPools(['save', 'v1_current'], { input: body(INSTALLER_IMAGE, 2) })).code).toBe(0);
    const refused = await warmPools(['save', 'copy'], { input: body(INSTALLER_IMAGE) });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already used by v1_current');
    expect(state.sourceOf('copy')).toBe('absent');
    const forced = await warmPools(['save', 'copy', '--allow-shared-image'], {
      input: body(INSTALLER_IMAGE),
    });
    expect(forced.code).toBe(0);
    expect(state.sourceOf('copy')).toBe('db');
  });

  it('a wrong password → exit 2, and the password is never printed', async () => {
    const result = await warmPools(['save', 'x'], {
      input: body('img:x'),
      env: baseEnv({ ADMIN_PASSWORD: 'not-the-password' }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HTTP 401 POST /api/admin/login: {"detail":"Invalid admin password"}');
    expect(result.stderr).toContain('wrong admin password');
    expect(result.stderr + result.stdout).not.toContain('not-the-password');
  });

  it('admin disabled → exit 2 with the spec message', async () => {
    state.rotateAdminPassword(null);
    const result = await warmPools(['save', 'x', '--allow-shared-image'], { input: body('img:x') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'HTTP 403 POST /api/admin/login: {"detail":"Admin functionality is disabled"}',
    );
    expect(result.stderr).toContain('no admin password configured');
  });

  it('a server-side 422 is an HTTP error (exit 2) with the body', async () => {
    handlers = [
      // Answers first: a service whose model is stricter than the client's checks.
      http.put('*/api/admin/warm-runtime-configs/:name', () =>
        HttpResponse.json(
          { detail: [{ loc: ['body', 'image'], msg: 'bad image', type: 'value_error' }] },
          { status: 422 },
        ),
      ),
      ...runtimeApiHandlers({ state }),
    ];
    const result = await warmPools(['save', 'x', '--allow-shared-image'], { input: body('img:x') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('HTTP 422 PUT /api/admin/warm-runtime-configs/x:');
    expect(result.stderr).toContain('bad image');
  });
});

describe('delete', () => {
  it('prints the service message', async () => {
    state.put('php-web', JSON.parse(body('img:p')));
    const result = await warmPools(['delete', 'php-web']);
    expect(result).toEqual({ code: 0, stdout: 'Configuration "php-web" deleted successfully\n', stderr: '' });
    expect(state.sourceOf('php-web')).toBe('absent');
  });

  it('--json prints name and message', async () => {
    state.put('a b', JSON.parse(body('img:p')));
    const result = await warmPools(['delete', 'a b', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({
      name: 'a b',
      message: 'Configuration "a b" deleted successfully',
    });
    expect(state.log.at(-1)!.path).toBe('/api/admin/warm-runtime-configs/a%20b');
  });

  it('an installer entry → exit 2: HTTP 404 and why', async () => {
    const result = await warmPools(['delete', 'v1_current']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'HTTP 404 DELETE /api/admin/warm-runtime-configs/v1_current: {"detail":"Configuration \\"v1_current\\" not found"}',
    );
    expect(result.stderr).toContain(
      'installer-managed entries (source "file", such as v1_current) cannot be deleted',
    );
  });

  it('ADMIN_TOKEN skips the handshake', async () => {
    state.put('php-web', JSON.parse(body('img:p')));
    const token = state.issueToken();
    const result = await warmPools(['delete', 'php-web'], {
      env: baseEnv({ ADMIN_TOKEN: token, ADMIN_PASSWORD: undefined }),
    });
    expect(result.code).toBe(0);
    expect(state.stats.challengesIssued).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(token);
  });

  it('an expired ADMIN_TOKEN with a password → logs in instead', async () => {
    state.put('php-web', JSON.parse(body('img:p')));
    const token = state.issueToken();
    state.advanceTime(25 * 3600_000);
    const result = await warmPools(['delete', 'php-web'], { env: baseEnv({ ADMIN_TOKEN: token }) });
    expect(result.code).toBe(0);
    expect(state.stats.loginsSucceeded).toBe(1);
  });
});

describe('check', () => {
  it('exit 0 when every configuration has its own image and the pools fit', async () => {
    const result = await warmPools(['check', '--node-capacity', '100Gi']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ok: 1 configurations, each with its own image');
    expect(result.stdout).toContain('1 warm pods × 25Gi = 25Gi needed, 100Gi available: fits');
  });

  it('exit 1 on a shared image or pools that do not fit; --upgrade prints the commands', async () => {
    state.put('copy', JSON.parse(body(INSTALLER_IMAGE, 5)));
    state.put('php', JSON.parse(body('ghcr.io/acme/php:8.4', 2)));
    const result = await warmPools(['check', '--node-capacity', '150Gi', '--upgrade']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('problem: v1_current, copy share the image');
    expect(result.stdout).toContain('problem: 8 warm pods × 25Gi = 200Gi needed, 150Gi available');
    expect(result.stdout).toContain(
      'warm-pools template v1_current --image ghcr.io/acme/php:8.4 --count 2 | warm-pools save php -f -',
    );
    const json = JSON.parse((await warmPools(['check', '--json', '--upgrade'])).stdout);
    expect(json.ok).toBe(false);
    expect(json.upgrade.map((s: { action: string }) => s.action)).toContain('resave');
  });
});

describe('bootstrap with a fake kubectl on PATH', () => {
  let bin: string;
  let calls: string;
  const hostilePassword = "p@ss word;echo INJECTED 'x' $(id)";
  const hostileKey = 'key$(touch /tmp/pwned)`id`';
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

  beforeAll(() => {
    bin = join(work, 'bin');
    mkdirSync(bin, { recursive: true });
    calls = join(work, 'kubectl-calls.log');
    writeFileSync(
      join(bin, 'kubectl'),
      `#!/bin/sh
echo "$*" >> "$KUBECTL_LOG"
if [ -n "$FAKE_KUBECTL_FAIL" ]; then echo 'Error from server (Forbidden): secrets is forbidden' >&2; exit 1; fi
case "$*" in
  "get ingress -n "*" -l app.kubernetes.io/name=runtime-api -o jsonpath={.items[0].spec.rules[0].host}") printf '%s' "$FAKE_HOST" ;;
  "get secret default-api-key -n "*" -o jsonpath={.data.default-api-key}") printf '%s' "$FAKE_KEY_B64" ;;
  "get secret admin-password -n "*" -o jsonpath={.data.admin-password}") printf '%s\\n' "$FAKE_PASSWORD_B64" ;;
  *) echo "unexpected kubectl $*" >&2; exit 3 ;;
esac
`,
    );
    chmodSync(join(bin, 'kubectl'), 0o755);
  });

  beforeEach(() => {
    rmSync(calls, { force: true });
  });

  const env = (extra: Record<string, string | undefined> = {}) =>
    baseEnv({
      PATH: `${bin}:${process.env.PATH}`,
      KUBECTL_LOG: calls,
      FAKE_HOST: 'runtime-api.example.com',
      FAKE_KEY_B64: b64(hostileKey),
      FAKE_PASSWORD_B64: b64(hostilePassword),
      RUNTIME_API_URL: undefined,
      API_KEY: undefined,
      ADMIN_PASSWORD: undefined,
      ...extra,
    });

  it('prints shell-quoted export lines that eval back to the exact values', async () => {
    const result = await warmPools(['bootstrap', '-n', 'oh-prod'], { env: env() });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('export RUNTIME_API_URL=https://runtime-api.example.com');
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual([
      'get ingress -n oh-prod -l app.kubernetes.io/name=runtime-api -o jsonpath={.items[0].spec.rules[0].host}',
      'get secret default-api-key -n oh-prod -o jsonpath={.data.default-api-key}',
      'get secret admin-password -n oh-prod -o jsonpath={.data.admin-password}',
    ]);
    const evaluated = await run(
      'sh',
      ['-c', `${result.stdout}\nprintf '%s\\n%s\\n%s' "$RUNTIME_API_URL" "$API_KEY" "$ADMIN_PASSWORD"`],
      {
        env: { PATH: process.env.PATH },
      },
    );
    expect(evaluated.stdout).toBe(`https://runtime-api.example.com\n${hostileKey}\n${hostilePassword}`);
    expect(evaluated.stderr).toBe('');
  });

  it('eval "$(warm-pools bootstrap)" then list works end to end', async () => {
    state.apiKeys[0]!.key_value = hostileKey;
    state.rotateAdminPassword(hostilePassword);
    const result = await shell(
      `eval "$(wp bootstrap --skip-url)" && RUNTIME_API_URL=${server.url} wp list`,
      env(),
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].name).toBe('v1_current');
  });

  it('--skip-url leaves RUNTIME_API_URL out; NAMESPACE sets the default namespace', async () => {
    const result = await warmPools(['bootstrap', '--skip-url'], { env: env({ NAMESPACE: 'team-ns' }) });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('RUNTIME_API_URL');
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(readFileSync(calls, 'utf8')).not.toContain('ingress');
    expect(readFileSync(calls, 'utf8')).toContain('-n team-ns');
  });

  it('default namespace openhands; no ingress → a note on stderr', async () => {
    const result = await warmPools(['bootstrap'], { env: env({ FAKE_HOST: '' }) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('# No runtime-api ingress found; export RUNTIME_API_URL manually\n');
    expect(result.stdout.startsWith('export API_KEY=')).toBe(true);
    expect(readFileSync(calls, 'utf8')).toContain('-n openhands');
  });

  it('--json prints the values as JSON', async () => {
    const result = await warmPools(['bootstrap', '--json'], { env: env() });
    expect(JSON.parse(result.stdout)).toEqual({
      RUNTIME_API_URL: 'https://runtime-api.example.com',
      API_KEY: hostileKey,
      ADMIN_PASSWORD: hostilePassword,
    });
  });

  it('kubectl not on PATH → exit 1', async () => {
    const empty = mkdtempSync(join(work, 'empty-'));
    const result = await warmPools(['bootstrap'], { env: env({ PATH: empty }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('kubectl not found on PATH');
  });

  it('kubectl failing → exit 2 with its stderr', async () => {
    const result = await warmPools(['bootstrap', '--skip-url'], { env: env({ FAKE_KUBECTL_FAIL: '1' }) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('kubectl get secret default-api-key');
    expect(result.stderr).toContain('secrets is forbidden');
    expect(result.stdout).toBe('');
  });

  it('an empty or undecodable secret → exit 2', async () => {
    const empty = await warmPools(['bootstrap', '--skip-url'], { env: env({ FAKE_KEY_B64: '' }) });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('returned no output');
    const bad = await warmPools(['bootstrap', '--skip-url'], { env: env({ FAKE_KEY_B64: 'not base64!' }) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Could not decode secret default-api-key/default-api-key');
  });
});

describe('secrets are never printed (except by bootstrap)', () => {
  it('no command shows the password, the API key or a JWT', async () => {
    const outputs: string[] = [];
    const record = (r: Run) => outputs.push(r.stdout, r.stderr);
    record(
      await warmPools(['list'], { env: baseEnv({ API_KEY: undefined, WARM_POOLS_LOG_LEVEL: 'debug' }) }),
    );
    record(
      await warmPools(['template', 'v1_current', '--image', 'i:1'], { env: baseEnv({ API_KEY: undefined }) }),
    );
    record(
      await warmPools(['save', 'x'], {
        input: body('img:x'),
        env: baseEnv({ WARM_POOLS_LOG_LEVEL: 'debug' }),
      }),
    );
    record(await warmPools(['delete', 'nope'], { env: baseEnv({ WARM_POOLS_LOG_LEVEL: 'debug' }) }));
    record(await warmPools(['list'], { env: baseEnv({ API_KEY: 'bad-key-12345' }) }));
    const all = outputs.join('\n');
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(API_KEY);
    expect(all).not.toContain('bad-key-12345');
    expect(all).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });
});
