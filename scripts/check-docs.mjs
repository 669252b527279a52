#!/usr/bin/env node
// Type-checks every TypeScript snippet of the README and docs/ against the built package, the way a user's
// strict app would see it: `strict`, `exactOptionalPropertyTypes`, `skipLibCheck: false`, `module` and
// `moduleResolution` `nodenext`. Each ```ts block becomes one module of a scratch project whose
// node_modules/agent-platform-sdk points at this repository (run after `npm run build`).
//
// A snippet may use names it does not define (an id, a client made in an earlier block): declare them in an
// HTML comment right before the block, which readers do not see:
//   <!-- snippet-context: declare const conversationId: string; -->
// A block that is not meant to compile on its own (output, pseudo-code) is fenced ```ts nocheck.
//
// A block fenced ```ts run is also run, after the type check, against a simulated platform started here
// (agent-platform-sdk/testing), with its variables in the environment (AGENT_SERVER_URL, SESSION_API_KEY,
// RUNTIME_API_URL, …: docs/testing.md), as a user's app would run against a real platform. Such a block must
// stand alone (no snippet-context: its declarations do not exist at run time) and end within 30 s.
//
//   node scripts/check-docs.mjs [--keep]   (--keep leaves the scratch project for inspection)
import { spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const documents = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name)),
];

/** Every checked ```ts block of a Markdown text, with the context declared before it and its line. */
export function extractSnippets(markdown) {
  const snippets = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(ts|typescript)(\s+nocheck|\s+run)?\s*$/.exec(lines[i]);
    if (!fence) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].startsWith('```')) end++;
    if (fence[2]?.trim() !== 'nocheck') {
      const previous = lines[i - 1] ?? '';
      const context = /^<!--\s*snippet-context:\s*([\s\S]*?)\s*-->$/.exec(previous.trim());
      snippets.push({
        line: start,
        code: lines.slice(start, end).join('\n'),
        context: context?.[1] ?? '',
        run: fence[2]?.trim() === 'run',
      });
    }
    i = end;
  }
  return snippets;
}

async function main() {
  const project = mkdtempSync(join(tmpdir(), 'docs-snippets-'));
  const files = new Map();
  const runnable = [];
  for (const document of documents) {
    const name = relative(root, document).replaceAll('/', '__').replace(/\.md$/, '');
    for (const snippet of extractSnippets(readFileSync(document, 'utf8'))) {
      const file = `${name}__L${snippet.line}.ts`;
      // `export {}` keeps every snippet a module of its own (top-level await, no shared names).
      writeFileSync(join(project, file), `${snippet.context}\n${snippet.code}\nexport {};\n`);
      files.set(file, `${relative(root, document)}:${snippet.line}`);
      if (snippet.run) {
        if (snippet.context) {
          console.error(`check-docs: ${files.get(file)}: a \`ts run\` block cannot have a snippet-context`);
          process.exit(1);
        }
        runnable.push(file);
      }
    }
  }
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(root, join(project, 'node_modules/agent-platform-sdk'), 'dir');
  for (const dependency of ['@types', 'msw', 'ws', '@opentelemetry', 'vitest', '@vitest', 'expect-type']) {
    symlinkSync(join(root, 'node_modules', dependency), join(project, 'node_modules', dependency), 'dir');
  }
  writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        types: ['node'],
        strict: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ['*.ts'],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', project, '--pretty', 'false'],
    {
      cwd: project,
      encoding: 'utf8',
    },
  );
  const output = (tsc.stdout + tsc.stderr).replace(
    /^([\w.-]+\.ts)\((\d+),(\d+)\)/gm,
    (_, file, line, column) => {
      // Report the document and its line, not the scratch file (one line of context comes first).
      const where = files.get(file);
      if (!where) return `${file}(${line},${column})`;
      const [doc, first] = where.split(':');
      return `${doc}:${Number(first) + Number(line) - 2}:${column}`;
    },
  );
  if (tsc.status !== 0) {
    cleanUp(project);
    console.error(`check-docs: TypeScript snippets in the README and docs/ do not compile:\n${output}`);
    process.exit(1);
  }
  console.log(
    `check-docs: ${files.size} TypeScript snippets compile (strict, exactOptionalPropertyTypes, skipLibCheck false)`,
  );
  const failures = await runSnippets(project, runnable, files);
  cleanUp(project);
  if (failures > 0) {
    console.error(`check-docs: ${failures} of ${runnable.length} runnable snippets failed`);
    process.exit(1);
  }
  console.log(`check-docs: ${runnable.length} runnable snippets ran against the simulator`);
}

function cleanUp(project) {
  if (!process.argv.includes('--keep')) rmSync(project, { recursive: true, force: true });
  else console.error(`check-docs: scratch project kept at ${project}`);
}

/** Runs each snippet (Node strips the types) with the simulator's variables; returns how many failed. */
async function runSnippets(project, runnable, files) {
  if (runnable.length === 0) return 0;
  const { startSimulator } = await import('agent-platform-sdk/testing');
  const sim = await startSimulator();
  // Nothing from this machine's environment that could send a snippet to a real platform.
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...sim.env };
  let failures = 0;
  try {
    for (const file of runnable) {
      const result = await runFile(join(project, file), env);
      const ok = result.code === 0;
      if (!ok) failures += 1;
      console.log(`${ok ? '✔' : '✘'} ${files.get(file)} ran${ok ? '' : ` — ${result.why}`}`);
      if (!ok) console.log(result.output.replace(/^/gm, '    '));
    }
  } finally {
    await sim.close();
  }
  return failures;
}

function runFile(file, env) {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--no-warnings', file], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout, child.stderr])
      stream.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, output, why: signal === 'SIGKILL' ? 'timed out after 30 s' : `exit ${code ?? signal}` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main();
