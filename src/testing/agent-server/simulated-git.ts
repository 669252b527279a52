import type { SimulatedFiles } from './workspace-files.js';

type Snapshot = ReadonlyMap<string, string>;

/** One commit: what its repository's files held then (paths relative to the repository). */
export interface SimulatedCommit {
  sha: string;
  short_sha: string;
  subject: string;
  author: string;
  timestamp: string;
  parent: string | null;
  files: Snapshot;
}

export interface GitChangeEntry {
  status: 'ADDED' | 'UPDATED' | 'DELETED';
  path: string;
}

const text = new TextDecoder();

/**
 * Git over the simulated files, no `git` run: a repository is a folder with commits (made with `commit`, or by
 * `git commit -m` in the simulated shell); its changes are its files now against the last commit, an
 * untracked file counting as ADDED, as the real server lists them (docs/agent-server-client.md, "Git").
 */
export class SimulatedGit {
  readonly #files: SimulatedFiles;
  /** Commits per repository folder, oldest first. */
  readonly #repos = new Map<string, SimulatedCommit[]>();

  constructor(files: SimulatedFiles) {
    this.#files = files;
  }

  /** Records the files under `repo` as a commit; returns it. */
  commit(repo: string, subject: string, author = 'Simulated User'): SimulatedCommit {
    const root = trim(repo);
    const history = this.#repos.get(root) ?? [];
    const sha = Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) =>
      b.toString(16).padStart(2, '0'),
    ).join('');
    const commit: SimulatedCommit = {
      sha,
      short_sha: sha.slice(0, 7),
      subject,
      author,
      timestamp: new Date().toISOString(),
      parent: history.at(-1)?.sha ?? null,
      files: this.#snapshot(root),
    };
    history.push(commit);
    this.#repos.set(root, history);
    return commit;
  }

  /** The repository holding `path`: the deepest folder with commits, else `path` itself. */
  repositoryOf(path: string): string {
    let best: string | undefined;
    for (const root of this.#repos.keys()) {
      if ((path === root || path.startsWith(`${root}/`)) && (!best || root.length > best.length)) best = root;
    }
    return best ?? trim(path);
  }

  /** Files of the repository at `path` changed since its last commit (`ref` is accepted and ignored). */
  changes(path: string): GitChangeEntry[] {
    const root = this.repositoryOf(path);
    return compare(this.#repos.get(root)?.at(-1)?.files ?? new Map(), this.#snapshot(root));
  }

  /** A file before (last commit, or the commit `sha`'s parent) and after; texts without their final newline. */
  diff(filePath: string, sha?: string): { original: string | null; modified: string | null } {
    const root = this.repositoryOf(filePath);
    const relative = filePath.slice(root.length + 1);
    const history = this.#repos.get(root) ?? [];
    if (sha) {
      const index = history.findIndex((commit) => commit.sha.startsWith(sha));
      const after = history[index]?.files;
      const before = index > 0 ? history[index - 1]?.files : undefined;
      return { original: chomp(before?.get(relative)), modified: chomp(after?.get(relative)) };
    }
    const now = this.#files.read(filePath);
    return {
      original: chomp(history.at(-1)?.files.get(relative)),
      modified: chomp(now ? text.decode(now) : undefined),
    };
  }

  /** Newest first, as `git log`. */
  commits(
    path: string,
    limit = 20,
  ): { commits: Omit<SimulatedCommit, 'files' | 'parent'>[]; has_more: boolean } {
    const history = [...(this.#repos.get(this.repositoryOf(path)) ?? [])].reverse();
    return {
      commits: history.slice(0, limit).map(({ files: _files, parent: _parent, ...commit }) => commit),
      has_more: history.length > limit,
    };
  }

  /** What one commit changed against its parent; undefined for an unknown SHA. */
  commitChanges(sha: string, path: string): GitChangeEntry[] | undefined {
    const history = this.#repos.get(this.repositoryOf(path)) ?? [];
    const index = history.findIndex((commit) => commit.sha.startsWith(sha));
    if (index < 0) return undefined;
    return compare(history[index - 1]?.files ?? new Map(), (history[index] as SimulatedCommit).files);
  }

  #snapshot(root: string): Snapshot {
    const snapshot = new Map<string, string>();
    for (const file of this.#files.filesUnder(root)) {
      snapshot.set(file.slice(root.length + 1), text.decode(this.#files.read(file)));
    }
    return snapshot;
  }
}

function compare(before: Snapshot, after: Snapshot): GitChangeEntry[] {
  const changes: GitChangeEntry[] = [];
  for (const [path, content] of after) {
    if (!before.has(path)) changes.push({ status: 'ADDED', path });
    else if (before.get(path) !== content) changes.push({ status: 'UPDATED', path });
  }
  for (const path of before.keys()) if (!after.has(path)) changes.push({ status: 'DELETED', path });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

function trim(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function chomp(value: string | undefined): string | null {
  return value === undefined ? null : value.replace(/\n$/, '');
}
