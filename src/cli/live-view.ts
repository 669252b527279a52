import {
  type ConversationItem,
  type ConversationSnapshot,
  type Event,
  isTerminalExecutionStatus,
} from '../index.js';
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
  error: '31', // red
  other: '2',
};

const STATUS_TONES: Record<string, string> = { finished: '32', error: '31', stuck: '31', running: '36' };

/**
 * A conversation in a terminal, from the snapshots of a `ConversationView`: the same items a web page shows
 * (docs/conversation-view.md, "Items"), one line per persisted event of an item, in item order. A tool call's
 * result is its own line, printed when it arrives. State updates are no lines: the execution status and the
 * run's cost are in the status line. On an interactive terminal the bottom holds that status line (status,
 * reconnects, cost) and, while the LLM streams, the text being typed above it; both are redrawn below each new
 * line. Elsewhere (a pipe, a file, CI) it writes plain lines only: no colour, no cursor movement, no typing;
 * a change of execution status and a reconnect are lines of their own there.
 */
export class LiveView {
  readonly #screen: Screen;
  #status = 'connecting';
  #cost: number | undefined;
  #reconnects = 0;
  #connection: ConversationSnapshot['connection'] = 'connecting';
  /** Streamed text of the response being typed (the view's streaming item). */
  #typing = '';
  /** Footer lines drawn below the last line (to clear before the next one). */
  #footer = 0;
  /** Events printed, by id, and items whose every event was printed (items never change: `===` is enough). */
  readonly #printed = new Set<string>();
  readonly #done = new WeakSet<ConversationItem>();

  constructor(screen: Screen) {
    this.#screen = screen;
  }

  /**
   * Shows a snapshot: lines for the events not printed yet, and the status line. Off a terminal, a new status
   * is a line: before the events when the run goes on (they happened in it), after them when it ended.
   */
  show(snapshot: ConversationSnapshot): void {
    const streamed = snapshot.items.find((item) => item.streaming);
    const typing = this.#screen.interactive ? (streamed?.text ?? '') : '';
    const reconnected = snapshot.connection === 'reconnecting' && this.#connection !== 'reconnecting';
    this.#connection = snapshot.connection;
    const status = snapshot.status === undefined ? this.#status : String(snapshot.status);
    const cost = costOf(snapshot.state?.stats);
    const statusLine = status !== this.#status && !this.#screen.interactive ? `● ${status}` : undefined;
    const changed = reconnected || status !== this.#status || cost !== this.#cost || typing !== this.#typing;
    this.#status = status;
    this.#cost = cost;
    this.#typing = typing;
    if (reconnected) this.#reconnected();
    const ended = isTerminalExecutionStatus(status);
    if (statusLine && !ended) this.#print(statusLine);
    this.items(snapshot.items);
    if (statusLine && ended) this.#print(statusLine);
    if (changed) this.#redrawFooter();
  }

  /** Prints the persisted events of `items` not printed yet (pending and streamed items have none). */
  items(items: readonly ConversationItem[]): void {
    for (const item of items) {
      if (this.#done.has(item)) continue;
      for (const event of item.events) {
        const id = String(event.id);
        if (this.#printed.has(id)) continue;
        this.#printed.add(id);
        this.#event(event);
      }
      this.#done.add(item);
    }
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

  #event(event: Event): void {
    const line = eventLine(event, this.#screen.width);
    this.#print(this.#paint(line.text, TONES[line.tone]));
  }

  #reconnected(): void {
    this.#reconnects += 1;
    if (!this.#screen.interactive) this.#print('↻ reconnecting');
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
    const cost = this.#cost === undefined ? '' : ` · $${this.#cost.toFixed(4)}`;
    const status = this.#paint(`● ${this.#status}`, STATUS_TONES[this.#status] ?? '0');
    lines.push(`${status}${this.#paint(cut(` · ${reconnects}${cost}`, width), '2')}`);
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

/** The run's cost so far: `accumulated_cost` summed over the `stats` state's `usage_to_metrics`. */
export function costOf(stats: unknown): number | undefined {
  const usage = (stats as { usage_to_metrics?: unknown } | undefined)?.usage_to_metrics;
  if (typeof usage !== 'object' || usage === null) return undefined;
  let total: number | undefined;
  for (const metrics of Object.values(usage)) {
    const cost = (metrics as { accumulated_cost?: unknown } | null)?.accumulated_cost;
    if (typeof cost === 'number') total = (total ?? 0) + cost;
  }
  return total;
}
