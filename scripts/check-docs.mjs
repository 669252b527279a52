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
//   node scripts/check-docs.mjs [--keep]   (--keep leaves the scratch project for inspection)
import { spawnSync } from 'node:child_process';
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
    const fence = /^```(ts|typescript)(\s+nocheck)?\s*$/.exec(lines[i]);
    if (!fence) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].startsWith('```')) end++;
    if (!fence[2]) {
      const previous = lines[i - 1] ?? '';
      const context = /^<!--\s*snippet-context:\s*([\s\S]*?)\s*-->$/.exec(previous.trim());
      snippets.push({ line: start, code: lines.slice(start, end).join('\n'), context: context?.[1] ?? '' });
    }
    i = end;
  }
  return snippets;
}

function main() {
  const project = mkdtempSync(join(tmpdir(), 'docs-snippets-'));
  const files = new Map();
  for (const document of documents) {
    const name = relative(root, document).replaceAll('/', '__').replace(/\.md$/, '');
    for (const snippet of extractSnippets(readFileSync(document, 'utf8'))) {
      const file = `${name}__L${snippet.line}.ts`;
      // `export {}` keeps every snippet a module of its own (top-level await, no shared names).
      writeFileSync(join(project, file), `${snippet.context}\n${snippet.code}\nexport {};\n`);
      files.set(file, `${relative(root, document)}:${snippet.line}`);
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
  if (!process.argv.includes('--keep')) rmSync(project, { recursive: true, force: true });
  else console.error(`check-docs: scratch project kept at ${project}`);
  if (tsc.status !== 0) {
    console.error(`check-docs: TypeScript snippets in the README and docs/ do not compile:\n${output}`);
    process.exit(1);
  }
  console.log(
    `check-docs: ${files.size} TypeScript snippets compile (strict, exactOptionalPropertyTypes, skipLibCheck false)`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
