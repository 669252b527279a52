/**
 * The simulated machine's files for the file handlers: exact bytes by absolute path, folders implied by their
 * files or made explicitly (as `create_directory` does). Shared by the server-wide and runtime routes.
 */
export class SimulatedFiles {
  readonly #files = new Map<string, Uint8Array>();
  readonly #folders = new Set<string>(['/']);

  write(path: string, bytes: Uint8Array): void {
    this.#files.set(path, bytes.slice());
    this.mkdir(path.slice(0, path.lastIndexOf('/')) || '/');
  }

  read(path: string): Uint8Array | undefined {
    return this.#files.get(path)?.slice();
  }

  mkdir(path: string): void {
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) this.#folders.add(`/${parts.slice(0, i).join('/')}`);
  }

  /** Every file at or under `path`, sorted. */
  filesUnder(path: string): string[] {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    return [...this.#files.keys()].filter((file) => file === path || file.startsWith(prefix)).sort();
  }

  isFolder(path: string): boolean {
    return this.#folders.has(path.replace(/(.)\/+$/, '$1'));
  }

  /** Direct sub-folders of `path`. */
  subfolders(path: string): string[] {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    return [...this.#folders]
      .filter((f) => f.startsWith(prefix) && !f.slice(prefix.length).includes('/'))
      .sort();
  }
}
