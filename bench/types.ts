// Type-checking benchmark: what the package's declarations cost an app. Three ten-line apps (one importing
// `EventsClient`, one `AgentServerClient`, a baseline importing only `ky`, a dependency of the SDK) are
// type-checked in the same run with `tsc` as a strict app would (strict, exactOptionalPropertyTypes,
// skipLibCheck false, moduleResolution nodenext), against the built package (`dist/`, built first when
// missing, or always with `--build`). Each app is checked `--rounds` times (default 3, medians); every app
// reports wall time and peak RSS of its `tsc` process, and the ratio of its time to the baseline's. Targets
// (docs/performance.md, "Type-checking"): ≤ 2 s and ≤ 300 MB per client app on a 2-vCPU machine.
//
//   node bench/types.ts [--build] [--rounds 3]
// The last line, `types: <ratio>× ky alone`, is what `npm run bench` collects (the slower of the two clients).
import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const roundsAt = argv.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(argv[roundsAt + 1]) : 3;

if (argv.includes('--build') || !existsSync(join(root, 'dist', 'index.d.ts'))) {
  console.log('building dist/ (npm run build)…');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

// The apps live under .cache/ with the package installed in `node_modules/agent-platform-sdk`, so that the SDK
// resolves to this build and `ky` and `zod` to the package's own dependencies, as in an app that installed it.
const work = join(root, '.cache', 'types-bench');
rmSync(work, { recursive: true, force: true });

const APPS: Record<string, string> = {
  'ky alone': `import ky from 'ky';
const api = ky.create({ prefix: 'http://localhost:8000', timeout: 5_000 });
interface Page { items: { id: string; kind: string }[]; next_page_id: string | null }
export async function firstKinds(conversation: string): Promise<string[]> {
  const page = await api.get(\`api/conversations/\${conversation}/events/search\`).json<Page>();
  const kinds: string[] = [];
  for (const event of page.items) kinds.push(event.kind);
  return kinds;
}
console.log(await firstKinds('3fa85f64-5717-4562-b3fc-2c963f66afa6'));
`,
  EventsClient: `import { EventsClient, isNotFoundError } from 'agent-platform-sdk';
const client = new EventsClient({ baseUrl: 'http://localhost:8000', sessionApiKey: 'key' });
export async function firstKinds(conversation: string): Promise<string[]> {
  const kinds: string[] = [];
  for await (const event of client.search(conversation, { limit: 10 })) {
    if (event.kind === 'MessageEvent') kinds.push(event.llm_message.role);
    else kinds.push(String(event.kind));
  }
  return kinds;
}
console.log(await firstKinds('3fa85f64-5717-4562-b3fc-2c963f66afa6').catch((e) => (isNotFoundError(e) ? [] : e)));
`,
  AgentServerClient: `import { AgentServerClient } from 'agent-platform-sdk';
const client = new AgentServerClient({ baseUrl: 'http://localhost:8000', sessionApiKey: 'key' });
export async function lastEventKind(): Promise<string | undefined> {
  const conversation = await client.conversations.create({
    agent: { llm: { model: 'gpt-5' } },
    workspace: { working_dir: '/workspace' },
  });
  const events = [];
  for await (const event of client.events.search(conversation.id, { limit: 10 })) events.push(event);
  const last = events.at(-1);
  return last && String(last.kind);
}
console.log(await lastEventKind());
`,
  // Information (no target): the zod schemas an app asks for by importing `./models`.
  './models schemas': `import { EventSchema, parseEvent } from 'agent-platform-sdk/models';
export function kindOf(text: string): string {
  const checked = EventSchema.safeParse(JSON.parse(text));
  if (checked.success) return checked.data.kind;
  return String(parseEvent(text).kind);
}
console.log(kindOf('{"id":"e1","timestamp":"2026-02-05T11:24:45","source":"user","kind":"PauseEvent"}'));
`,
};

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    types: [],
    noEmit: true,
  },
  files: ['app.ts'],
};

// Peak RSS from inside the child: `process.resourceUsage().maxRSS` (kB) at exit, written to stderr.
const probe = join(work, 'probe.cjs');
const tsc = join(root, 'node_modules', 'typescript', 'lib', 'tsc.js');

/** Wall time, CPU time (user + system: steadier than wall time when other work shares the machine), peak RSS. */
interface Run {
  wallMs: number;
  ms: number;
  rssMb: number;
}

function check(dir: string): Run {
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--require', probe, tsc, '-p', dir], { encoding: 'utf8' });
  const wallMs = performance.now() - started;
  if (child.status !== 0) {
    throw new Error(`tsc failed for ${dir}:\n${child.stdout}${child.stderr}`);
  }
  const usage = /maxRSS=(\d+) cpu=(\d+)/.exec(child.stderr);
  if (!usage) throw new Error(`no resource usage from the tsc child:\n${child.stderr}`);
  return { wallMs, ms: Number(usage[2]) / 1000, rssMb: Number(usage[1]) / 1024 };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

// A copy of package.json and dist/ (what `npm pack` ships), so that a build running meanwhile changes nothing.
const installed = join(work, 'node_modules', 'agent-platform-sdk');
mkdirSync(installed, { recursive: true });
copyFileSync(join(root, 'package.json'), join(installed, 'package.json'));
cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
writeFileSync(
  probe,
  "process.on('exit', () => { const u = process.resourceUsage(); process.stderr.write('maxRSS=' + u.maxRSS + ' cpu=' + (u.userCPUTime + u.systemCPUTime) + '\\n'); });\n",
);
const dirs: Record<string, string> = {};
for (const [name, code] of Object.entries(APPS)) {
  const dir = join(work, name.replace(/\W+/g, '-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.ts'), code);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  dirs[name] = dir;
}

// Rounds interleave the apps so that other work on the machine slows them alike.
const runs: Record<string, Run[]> = Object.fromEntries(Object.keys(APPS).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round += 1) {
  for (const name of Object.keys(APPS)) runs[name]?.push(check(dirs[name] as string));
}

const result = Object.fromEntries(
  Object.entries(runs).map(([name, list]) => [
    name,
    {
      wallMs: median(list.map((r) => r.wallMs)),
      ms: median(list.map((r) => r.ms)),
      rssMb: median(list.map((r) => r.rssMb)),
    },
  ]),
);
const baseline = result['ky alone'] as Run;
console.log(
  `tsc ${execFileSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' }).trim()}, ${ROUNDS} rounds, medians:`,
);
for (const [name, r] of Object.entries(result)) {
  console.log(
    `  ${name.padEnd(18)} ${(r.ms / 1000).toFixed(2)} s CPU (${(r.wallMs / 1000).toFixed(2)} s wall)  ${r.rssMb.toFixed(0).padStart(4)} MB peak RSS  ${(r.ms / baseline.ms).toFixed(2)}× ky alone`,
  );
}

// Declaration size: every .d.ts/.d.cts file the package ships.
const declarations = readdirSync(join(installed, 'dist'), { recursive: true, encoding: 'utf8' }).filter(
  (file) => /\.d\.c?ts$/.test(file),
);
const bytes = (filter: (file: string) => boolean) =>
  declarations.filter(filter).reduce((sum, file) => sum + statSync(join(installed, 'dist', file)).size, 0);
console.log(
  `declarations: ${(bytes(() => true) / 1000).toFixed(0)} kB in ${declarations.length} files (ESM .d.ts ${(bytes((f) => f.endsWith('.d.ts')) / 1000).toFixed(0)} kB)`,
);
const worst = Math.max((result.EventsClient as Run).ms, (result.AgentServerClient as Run).ms);
console.log(`types: ${(worst / baseline.ms).toFixed(2)}× ky alone`);
rmSync(work, { recursive: true, force: true });
