import { describe, expect, it } from 'vitest';
import { type CommandSpec, helpText, parseArgs, UsageError } from '../../src/cli/args.js';

const spec: CommandSpec = {
  name: 'save',
  summary: 'Save.',
  positionals: [{ name: 'name', description: 'Name.' }],
  options: [
    { name: 'file', short: 'f', type: 'string', valueName: 'FILE', description: 'Body file.' },
    { name: 'json', type: 'boolean', description: 'JSON.' },
  ],
};

describe('parseArgs', () => {
  it.each([
    [['php', '-f', 'body.json'], 'body.json'],
    [['php', '--file', 'body.json'], 'body.json'],
    [['php', '--file=body.json'], 'body.json'],
    [['-f', '-', 'php'], '-'],
    [['php', '-fbody.json'], 'body.json'],
  ])('%j', (argv, file) => {
    const parsed = parseArgs(argv, spec);
    expect(parsed.positionals.name).toBe('php');
    expect(parsed.options.file).toBe(file);
  });

  it('flags and --', () => {
    expect(parseArgs(['--json', '--', '-weird-name'], spec)).toEqual({
      positionals: { name: '-weird-name' },
      options: { json: true },
      help: false,
    });
  });

  it('--help wins over missing positionals', () => {
    expect(parseArgs(['--help'], spec).help).toBe(true);
    expect(parseArgs(['-h'], spec).help).toBe(true);
  });

  it.each([
    [[], 'the following arguments are required: name'],
    [['a', 'b'], 'unrecognized arguments: b'],
    [['a', '--nope'], 'unrecognized argument: --nope'],
    [['a', '-f'], 'argument -f/--file: expected one argument'],
    [['a', '-f', '--json'], 'argument -f/--file: expected one argument'],
    [['a', '--json=yes'], "argument --json: ignored explicit argument 'yes'"],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseArgs(argv, spec)).toThrowError(new UsageError(message));
  });

  it('help text lists positionals and options', () => {
    const text = helpText('warm-pools', spec);
    expect(text).toContain('usage: warm-pools save name [-f FILE] [--json]');
    expect(text).toContain('-f, --file FILE');
    expect(text).toContain('-h, --help');
  });
});
