// The simulated shell and git over in-memory files: what a command prints and exits with, as the real
// 1.58.0 server's /bin/sh and git answered in the conformance runs (docs/compatibility.md A21).
import { describe, expect, it } from 'vitest';
import { SimulatedFiles, SimulatedGit, simulatedShell } from '../../src/testing.js';

function machine() {
  const files = new SimulatedFiles();
  const git = new SimulatedGit(files);
  return { files, git, run: simulatedShell({ files, git }) };
}

const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

describe('simulatedShell', () => {
  it('ls -la lists the folder like GNU ls: total, . and .., folders and files with their sizes', () => {
    const { files, run } = machine();
    files.write('/w/a.txt', new TextEncoder().encode('hello'));
    files.mkdir('/w/sub');
    const out = run('ls -la', '/w');
    expect(out.exit_code).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('total 16');
    expect(lines.slice(1).map((line) => line.split(/\s+/).at(-1))).toEqual(['.', '..', 'a.txt', 'sub']);
    expect(lines[3]).toMatch(/^-rw-r--r-- 1 openhands openhands\s+5 \w{3} \d{2} \d{2}:\d{2} a\.txt$/);
    expect(lines[4]).toMatch(/^drwxr-xr-x 2 /);
    expect(run('ls', '/w').stdout).toBe('a.txt\nsub\n');
  });

  it('an unknown command exits 127 as /bin/sh says, and stops the line', () => {
    const { run } = machine();
    expect(run('echo one; nosuch --flag; echo never', '/')).toEqual({
      stdout: 'one\n',
      stderr: '/bin/sh: 1: nosuch: not found\n',
      exit_code: 127,
    });
  });

  it('&& stops at a failure, ; goes on; the last status is the exit code', () => {
    const { run } = machine();
    expect(run('false && echo skipped', '/')).toEqual({ stdout: '', stderr: '', exit_code: 1 });
    expect(run('false; echo ran', '/')).toEqual({ stdout: 'ran\n', stderr: '', exit_code: 0 });
    expect(run('cat /missing', '/')).toMatchObject({
      exit_code: 1,
      stderr: 'cat: /missing: No such file or directory\n',
    });
    expect(run('echo out; echo err >&2; exit 3', '/')).toEqual({
      stdout: 'out\n',
      stderr: 'err\n',
      exit_code: 3,
    });
  });

  it('redirects write the simulated files; cd changes the folder of the next commands', () => {
    const { files, run } = machine();
    files.mkdir('/w/d');
    expect(run('cd d && echo "a b" > f.txt && echo c >> f.txt && pwd', '/w')).toEqual({
      stdout: '/w/d\n',
      stderr: '',
      exit_code: 0,
    });
    expect(text(files.read('/w/d/f.txt'))).toBe('a b\nc\n');
    expect(run('cd nowhere', '/w').exit_code).not.toBe(0);
  });

  it('git commit -m records the files; changes and diff compare with it; a second commit lists its own changes', () => {
    const { files, git, run } = machine();
    files.write('/r/a.txt', new TextEncoder().encode('one\n'));
    expect(run('git init && git add . && git commit -m first', '/r').exit_code).toBe(0);
    expect(git.changes('/r')).toEqual([]);
    run('printf "two\\n" > a.txt; echo new > b.txt', '/r');
    expect(git.changes('/r')).toEqual([
      { status: 'UPDATED', path: 'a.txt' },
      { status: 'ADDED', path: 'b.txt' },
    ]);
    expect(git.diff('/r/a.txt')).toEqual({ original: 'one', modified: 'two' });
    expect(run('git commit -m second', '/r').stdout).toMatch(
      /^\[main [0-9a-f]{7}\] second\n 2 files changed\n$/,
    );
    const [second, first] = git.commits('/r').commits;
    expect([second?.subject, first?.subject]).toEqual(['second', 'first']);
    expect(git.commitChanges(second?.sha as string, '/r')).toEqual([
      { status: 'UPDATED', path: 'a.txt' },
      { status: 'ADDED', path: 'b.txt' },
    ]);
    expect(git.diff('/r/a.txt', second?.sha)).toEqual({ original: 'one', modified: 'two' });
    expect(run('git commit -m again', '/r')).toMatchObject({
      exit_code: 1,
      stdout: 'nothing to commit, working tree clean\n',
    });
  });
});
