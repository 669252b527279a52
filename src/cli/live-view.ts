import type { Event, ReconnectInfo, StreamDelta } from '../index.js';
import { cut, type EventLine, eventLine, oneLine } from './event-line.js';

/** Where the view writes, and what that terminal can do. */
export interface Screen {
  write(text: string): void;
  /** A terminal that takes cursor movements: then deltas show as typing and the status line stays at the bottom. */
  interactive: boolean;
  color: boolean;
  /** Columns; lines are cut to fit. */
  width: number;
}

const TONES: Record<EventLine['tone'], string> = {
  action: '36', // cyan
  observation: '2', // dim
  message: '1', // bold
  state: '33', // yellow
  error: '31', // red
  other: '2',
};

const STATUS_TONES: Record<string, string> = { finished: '32', error: '31', stuck: '31', running: '36' };

/**
 * A live view of one conversation, one line per event. On an interactive terminal the bottom holds a status
 * line (execution status, reconnects) and, while the LLM streams, the text being typed above it; both are
 * redrawn below each new event. Elsewhere (a pipe, a file, CI) it writes plain lines only: no colour, no
 * cursor movement, no typing, and reconnects as lines of their own.
 */
export class LiveView {
  readonly #screen: Screen;
  #status = 'connecting';
  #reconnects = 0;
  /** Streamed text of the item being typed, newest attempt only. */
  #typing = '';
  #typingItem: string | undefined;
  #typingAttempt = 0;
  /** Footer lines drawn below the last event (to clear before the next one). */
  #footer = 0;

  constructor(screen: Screen) {
    this.#screen = screen;
  }

  event(event: Event): void {
    const line = eventLine(event, this.#screen.width);
    // The persisted message or action carries the final text of what was being typed.
    if (line.tone === 'message' || line.tone === 'action') this.#typing = '';
    this.#print(this.#paint(line.text, TONES[line.tone]));
  }

  delta(delta: StreamDelta): void {
    if (!this.#screen.interactive) return;
    if (delta.type === 'item_started' || delta.type === 'item_aborted') {
      this.#typing = '';
      this.#typingItem = delta.itemId;
      this.#typingAttempt = delta.attempt;
    } else {
      if (delta.itemId !== this.#typingItem || delta.attempt !== this.#typingAttempt) {
        this.#typing = '';
        this.#typingItem = delta.itemId;
        this.#typingAttempt = delta.attempt;
      }
      this.#typing += delta.content;
    }
    this.#redrawFooter();
  }

  status(status: string): void {
    if (status === this.#status) return;
    this.#status = status;
    this.#redrawFooter();
  }

  reconnecting(info: ReconnectInfo): void {
    this.#reconnects += 1;
    const delay = info.delay === undefined ? '' : `, next try in ${info.delay} ms`;
    const text = `↻ reconnecting (${info.reason}${info.closeCode ? ` ${info.closeCode}` : ''}${delay})`;
    if (this.#screen.interactive) this.#redrawFooter();
    else this.#print(text);
  }

  /** A line in red (an error that ends the view, or a notice). */
  error(message: string): void {
    this.#print(this.#paint(`✗ ${oneLine(message)}`, TONES.error));
  }

  /** Leaves the status line as the last line of the screen, with a newline after it. */
  end(): void {
    if (!this.#screen.interactive) return;
    this.#typing = '';
    this.#redrawFooter();
    this.#screen.write('\n');
    this.#footer = 0;
  }

  #print(line: string): void {
    if (!this.#screen.interactive) {
      this.#screen.write(`${line}\n`);
      return;
    }
    this.#screen.write(`${this.#clearFooter()}${line}\n`);
    this.#footer = 0;
    this.#drawFooter();
  }

  #redrawFooter(): void {
    if (!this.#screen.interactive) return;
    this.#screen.write(this.#clearFooter());
    this.#footer = 0;
    this.#drawFooter();
  }

  #drawFooter(): void {
    const lines: string[] = [];
    const width = this.#screen.width;
    if (this.#typing) {
      const text = oneLine(this.#typing);
      // The newest characters, as they are typed.
      const tail = text.length > width - 4 ? `…${text.slice(text.length - (width - 5))}` : text;
      lines.push(this.#paint(`✎ ${tail}`, '2'));
    }
    const reconnects = this.#reconnects === 1 ? '1 reconnect' : `${this.#reconnects} reconnects`;
    const status = this.#paint(`● ${this.#status}`, STATUS_TONES[this.#status] ?? '0');
    lines.push(`${status}${this.#paint(cut(` · ${reconnects}`, width), '2')}`);
    this.#screen.write(lines.join('\n'));
    this.#footer = lines.length;
  }

  /** Moves to the first footer line and clears it and everything below. */
  #clearFooter(): string {
    if (this.#footer === 0) return '';
    return `${'\x1b[1A'.repeat(this.#footer - 1)}\r\x1b[J`;
  }

  #paint(text: string, code: string): string {
    return this.#screen.color && code !== '0' ? `\x1b[${code}m${text}\x1b[0m` : text;
  }
}
