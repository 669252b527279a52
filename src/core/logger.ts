import { redactText, redactValue } from './redact.js';

export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Anything with console-like methods: `console`, pino, winston… */
export interface Logger {
  error(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  debug(message: string, ...rest: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * The logger every client uses: filters by level and redacts secrets from the message and every argument,
 * so a user's logger never sees a credential, whatever the SDK logs.
 */
export class SafeLogger {
  readonly #target: Logger;
  readonly #level: number;
  readonly #secrets: () => readonly string[];

  constructor(target: Logger | undefined, level: LogLevel | undefined, secrets: () => readonly string[]) {
    this.#target = target ?? console;
    this.#level = RANK[level ?? 'warn'];
    this.#secrets = secrets;
  }

  error(message: string, meta?: unknown): void {
    this.#log('error', message, meta);
  }
  warn(message: string, meta?: unknown): void {
    this.#log('warn', message, meta);
  }
  info(message: string, meta?: unknown): void {
    this.#log('info', message, meta);
  }
  debug(message: string, meta?: unknown): void {
    this.#log('debug', message, meta);
  }

  #log(level: Exclude<LogLevel, 'off'>, message: string, meta: unknown): void {
    if (RANK[level] > this.#level) return;
    const secrets = this.#secrets();
    const line = `[agent-platform-sdk] ${redactText(message, secrets)}`;
    if (meta === undefined) this.#target[level](line);
    else this.#target[level](line, redactValue(meta, secrets));
  }
}
