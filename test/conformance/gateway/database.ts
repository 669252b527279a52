// The gateway's database for a conformance run: a throwaway PostgreSQL (Debian's `postgresql` package) on a
// loopback port, LiteLLM's own migrations applied with psql (then what the proxy's schema has beyond them, see
// syncToProxySchema), and the Prisma client LiteLLM uses generated once per venv. LiteLLM reaches the database
// only through Prisma's query engine, whose native binary cannot be downloaded here: test/peers/prisma-engine/
// stands in for it with Prisma's real engine compiled to WebAssembly (docs/compatibility.md, "Model gateway",
// says what that changes).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { freePort } from '../support/agent-server.js';

export interface GatewayDatabase {
  /** `DATABASE_URL` of the database LiteLLM uses. */
  readonly url: string;
  /** Variables the proxy needs besides its usual ones (engine paths, HOME with the Prisma CLI, PATH with node). */
  readonly proxyEnv: Record<string, string>;
  /** Runs one SQL statement with psql; returns its rows as tab-separated text. */
  sql(statement: string): string;
  close(): Promise<void>;
}

const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * Whether this machine can run the database run: Debian's `postgresql` (15). Under CI=true its absence is a
 * failure (`.ci/run` installs it), elsewhere the run is skipped.
 */
export function postgresInstalled(): boolean {
  if (existsSync(join(PG_BIN, 'initdb'))) return true;
  if (process.env.CI === 'true') {
    throw new Error(
      `conformance: PostgreSQL 15 (${PG_BIN}) is missing under CI; apt-get install -y postgresql`,
    );
  }
  return false;
}
const root = resolve(import.meta.dirname, '../../..');
const ENGINE = join(root, 'test/peers/prisma-engine/engine.mjs');

function run(command: string, args: string[], what: string, asPostgres = false): string {
  // initdb and the server refuse to run as root: as root (CI), they run as the package's `postgres` user.
  const [cmd, argv] =
    asPostgres && process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
      : [command, args];
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${what} failed (exit ${result.status}): ${(result.stderr || result.stdout).slice(-3000)}`,
    );
  }
  return result.stdout;
}

function sitePackages(venv: string): string {
  const lib = join(venv, 'lib');
  const python = readdirSync(lib).find((name) => name.startsWith('python'));
  return join(lib, python as string, 'site-packages');
}

/**
 * The stand-in must load before LiteLLM runs it. When it cannot (its npm packages missing: a node_modules older
 * than package.json), prisma-client-py's `connect()` fails at `query-engine --version` but keeps its engine
 * object, so `is_connected()` answers True; LiteLLM's retried `connect()` then skips connecting and its start-up
 * health check fails with `NotConnectedError: Not connected to the query engine`, which names neither cause.
 */
function checkEngine(): void {
  const result = spawnSync(process.execPath, [ENGINE, '--version'], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `the Prisma engine stand-in (${ENGINE}) does not start; \`npm ci\` installs its packages ` +
        `(@prisma/query-engine-wasm, @prisma/adapter-pg, pg): ${(result.stderr || result.stdout).slice(-1500)}`,
    );
  }
}

const SCHEMA_DIFF = join(root, 'test/peers/prisma-engine/schema-diff.mjs');

/**
 * The SQL that takes the database from the schema of LiteLLM's migrations (`litellm_proxy_extras/schema.prisma`)
 * to the schema the proxy's Prisma client is generated from (`litellm/proxy/schema.prisma`), or '' when they are
 * the same file (1.94.1, 1.108.7). They differ when the installed `litellm-proxy-extras` is older than the one
 * the proxy pins (1.110.2: 0.4.110 for 0.4.114.post1, the newest on the index): its migrations then lack tables
 * the proxy writes (`LiteLLM_SpendLogDelivery`: without it no spend row is ever stored). `prisma db push` of the
 * proxy's schema (`litellm --use_prisma_db_push`) would add them; this is its SQL, written by Prisma's schema
 * engine (test/peers/prisma-engine/schema-diff.mjs).
 */
function syncToProxySchema(venv: string): string {
  const site = sitePackages(venv);
  const from = join(site, 'litellm_proxy_extras/schema.prisma');
  const to = join(site, 'litellm/proxy/schema.prisma');
  if (readFileSync(from, 'utf8') === readFileSync(to, 'utf8')) return '';
  const result = spawnSync(process.execPath, [SCHEMA_DIFF, from, to], { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `schema diff failed (exit ${result.status}; \`npm ci\` installs @prisma/schema-engine-wasm): ${(result.stderr || result.stdout).slice(-3000)}`,
    );
  }
  return result.stdout;
}

/** The engine wrappers prisma-client-py runs: ours for the query engine, a refusal for the schema engine. */
function writeEngineWrappers(dir: string): { queryEngine: string; schemaEngine: string } {
  const queryEngine = join(dir, 'query-engine');
  writeFileSync(queryEngine, `#!/bin/sh\nexec '${process.execPath}' '${ENGINE}' "$@"\n`);
  const schemaEngine = join(dir, 'schema-engine');
  // No schema engine: LiteLLM's `prisma migrate` step fails, says so and goes on (migrations are applied here).
  writeFileSync(
    schemaEngine,
    '#!/bin/sh\nif [ "$1" = "--version" ]; then echo "schema-engine-cli 393aa359c9ad4a4bb28630fb5613f9c281cde053"; exit 0; fi\nexit 1\n',
  );
  chmodSync(queryEngine, 0o755);
  chmodSync(schemaEngine, 0o755);
  return { queryEngine, schemaEngine };
}

function prismaEnv(venv: string, home: string, wrappers: { queryEngine: string; schemaEngine: string }) {
  return {
    // node on PATH: prisma-client-py installs the Prisma CLI with the system npm instead of downloading node.
    PATH: `${join(venv, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    PRISMA_QUERY_ENGINE_BINARY: wrappers.queryEngine,
    PRISMA_SCHEMA_ENGINE_BINARY: wrappers.schemaEngine,
    PRISMA_CLI_QUERY_ENGINE_TYPE: 'binary',
    PRISMA_CLIENT_ENGINE_TYPE: 'binary',
    PRISMA_ENGINES_CHECKSUM_IGNORE_MISSING: '1',
  };
}

/**
 * `prisma generate` for LiteLLM's schema, once per venv (it writes the client into the venv's `prisma`
 * package; the Prisma CLI it needs is npm-installed into `<venv>/.prisma-home`).
 */
function generateClient(venv: string, env: Record<string, string>): void {
  const site = sitePackages(venv);
  const schema = join(site, 'litellm/proxy/schema.prisma');
  const generated = join(site, 'prisma/schema.prisma');
  if (existsSync(join(site, 'prisma/client.py')) && existsSync(generated)) {
    if (readFileSync(generated, 'utf8') === readFileSync(schema, 'utf8')) return;
  }
  const result = spawnSync(join(venv, 'bin/prisma'), ['generate', '--schema', schema], {
    encoding: 'utf8',
    env,
    cwd: env.HOME,
  });
  if (result.status !== 0)
    throw new Error(`prisma generate failed: ${(result.stderr + result.stdout).slice(-3000)}`);
}

export async function startGatewayDatabase(venv: string): Promise<GatewayDatabase> {
  if (!existsSync(join(PG_BIN, 'initdb'))) {
    throw new Error(`PostgreSQL 15 not found in ${PG_BIN}: apt-get install -y postgresql (.ci/run does)`);
  }
  checkEngine();
  const dir = mkdtempSync(join(tmpdir(), 'gateway-db-'));
  const data = join(dir, 'pg');
  mkdirSync(data);
  if (process.getuid?.() === 0) {
    // The server runs as `postgres`: it must reach its folder through ours.
    chmodSync(dir, 0o755);
    run('chown', ['postgres', data], 'chown');
  }
  const port = await freePort();
  const psql = (database: string, args: string[]) =>
    run(
      'psql',
      [
        '-X',
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        database,
        ...args,
      ],
      'psql',
    );
  const close = async () => {
    spawnSync(process.getuid?.() === 0 ? 'runuser' : join(PG_BIN, 'pg_ctl'), [
      ...(process.getuid?.() === 0 ? ['-u', 'postgres', '--', join(PG_BIN, 'pg_ctl')] : []),
      '-D',
      data,
      '-m',
      'immediate',
      'stop',
    ]);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  try {
    run(join(PG_BIN, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres'], 'initdb', true);
    run(
      join(PG_BIN, 'pg_ctl'),
      [
        '-D',
        data,
        '-o',
        `-p ${port} -c listen_addresses=127.0.0.1 -k ${data}`,
        '-l',
        join(data, 'log'),
        '-w',
        'start',
      ],
      'pg_ctl start',
      true,
    );
    psql('postgres', ['-c', 'CREATE DATABASE litellm']);
    // LiteLLM's own migrations, in name order (what `prisma migrate deploy` would apply).
    const migrations = join(sitePackages(venv), 'litellm_proxy_extras/migrations');
    for (const name of readdirSync(migrations).sort()) {
      const file = join(migrations, name, 'migration.sql');
      if (existsSync(file)) psql('litellm', ['-f', file]);
    }
    const schemaSync = syncToProxySchema(venv);
    if (schemaSync) {
      writeFileSync(join(dir, 'schema-sync.sql'), schemaSync);
      psql('litellm', ['-f', join(dir, 'schema-sync.sql')]);
    }
    const home = join(venv, '.prisma-home');
    mkdirSync(home, { recursive: true });
    const env = prismaEnv(venv, home, writeEngineWrappers(dir));
    generateClient(venv, env);
    const url = `postgresql://postgres@127.0.0.1:${port}/litellm`;
    return {
      url,
      proxyEnv: { ...env, DATABASE_URL: url, STORE_MODEL_IN_DB: 'True', DISABLE_SCHEMA_UPDATE: 'true' },
      sql: (statement) => psql('litellm', ['-A', '-t', '-F', '\t', '-c', statement]),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
