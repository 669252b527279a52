import { chmod, readFile, writeFile } from 'node:fs/promises';
import { isAPIConnectionError } from '../core/errors.js';
import type { Logger, LogLevel } from '../core/logger.js';
import { VERSION } from '../core/version.js';
import {
  checkEphemeralStorage,
  configsUsingImage,
  findSharedImages,
  upgradeChecklist,
} from '../runtime/checks.js';
import { RuntimeAdminClient } from '../runtime/client.js';
import { shellQuote } from '../runtime/shell-quote.js';
import { type CommandSpec, type ParsedArgs, selectCommand } from './args.js';
import { runKubectl, which } from './kubectl.js';
import { errorJson, maskEnvironmentSecrets, prettyJson } from './output.js';
import { jsonErrorPlace, oneLine } from './safe-text.js';
import { CliFailure, toFailure } from './warm-pools-failure.js';

export const PROG = 'warm-pools';

/** Where the CLI reads and writes; the real process by default, something else in tests. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: AsyncIterable<string | Uint8Array> & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

interface Context {
  args: ParsedArgs;
  io: CliIo;
  out(text: string): void;
  err(text: string): void;
  client(): RuntimeAdminClient;
}

interface Command extends CommandSpec {
  run(context: Context): Promise<number>;
}

const JSON_OPTION = {
  name: 'json',
  type: 'boolean',
  description: 'Machine-readable JSON on stdout.',
} as const;

const ENVIRONMENT_HELP = `environment:
  RUNTIME_API_URL  base URL of the runtime API, e.g. https://runtime-api.example.com (required)
  ADMIN_PASSWORD   admin password for the PBKDF2 challenge-response login
  ADMIN_TOKEN      a pre-obtained admin JWT; skips the login
  API_KEY          regular API key for reads (X-API-Key); without it, the CLI logs in and uses the 'default' key`;

const COMMANDS: Command[] = [
  {
    name: 'list',
    summary: 'Print the effective set of warm-runtime configurations as a JSON array.',
    details: `Credential-like environment values (…_API_KEY, …PASSWORD, …TOKEN, …SECRET) are shown as [redacted]
unless --show-secrets is given; use \`template\` for a body to save.\n\n${ENVIRONMENT_HELP}`,
    positionals: [],
    options: [
      JSON_OPTION,
      {
        name: 'show-secrets',
        type: 'boolean',
        description: 'Print credential-like environment values in clear.',
      },
    ],
    async run({ args, out, client }) {
      const configs = await client().listWarmRuntimeConfigs();
      out(prettyJson(args.options['show-secrets'] ? configs : maskEnvironmentSecrets(configs)));
      return 0;
    },
  },
  {
    name: 'template',
    summary:
      'Fetch a configuration, strip name/source, override image/count, and print the JSON body for `save`.',
    details: `Example:
  ${PROG} template v1_current --image ghcr.io/acme/sandbox:1.0 --count 2 | ${PROG} save acme -f -

The body carries the source's environment values verbatim (they must match for warm pods to be claimed).

${ENVIRONMENT_HELP}`,
    positionals: [
      { name: 'source', description: 'Name of an existing configuration to derive from (e.g. v1_current).' },
    ],
    options: [
      { name: 'image', type: 'string', valueName: 'REF', description: 'Image of the new configuration.' },
      { name: 'count', type: 'string', valueName: 'N', description: 'Warm pods to keep (integer >= 0).' },
      {
        name: 'output',
        short: 'o',
        type: 'string',
        valueName: 'FILE',
        description: "Write to FILE instead of stdout ('-' = stdout).",
      },
      JSON_OPTION,
    ],
    async run({ args, out, err, client }) {
      const source = args.positionals.source!;
      const image = args.options.image as string | undefined;
      const count = parseCount(args.options.count as string | undefined);
      const body = await client().template(source, {
        ...(image === undefined ? {} : { image }),
        ...(count === undefined ? {} : { count }),
      });
      if (image === undefined) {
        err(
          `note: no --image given, so the body keeps the image of ${source}; saving it under another name makes two configurations share an image (warm-pool rule 1)`,
        );
      }
      const payload = prettyJson(body);
      const output = args.options.output as string | undefined;
      if (output && output !== '-') {
        // The body holds the source's environment (secrets among it): owner-only, like a key file. `mode`
        // applies only to a new file, so an existing one is narrowed too.
        await writeFile(output, `${payload}\n`, { mode: 0o600 });
        await chmod(output, 0o600);
      } else out(payload);
      return 0;
    },
  },
  {
    name: 'save',
    summary: 'Create or overwrite a configuration (upsert) from a JSON body.',
    details: `The body needs image, working_dir, command and environment; name and source are dropped.
Saving an image that another configuration already uses is refused (warm-pool rule 1) unless
--allow-shared-image is given.

${ENVIRONMENT_HELP}`,
    positionals: [{ name: 'name', description: 'Configuration name (its identity in the URL).' }],
    options: [
      {
        name: 'file',
        short: 'f',
        type: 'string',
        valueName: 'FILE',
        description: "Path to the JSON body. Use '-' or omit to read stdin.",
      },
      {
        name: 'allow-shared-image',
        type: 'boolean',
        description: 'Save even if another configuration uses the same image.',
      },
      JSON_OPTION,
    ],
    async run({ args, io, out, err, client }) {
      const name = args.positionals.name!;
      const body = parseBody(await readBody(args.options.file as string | undefined, io, err));
      const runtime = client();
      if (!args.options['allow-shared-image'] && typeof body.image === 'string') {
        await refuseSharedImage(runtime, name, body.image, err);
      }
      const saved = await runtime.saveWarmRuntimeConfig(name, body);
      out(
        args.options.json
          ? prettyJson(saved)
          : `Saved ${saved.name} image=${saved.image} count=${typeof saved.count === 'number' ? saved.count : 'None'}`,
      );
      return 0;
    },
  },
  {
    name: 'delete',
    summary:
      'Delete a database-managed configuration (an installer entry of the same name takes over again).',
    details: `Only configurations saved through the API can be deleted: an installer entry such as v1_current
answers 404 unless it was overridden.

${ENVIRONMENT_HELP}`,
    positionals: [{ name: 'name', description: 'Configuration name to delete.' }],
    options: [JSON_OPTION],
    async run({ args, out, client }) {
      const result = await client().deleteWarmRuntimeConfig(args.positionals.name!);
      // The helper CLI's JSON: the configuration's name and the service's message.
      out(args.options.json ? prettyJson({ name: result.id, message: result.message }) : result.message);
      return 0;
    },
  },
  {
    name: 'bootstrap',
    summary: 'Print `export` lines for RUNTIME_API_URL, API_KEY and ADMIN_PASSWORD, read with kubectl.',
    details: `Usage: eval "$(${PROG} bootstrap -n openhands)"
Reads the runtime-api ingress host and the secrets default-api-key and admin-password. The values are
shell-quoted. This is the only command that prints secrets.

environment:
  NAMESPACE  default namespace (else openhands)`,
    positionals: [],
    options: [
      {
        name: 'namespace',
        short: 'n',
        type: 'string',
        valueName: 'NS',
        description: 'Kubernetes namespace (default: $NAMESPACE or openhands).',
      },
      {
        name: 'skip-url',
        type: 'boolean',
        description: 'Do not emit RUNTIME_API_URL (useful with kubectl port-forward).',
      },
      JSON_OPTION,
    ],
    run: bootstrap,
  },
  {
    name: 'check',
    summary:
      'Check the effective set against the rules that break clusters, and print the upgrade checklist.',
    details: `Rule 1: every selectable configuration needs its own image. Rule 2 (with --node-capacity): the sum of
pool sizes x per-pod ephemeral storage (25Gi by default) must fit, or pods stay Pending. --upgrade prints
the after-upgrade steps (re-save every API-managed configuration, keeping its count). Exits 1 when a
rule is broken.

${ENVIRONMENT_HELP}`,
    positionals: [],
    options: [
      {
        name: 'node-capacity',
        type: 'string',
        valueName: 'QTY',
        description: 'Ephemeral storage available to warm pods, e.g. 500Gi.',
      },
      {
        name: 'per-pod-storage',
        type: 'string',
        valueName: 'QTY',
        description: 'Per warm pod (default 25Gi).',
      },
      {
        name: 'default-count',
        type: 'string',
        valueName: 'N',
        description: 'Pool size assumed where count is unset (default 3).',
      },
      { name: 'upgrade', type: 'boolean', description: 'Print the after-upgrade checklist.' },
      JSON_OPTION,
    ],
    run: check,
  },
];

/** Runs the CLI and returns the exit code: 0 ok, 1 precondition failed, 2 HTTP/connection or usage error. */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const out = (text: string) => io.stdout.write(`${text}\n`);
  const err = (text: string) => io.stderr.write(`${text}\n`);
  const selected = selectCommand(PROG, COMMANDS, argv, {
    out,
    err,
    version: VERSION,
    description: 'Manage warm sandbox pools (warm-runtime configurations) on the runtime API.',
    epilogue: [
      ENVIRONMENT_HELP,
      '',
      'exit codes: 0 ok; 1 precondition failed; 2 HTTP or connection error, or bad usage',
    ],
  });
  if ('exit' in selected) return selected.exit;
  const { command, args } = selected;
  let client: RuntimeAdminClient | undefined;
  const context: Context = {
    args,
    io,
    out,
    err,
    client: () => {
      client ??= makeClient(io.env, err);
      return client;
    },
  };
  try {
    return await command.run(context);
  } catch (error) {
    const failure = toFailure(error, client);
    err(failure.message);
    if (args.options.json) out(errorJson(error, failure.message, failure.exitCode));
    return failure.exitCode;
  }
}

function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

function makeClient(env: NodeJS.ProcessEnv, err: (text: string) => void): RuntimeAdminClient {
  const toStderr = (message: string) => err(message);
  const logger: Logger = { error: toStderr, warn: toStderr, info: toStderr, debug: toStderr };
  const level = (env.WARM_POOLS_LOG_LEVEL ?? 'warn') as LogLevel;
  const value = (name: string) => (env[name] ? env[name] : undefined);
  const baseUrl = value('RUNTIME_API_URL');
  if (!baseUrl) {
    throw new CliFailure(
      'RUNTIME_API_URL is not set. Export it (e.g. https://runtime-api.<your-base-domain>) or run `bootstrap`.',
      1,
    );
  }
  return new RuntimeAdminClient({
    env: false,
    baseUrl,
    adminPassword: value('ADMIN_PASSWORD'),
    adminToken: value('ADMIN_TOKEN'),
    apiKey: value('API_KEY'),
    logger,
    logLevel: ['off', 'error', 'warn', 'info', 'debug'].includes(level) ? level : 'warn',
  });
}

function parseCount(value: string | undefined, option = 'count'): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) {
    throw new UsageErrorFailure(`argument --${option}: invalid int value: '${value}'`);
  }
  return Number(value.trim());
}

/** A usage problem found while running a command (exit 2, like argparse's type errors). */
class UsageErrorFailure extends CliFailure {
  override name = 'UsageError';
  constructor(message: string) {
    super(`${PROG}: error: ${message}`, 2);
  }
}

async function readBody(file: string | undefined, io: CliIo, err: (text: string) => void): Promise<string> {
  if (file === undefined || file === '-') {
    if (io.stdin.isTTY) err('Reading the JSON body from stdin (end with Ctrl-D)…');
    let raw = '';
    const decoder = new TextDecoder();
    for await (const chunk of io.stdin) {
      raw += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    }
    raw += decoder.decode();
    if (raw.trim() === '') throw new CliFailure('No JSON body on stdin. Pass --file, or pipe JSON in.', 1);
    return raw;
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliFailure(`Could not read ${file}: ${(error as Error).message}`, 1);
  }
}

function parseBody(raw: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    // The parser's message quotes the start of the input, which can be the start of a key: only the place.
    throw new CliFailure(`Invalid JSON${jsonErrorPlace(raw, error)}: the body is not valid JSON.`, 1);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CliFailure('Invalid JSON: the body must be a JSON object (a configuration).', 1);
  }
  return body as Record<string, unknown>;
}

/** Rule 1 before saving: refuse an image another configuration uses. Best effort when the list fails. */
async function refuseSharedImage(
  client: RuntimeAdminClient,
  name: string,
  image: string,
  err: (text: string) => void,
): Promise<void> {
  let others: string[];
  try {
    others = configsUsingImage(await client.listWarmRuntimeConfigs(), name, image);
  } catch (error) {
    if (isAPIConnectionError(error)) throw error;
    err(`warning: could not check for configurations sharing the image: ${(error as Error).message}`);
    return;
  }
  if (others.length > 0) {
    throw new CliFailure(
      `Image ${image} is already used by ${others.join(', ')}: configurations sharing an image cannot be selected independently (warm-pool rule 1). Give ${name} its own image tag, or pass --allow-shared-image.`,
      1,
    );
  }
}

async function bootstrap({ args, io, out, err }: Context): Promise<number> {
  if (!which('kubectl', io.env.PATH)) {
    throw new CliFailure('kubectl not found on PATH. bootstrap needs cluster access.', 1);
  }
  const namespace = (args.options.namespace as string | undefined) ?? (io.env.NAMESPACE || 'openhands');
  const kubectl = async (argv: string[], allowEmpty = false): Promise<string> => {
    const result = await runKubectl(argv, io.env);
    if (!result.ok) throw new CliFailure(`kubectl ${argv.join(' ')} failed:\n${result.stderr}`, 2);
    const text = result.stdout.trim();
    if (!text && !allowEmpty) throw new CliFailure(`kubectl ${argv.join(' ')} returned no output.`, 2);
    return text;
  };
  const secret = async (name: string, key: string): Promise<string> => {
    const encoded = await kubectl(['get', 'secret', name, '-n', namespace, '-o', `jsonpath={.data.${key}}`]);
    try {
      return decodeBase64(encoded);
    } catch (error) {
      throw new CliFailure(`Could not decode secret ${name}/${key}: ${(error as Error).message}`, 2);
    }
  };
  const values: Record<string, string> = {};
  if (!args.options['skip-url']) {
    const host = await kubectl(
      [
        'get',
        'ingress',
        '-n',
        namespace,
        '-l',
        'app.kubernetes.io/name=runtime-api',
        '-o',
        'jsonpath={.items[0].spec.rules[0].host}',
      ],
      true,
    );
    if (host) values.RUNTIME_API_URL = `https://${host}`;
    else err('# No runtime-api ingress found; export RUNTIME_API_URL manually');
  }
  values.API_KEY = await secret('default-api-key', 'default-api-key');
  values.ADMIN_PASSWORD = await secret('admin-password', 'admin-password');
  out(
    args.options.json
      ? prettyJson(values)
      : Object.entries(values)
          .map(([name, value]) => `export ${name}=${shellQuote(value)}`)
          .join('\n'),
  );
  return 0;
}

/** Strict base64 (like Python's `b64decode` on kubectl output) to UTF-8 text; throws on bad input. */
function decodeBase64(encoded: string): string {
  const compact = encoded.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw new Error('Incorrect padding or characters outside the base64 alphabet');
  }
  const binary = atob(compact);
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

async function check({ args, out, client }: Context): Promise<number> {
  const capacity = args.options['node-capacity'] as string | undefined;
  const defaultCountText = args.options['default-count'] as string | undefined;
  const defaultCount =
    defaultCountText === undefined ? undefined : parseCount(defaultCountText, 'default-count');
  const configs = await client().listWarmRuntimeConfigs();
  const sharedImages = findSharedImages(configs);
  const storage =
    capacity === undefined
      ? undefined
      : checkEphemeralStorage(configs, {
          nodeCapacity: capacity,
          ...(args.options['per-pod-storage']
            ? { perPodStorage: args.options['per-pod-storage'] as string }
            : {}),
          ...(defaultCount === undefined ? {} : { defaultCount }),
        });
  const upgrade = args.options.upgrade ? upgradeChecklist(configs, { cli: PROG }) : undefined;
  const ok = sharedImages.length === 0 && (storage?.fits ?? true);
  if (args.options.json) {
    out(prettyJson({ ok, sharedImages, ...(storage ? { storage } : {}), ...(upgrade ? { upgrade } : {}) }));
    return ok ? 0 : 1;
  }
  const lines: string[] = [];
  if (sharedImages.length === 0) lines.push(`ok: ${configs.length} configurations, each with its own image`);
  for (const shared of sharedImages) {
    lines.push(
      oneLine(
        `problem: ${shared.names.join(', ')} share the image ${shared.image}; they cannot be selected independently (warm-pool rule 1)`,
      ),
    );
  }
  if (storage) lines.push(oneLine(`${storage.fits ? 'ok' : 'problem'}: ${storage.message}`));
  if (upgrade) {
    lines.push('', '# After a platform upgrade:');
    if (upgrade.length === 0) lines.push('# no API-managed configurations: nothing to re-save');
    for (const step of upgrade) {
      lines.push(`# ${oneLine(step.note)}`);
      // A command is printed to be run only when the server's names in it are plain text.
      if (step.command && oneLine(step.command) === step.command) lines.push(step.command);
      else if (step.command)
        lines.push(
          `# not printed as a command (a name or image holds a control character): ${oneLine(step.command)}`,
        );
    }
  }
  out(lines.join('\n'));
  return ok ? 0 : 1;
}
