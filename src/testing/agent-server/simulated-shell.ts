import type { BashResult } from './bash-simulation.js';
import type { SimulatedGit } from './simulated-git.js';
import type { SimulatedFiles } from './workspace-files.js';

/** The simulated machine a command sees. */
export interface SimulatedMachine {
  files: SimulatedFiles;
  git: SimulatedGit;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A small shell over the simulated files: nothing real runs. Knows `echo`, `printf`, `pwd`, `cd`, `ls [-la]`,
 * `cat`, `mkdir [-p]`, `touch`, `whoami`, `true`, `false`, `exit N`, `> file` / `>> file` / `>&2`, and
 * `git init|add|status|commit -m`; commands are joined by `;` or `&&`. Anything else ends with exit code 127
 * and `/bin/sh: 1: NAME: not found` on stderr, as the real server's shell (`/bin/sh`) says.
 */
export function simulatedShell(machine: SimulatedMachine) {
  return (command: string, cwd: string): BashResult => {
    const out = { stdout: '', stderr: '' };
    let dir = cwd;
    let status = 0;
    for (const { text, joiner } of split(command)) {
      if (joiner === '&&' && status !== 0) break;
      const redirect = /\s*(>&2|>>?)\s*([^\s>]*)$/.exec(text);
      const body = redirect ? text.slice(0, redirect.index) : text;
      const words = tokens(body);
      const exit = /^exit$/.test(words[0] ?? '') ? Number(words[1] ?? 0) : undefined;
      if (exit !== undefined) return { ...out, exit_code: exit };
      const result = runOne(words, dir, machine);
      if (result.cwd) dir = result.cwd;
      status = result.code;
      if (redirect?.[1] === '>&2') out.stderr += result.stdout;
      else if (redirect) {
        const target = resolve(dir, redirect[2] ?? '');
        const before = redirect[1] === '>>' ? decoder.decode(machine.files.read(target)) : '';
        machine.files.write(target, encoder.encode(before + result.stdout));
      } else out.stdout += result.stdout;
      out.stderr += result.stderr;
      if (result.code === 127) return { ...out, exit_code: 127 };
    }
    return { ...out, exit_code: status };
  };
}

interface One {
  stdout: string;
  stderr: string;
  code: number;
  cwd?: string;
}

function runOne(words: string[], cwd: string, { files, git }: SimulatedMachine): One {
  const [name = '', ...args] = words;
  const ok = (stdout = ''): One => ({ stdout, stderr: '', code: 0 });
  const fail = (stderr: string, code = 1): One => ({ stdout: '', stderr, code });
  const paths = args.filter((arg) => !arg.startsWith('-')).map((arg) => resolve(cwd, arg));
  switch (name) {
    case '':
    case 'true':
      return ok();
    case 'false':
      return fail('');
    case 'pwd':
      return ok(`${cwd}\n`);
    case 'whoami':
      return ok('openhands\n');
    case 'echo':
      return ok(`${args.join(' ')}\n`);
    case 'printf':
      return ok((args[0] ?? '').replaceAll('\\n', '\n'));
    case 'cd': {
      const target = paths[0] ?? '/workspace';
      return files.isFolder(target)
        ? { ...ok(), cwd: target }
        : fail(`/bin/sh: 1: cd: can't cd to ${args[0]}\n`, 2);
    }
    case 'mkdir':
      for (const path of paths) files.mkdir(path);
      return ok();
    case 'touch':
      for (const path of paths) files.write(path, files.read(path) ?? new Uint8Array());
      return ok();
    case 'cat': {
      let stdout = '';
      for (const path of paths) {
        const bytes = files.read(path);
        if (!bytes) return { stdout, stderr: `cat: ${path}: No such file or directory\n`, code: 1 };
        stdout += decoder.decode(bytes);
      }
      return ok(stdout);
    }
    case 'ls':
      return list(files, paths[0] ?? cwd, args.filter((arg) => arg.startsWith('-')).join(''));
    case 'git':
      return gitCommand(args, cwd, git);
    default:
      return fail(`/bin/sh: 1: ${name}: not found\n`, 127);
  }
}

function gitCommand(args: string[], cwd: string, git: SimulatedGit): One {
  const ok = (stdout = ''): One => ({ stdout, stderr: '', code: 0 });
  switch (args[0]) {
    case 'init':
      return ok(`Initialized empty Git repository in ${cwd}/.git/\n`);
    case 'add':
    case 'config':
      return ok();
    case 'status': {
      const changes = git.changes(cwd);
      return ok(
        changes.map((change) => `${change.status === 'ADDED' ? '??' : ' M'} ${change.path}\n`).join(''),
      );
    }
    case 'commit': {
      const message = args[args.indexOf('-m') + 1];
      if (!args.includes('-m') || message === undefined)
        return { stdout: '', stderr: 'error: switch `m` requires a value\n', code: 129 };
      const changed = git.changes(cwd).length;
      if (changed === 0) return { stdout: 'nothing to commit, working tree clean\n', stderr: '', code: 1 };
      const commit = git.commit(git.repositoryOf(cwd), message);
      return ok(
        `[main ${commit.short_sha}] ${message}\n ${changed} file${changed === 1 ? '' : 's'} changed\n`,
      );
    }
    default:
      return { stdout: '', stderr: `git: '${args[0]}' is not a git command. See 'git --help'.\n`, code: 1 };
  }
}

/** `ls` / `ls -la` of a folder of the simulated files. */
function list(files: SimulatedFiles, path: string, flags: string): One {
  const prefix = path === '/' ? '/' : `${path}/`;
  const folders = files.subfolders(path).map((folder) => folder.slice(prefix.length));
  const own = files
    .filesUnder(path)
    .map((file) => file.slice(prefix.length))
    .filter((name) => name !== '' && !name.includes('/'));
  if (!files.isFolder(path)) {
    if (files.read(path)) return { stdout: `${path}\n`, stderr: '', code: 0 };
    return { stdout: '', stderr: `ls: cannot access '${path}': No such file or directory\n`, code: 2 };
  }
  const hidden = flags.includes('a');
  const names = [...folders, ...own].filter((name) => hidden || !name.startsWith('.')).sort();
  if (!flags.includes('l'))
    return { stdout: names.length ? `${names.join('\n')}\n` : '', stderr: '', code: 0 };
  // As GNU ls prints it: links, owner, group, size right-aligned, `Mon DD HH:MM`, name.
  const now = new Date();
  const stamp = `${now.toDateString().slice(4, 10)} ${now.toTimeString().slice(0, 5)}`;
  const line = (mode: string, size: number, name: string) =>
    `${mode} ${mode.startsWith('d') ? 2 : 1} openhands openhands ${String(size).padStart(4)} ${stamp} ${name}\n`;
  const rows = [
    ...(hidden ? [line('drwxr-xr-x', 4096, '.'), line('drwxr-xr-x', 4096, '..')] : []),
    ...names.map((name) =>
      folders.includes(name)
        ? line('drwxr-xr-x', 4096, name)
        : line('-rw-r--r--', files.read(`${prefix}${name}`)?.byteLength ?? 0, name),
    ),
  ];
  return { stdout: `total ${4 * rows.length}\n${rows.join('')}`, stderr: '', code: 0 };
}

/** Splits on `;` and `&&` outside quotes. */
function split(command: string): { text: string; joiner: ';' | '&&' }[] {
  const parts: { text: string; joiner: ';' | '&&' }[] = [];
  let current = '';
  let quote = '';
  let joiner: ';' | '&&' = ';';
  for (let i = 0; i < command.length; i += 1) {
    const char = command[i] as string;
    if (quote) {
      if (char === quote) quote = '';
      current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if (char === ';' || (char === '&' && command[i + 1] === '&')) {
      if (current.trim()) parts.push({ text: current.trim(), joiner });
      joiner = char === ';' ? ';' : '&&';
      if (char === '&') i += 1;
      current = '';
    } else current += char;
  }
  if (current.trim()) parts.push({ text: current.trim(), joiner });
  return parts;
}

/** Words, with quotes removed. */
function tokens(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

function resolve(cwd: string, path: string): string {
  const parts = (path.startsWith('/') ? path : `${cwd}/${path}`).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}
