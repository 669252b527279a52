/** What a simulated command printed. */
export interface BashResult {
  stdout: string;
  stderr: string;
  exit_code: number;
}

type Stored = Record<string, unknown> & { id: string; kind: string; timestamp: string };

/**
 * A few shell commands, enough for tests: `echo …`, `printf …`, `pwd`, `false`, `exit N`, joined by `;`.
 * Anything else ends with exit code 127 and "command not found" on stderr, as bash says.
 */
export function runSimulatedCommand(command: string, cwd: string): BashResult {
  let stdout = '';
  let stderr = '';
  for (const part of command
    .split(';')
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const toErr = /\s*>&2$/.test(part);
    const text = part.replace(/\s*>&2$/, '');
    const write = (value: string) => {
      if (toErr) stderr += value;
      else stdout += value;
    };
    const exit = /^exit\s+(\d+)$/.exec(text);
    if (exit) return { stdout, stderr, exit_code: Number(exit[1]) };
    if (text === 'false') return { stdout, stderr, exit_code: 1 };
    if (text === 'pwd') write(`${cwd}\n`);
    else if (text.startsWith('echo ')) write(`${unquote(text.slice(5))}\n`);
    else if (text.startsWith('printf ')) write(unquote(text.slice(7)).replaceAll('\\n', '\n'));
    else
      return { stdout, stderr: `${stderr}bash: ${text.split(' ')[0]}: command not found\n`, exit_code: 127 };
  }
  return { stdout, stderr, exit_code: 0 };
}

function unquote(text: string): string {
  const trimmed = text.trim();
  return /^(['"]).*\1$/.test(trimmed) ? trimmed.slice(1, -1) : trimmed;
}

const hex = () => crypto.randomUUID().replaceAll('-', '');

/** The bash event log of the simulated server: commands and their single output chunk. */
export class SimulatedBash {
  readonly #events: Stored[] = [];
  readonly #shell: (command: string, cwd: string) => BashResult;
  /** `/sockets/bash-events` subscribers: each gets every event as it is stored. */
  readonly #subscribers = new Set<(event: Stored) => void>();

  constructor(shell: (command: string, cwd: string) => BashResult) {
    this.#shell = shell;
  }

  /** Calls `listener` with every event stored from now on; returns the unsubscribe. */
  subscribe(listener: (event: Stored) => void): () => void {
    this.#subscribers.add(listener);
    return () => this.#subscribers.delete(listener);
  }

  /** Every stored event, oldest first (the socket's `resend_all`). */
  all(): readonly Stored[] {
    return [...this.#events];
  }

  #store(event: Stored): void {
    this.#events.push(event);
    for (const listener of this.#subscribers) listener(event);
  }

  start(command: string, cwd: unknown, timeout: unknown): Stored {
    const event: Stored = {
      command,
      cwd: typeof cwd === 'string' ? cwd : null,
      timeout: typeof timeout === 'number' ? timeout : 300,
      id: hex(),
      timestamp: new Date().toISOString(),
      kind: 'BashCommand',
    };
    this.#store(event);
    return event;
  }

  finish(command: Stored): Stored {
    const result = this.#shell(
      String(command.command),
      typeof command.cwd === 'string' ? command.cwd : '/workspace',
    );
    const output: Stored = {
      id: hex(),
      timestamp: new Date().toISOString(),
      command_id: command.id,
      order: 0,
      exit_code: result.exit_code,
      stdout: result.stdout || null,
      stderr: result.stderr || null,
      kind: 'BashOutput',
    };
    this.#store(output);
    return output;
  }

  get(id: string): Stored | undefined {
    return this.#events.find((event) => event.id === id);
  }

  clear(): number {
    const count = this.#events.length;
    this.#events.length = 0;
    return count;
  }

  /** A page as the real server gives it; page ids are `<timestamp>_<kind>_<id>` (1.58.0). */
  search(query: URLSearchParams): { items: Stored[]; next_page_id: string | null } {
    const kind = query.get('kind__eq');
    const commandId = query.get('command_id__eq');
    const since = query.get('timestamp__gte');
    let items = this.#events.filter(
      (event) =>
        (!kind || event.kind === kind) &&
        (!commandId || event.command_id === commandId) &&
        (!since || event.timestamp >= since),
    );
    if (query.get('sort_order') === 'TIMESTAMP_DESC') items = [...items].reverse();
    const limit = Number(query.get('limit') ?? 100);
    const pageId = query.get('page_id');
    const start = pageId
      ? Math.max(
          0,
          items.findIndex((event) => pageId.endsWith(`_${event.id}`)),
        )
      : 0;
    const page = items.slice(start, start + limit);
    const next = items[start + limit];
    const idOf = (event: Stored) => `${event.timestamp.replace(/\D/g, '')}_${event.kind}_${event.id}`;
    return { items: page, next_page_id: next ? idOf(next) : null };
  }
}

const SHARED = new WeakMap<object, SimulatedBash>();

/**
 * The one bash log of a simulated server: the REST handlers and the `/sockets/bash-events` handler of the same
 * store share it (made by whichever comes first; `makeShell` only runs then).
 */
export function sharedBash(
  store: object,
  makeShell: () => (command: string, cwd: string) => BashResult,
): SimulatedBash {
  let bash = SHARED.get(store);
  if (!bash) {
    bash = new SimulatedBash(makeShell());
    SHARED.set(store, bash);
  }
  return bash;
}
