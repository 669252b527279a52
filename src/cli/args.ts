import { errorJson } from './output.js';

/**
 * A tiny argument parser for the CLIs: long options (`--name value`, `--name=value`), short aliases
 * (`-o value`), boolean flags, positionals, `--` to end options, and `-` as a value (stdin/stdout).
 */

export interface OptionSpec {
  /** Long name without dashes, e.g. `output`. */
  name: string;
  /** One-letter alias without the dash, e.g. `o`. */
  short?: string;
  /** `string` takes a value; `boolean` is a flag. */
  type: 'string' | 'boolean';
  /** Shown in help, e.g. `FILE`. */
  valueName?: string;
  description: string;
}

export interface PositionalSpec {
  name: string;
  description: string;
  required?: boolean;
}

export interface CommandSpec {
  name: string;
  summary: string;
  /** Extra help text after the option list. */
  details?: string;
  positionals: PositionalSpec[];
  options: OptionSpec[];
}

export interface ParsedArgs {
  positionals: Record<string, string | undefined>;
  options: Record<string, string | boolean | undefined>;
  help: boolean;
}

/** A command line that does not fit the command (exit 2, like argparse). */
export class UsageError extends Error {
  override name = 'UsageError';
}

const HELP: OptionSpec = {
  name: 'help',
  short: 'h',
  type: 'boolean',
  description: 'Show this help and exit.',
};

export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const options: Record<string, string | boolean | undefined> = {};
  const values: string[] = [];
  const all = [...spec.options, HELP];
  let help = false;
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      values.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }
    let option: OptionSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq === -1 ? undefined : arg.slice(eq + 1);
      option = all.find((candidate) => candidate.name === name);
    } else {
      option = all.find((candidate) => candidate.short === arg[1]);
      if (arg.length > 2) inline = arg.slice(2);
    }
    if (!option) throw new UsageError(`unrecognized argument: ${arg}`);
    if (option === HELP) {
      help = true;
      continue;
    }
    if (option.type === 'boolean') {
      if (inline !== undefined)
        throw new UsageError(`argument ${display(option)}: ignored explicit argument '${inline}'`);
      options[option.name] = true;
      continue;
    }
    if (inline !== undefined) {
      options[option.name] = inline;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || (value.startsWith('-') && value !== '-')) {
      throw new UsageError(`argument ${display(option)}: expected one argument`);
    }
    options[option.name] = value;
    i++;
  }
  const positionals: Record<string, string | undefined> = {};
  if (!help) {
    const missing = spec.positionals.slice(values.length).filter((p) => p.required !== false);
    if (missing.length > 0) {
      throw new UsageError(`the following arguments are required: ${missing.map((p) => p.name).join(', ')}`);
    }
    if (values.length > spec.positionals.length) {
      throw new UsageError(`unrecognized arguments: ${values.slice(spec.positionals.length).join(' ')}`);
    }
  }
  spec.positionals.forEach((positional, index) => {
    positionals[positional.name] = values[index];
  });
  return { positionals, options, help };
}

function display(option: OptionSpec): string {
  return option.short ? `-${option.short}/--${option.name}` : `--${option.name}`;
}

/** `usage: prog name <pos> [options]` */
export function usageLine(prog: string, spec: CommandSpec): string {
  const positionals = spec.positionals.map((p) => (p.required === false ? `[${p.name}]` : p.name));
  const options = spec.options.map((option) => {
    const flag = option.short ? `-${option.short}` : `--${option.name}`;
    return option.type === 'boolean' ? `[${flag}]` : `[${flag} ${option.valueName ?? 'VALUE'}]`;
  });
  return `usage: ${[prog, spec.name, ...positionals, ...options].join(' ')}`;
}

/** The help text of one command. */
export function helpText(prog: string, spec: CommandSpec): string {
  const rows: [string, string][] = [
    ...spec.positionals.map((p): [string, string] => [p.name, p.description]),
    ...[...spec.options, HELP].map((option): [string, string] => {
      const value = option.type === 'string' ? ` ${option.valueName ?? 'VALUE'}` : '';
      const flags = option.short ? `-${option.short}, --${option.name}${value}` : `--${option.name}${value}`;
      return [flags, option.description];
    }),
  ];
  const width = Math.min(28, Math.max(...rows.map(([left]) => left.length)) + 2);
  const lines = rows.map(([left, right]) =>
    left.length + 2 > width ? `  ${left}\n  ${' '.repeat(width)}${right}` : `  ${left.padEnd(width)}${right}`,
  );
  return [
    usageLine(prog, spec),
    '',
    spec.summary,
    '',
    'arguments and options:',
    ...lines,
    ...(spec.details ? ['', spec.details] : []),
  ].join('\n');
}

export interface CommandLineText {
  out: (text: string) => void;
  err: (text: string) => void;
  /** What the program does, one sentence, for `--help`. */
  description: string;
  /** Lines after the command list in `--help` (environment, exit codes, …). */
  epilogue: string[];
  /** What `--version` prints after the program's name. */
  version: string;
}

/** `usage: prog {a,b,c} ...`, argparse's form. */
export function programUsage(prog: string, commands: readonly CommandSpec[]): string {
  return `usage: ${prog} {${commands.map((c) => c.name).join(',')}} ...`;
}

/** The program's `--help`: usage, description, one line per command (its summary's first sentence), epilogue. */
export function programHelp(prog: string, commands: readonly CommandSpec[], text: CommandLineText): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  const firstSentence = (summary: string) => `${summary.split('. ')[0]!.replace(/\.$/, '')}.`;
  return [
    programUsage(prog, commands),
    '',
    text.description,
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${firstSentence(c.summary)}`),
    '',
    `Run '${prog} help <command>' (or '${prog} <command> --help') for the options of a command, '${prog} --version' for the version.`,
    '',
    ...text.epilogue,
  ].join('\n');
}

/**
 * The subcommand named by `argv[0]` with its parsed arguments, or the exit code when there is nothing to run:
 * 0 after printing help or the version, 2 after a usage error (argparse's conventions, as the Python helper).
 * `help <command>` is the same as `<command> --help`.
 */
export function selectCommand<C extends CommandSpec>(
  prog: string,
  commands: readonly C[],
  argv: readonly string[],
  text: CommandLineText,
): { command: C; args: ParsedArgs } | { exit: number } {
  const [first, ...afterFirst] = argv;
  if (first === '-V' || first === '--version' || first === 'version') {
    text.out(`${prog} ${text.version}`);
    return { exit: 0 };
  }
  const helpFor = first === 'help' && afterFirst.length > 0;
  if (!helpFor && (first === '-h' || first === '--help' || first === 'help')) {
    text.out(programHelp(prog, commands, text));
    return { exit: 0 };
  }
  const [name, ...rest] = helpFor ? [afterFirst[0] as string, '--help'] : argv;
  // A usage error goes to stderr; under --json it is also one JSON object on stdout, as any failure.
  const usageError = (usage: string, message: string) => {
    text.err(usage);
    text.err(message);
    if (argv.includes('--json')) text.out(errorJson(new UsageError(message), `${usage}\n${message}`, 2));
    return { exit: 2 };
  };
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    return usageError(
      programUsage(prog, commands),
      name === undefined
        ? `${prog}: error: a command is required (see ${prog} --help)`
        : `${prog}: error: invalid choice: '${name}' (choose from ${commands.map((c) => `'${c.name}'`).join(', ')})`,
    );
  }
  try {
    const args = parseArgs(rest, command);
    if (!args.help) return { command, args };
    text.out(helpText(prog, command));
    return { exit: 0 };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usageError(usageLine(prog, command), `${prog} ${command.name}: error: ${error.message}`);
  }
}
