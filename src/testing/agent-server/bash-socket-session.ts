import type { SimulatedBash } from './bash-simulation.js';
import { legacyKey, type SocketPeer, type SocketSimulationOptions } from './socket-session.js';

/**
 * The server side of `/sockets/bash-events` after the handshake, as the real server's `bash_events_socket`
 * runs it: the same auth as the events socket (first-message auth when no key came with the handshake), no
 * snapshot, every stored bash event first when `resend_mode=all` or the deprecated `resend_all=true`, then
 * each new one as it is stored (a command run meanwhile may arrive twice: the client drops it by id). A client
 * frame is an `ExecuteBashRequest` that starts a command; one that is not gets a `BashError` reply.
 */
export class BashSocketSession {
  readonly #peer: SocketPeer;
  readonly #url: URL;
  readonly #options: SocketSimulationOptions;
  readonly #bash: SimulatedBash;
  #authenticated: boolean;
  #authTimer: ReturnType<typeof setTimeout> | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(
    peer: SocketPeer,
    url: URL,
    headerKey: string | undefined,
    options: SocketSimulationOptions,
    bash: SimulatedBash,
  ) {
    this.#peer = peer;
    this.#url = url;
    this.#options = options;
    this.#bash = bash;
    this.#authenticated =
      options.sessionApiKey === undefined || legacyKey(url, headerKey, options.version) !== undefined;
  }

  start(): void {
    if (this.#authenticated) {
      this.#begin();
      return;
    }
    this.#authTimer = setTimeout(
      () => this.#close(4001, 'Authentication failed'),
      this.#options.authTimeoutMs ?? 10_000,
    );
  }

  onMessage(text: string): void {
    let frame: Record<string, unknown> | undefined;
    try {
      frame = JSON.parse(text) as Record<string, unknown>;
    } catch {
      frame = undefined;
    }
    if (!this.#authenticated) {
      clearTimeout(this.#authTimer);
      if (frame?.type === 'auth' && frame.session_api_key === this.#options.sessionApiKey) {
        this.#authenticated = true;
        this.#begin();
      } else this.#close(4001, 'Authentication failed');
      return;
    }
    if (frame?.type === 'auth') return;
    if (typeof frame?.command !== 'string') {
      this.#send({ kind: 'BashError', code: 'ValidationError', detail: 'command: Field required' });
      return;
    }
    const command = this.#bash.start(frame.command, frame.cwd, frame.timeout);
    queueMicrotask(() => this.#bash.finish(command));
  }

  onClose(): void {
    clearTimeout(this.#authTimer);
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #begin(): void {
    // Subscribed before the resend, as the real server does: an event stored meanwhile may come twice.
    this.#unsubscribe = this.#bash.subscribe((event) => this.#send(event));
    const query = this.#url.searchParams;
    if (query.get('resend_mode') === 'all' || query.get('resend_all') === 'true')
      for (const event of this.#bash.all()) this.#send(event);
  }

  #send(value: unknown): void {
    this.#peer.send(JSON.stringify(value));
  }

  #close(code: number, reason: string): void {
    this.onClose();
    this.#peer.close(code, reason);
  }
}
