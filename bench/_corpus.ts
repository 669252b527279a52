// The event corpus of the decode and stream benchmarks: a 1,000-event conversation mix built from the frames
// the conformance suite recorded from real agent servers (test/fixtures/real/<version>/*.json, every version,
// every scenario), as the socket sent them.
//
// How the mix is built (docs/performance.md, "The corpus"):
// - Every recorded frame is put in a category: its `kind`, and for ConversationStateUpdateEvent also its `key`
//   (`stats`, `execution_status`, `full_state`, …). Session-protocol recordings (/sockets/session) contribute the
//   `event` of each envelope.
// - A system prompt comes once per conversation and a `full_state` snapshot once per connection. The recorded
//   conversations are short test scenarios (about 15 events each), so those two are one frame in eight there.
//   The mix counts them once per `conversationLength` events (default 100: 10 system prompts and 10 snapshots
//   per 1,000 events); every other category keeps its recorded share of frames, rounded by largest remainder.
// - Within a category the frames are taken round robin over the recordings, so every version contributes.
// - The order is a fixed pseudo-random shuffle, with each conversation starting with its snapshot and its
//   system prompt.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../test/fixtures/real/', import.meta.url));
/** Categories that come once per conversation (or connection), not at their recorded rate. */
const ONCE = ['SystemPromptEvent', 'ConversationStateUpdateEvent:full_state'] as const;

interface Recording {
  frames?: { events?: string[]; session?: string[] };
}

/** Every recorded event frame as JSON text, by category. */
export function recordedFrames(): Map<string, string[]> {
  const byCategory = new Map<string, string[]>();
  for (const version of readdirSync(ROOT).sort()) {
    for (const file of readdirSync(`${ROOT}${version}`).sort()) {
      if (!file.endsWith('.json')) continue;
      const recording = JSON.parse(readFileSync(`${ROOT}${version}/${file}`, 'utf8')) as Recording;
      const texts = [
        ...(recording.frames?.events ?? []),
        ...(recording.frames?.session ?? []).flatMap((frame) => {
          const envelope = JSON.parse(frame) as { event?: unknown };
          return envelope.event === undefined ? [] : [JSON.stringify(envelope.event)];
        }),
      ];
      for (const text of texts) {
        const event = JSON.parse(text) as { kind?: string; key?: string };
        if (typeof event.kind !== 'string') continue;
        const category =
          event.kind === 'ConversationStateUpdateEvent' ? `${event.kind}:${event.key}` : event.kind;
        if (!byCategory.has(category)) byCategory.set(category, []);
        byCategory.get(category)!.push(text);
      }
    }
  }
  return byCategory;
}

export interface Mix {
  texts: string[];
  /** Events per category in the mix. */
  composition: Map<string, number>;
  /** Recorded frames the mix was drawn from. */
  recorded: number;
  characters: number;
}

export interface MixOptions {
  events?: number;
  conversationLength?: number;
  /** Leave out the `full_state` snapshots (the stream server sends its own on connect). */
  snapshots?: boolean;
  /** Leave out StreamingDeltaEvents (on `/sockets/session` they are `delta` envelopes, not events). */
  deltas?: boolean;
}

/** The conversation mix described at the top of this file. Deterministic: the same texts on every call. */
export function conversationMix({
  events = 1000,
  conversationLength = 100,
  snapshots = true,
  deltas = true,
}: MixOptions = {}): Mix {
  const frames = recordedFrames();
  if (!deltas) frames.delete('StreamingDeltaEvent');
  const once = ONCE.filter((category) => snapshots || !category.endsWith(':full_state'));
  const conversations = Math.max(1, Math.round(events / conversationLength));
  const rest = events - conversations * once.length;
  const others = [...frames.entries()].filter(
    ([category]) => !(ONCE as readonly string[]).includes(category),
  );
  const total = others.reduce((sum, [, list]) => sum + list.length, 0);
  // Largest remainder: floor every share, then give the leftover events to the biggest fractions.
  const shares = others.map(([category, list]) => {
    const exact = (rest * list.length) / total;
    return { category, count: Math.floor(exact), fraction: exact - Math.floor(exact) };
  });
  let left = rest - shares.reduce((sum, share) => sum + share.count, 0);
  for (const share of [...shares].sort(
    (a, b) => b.fraction - a.fraction || a.category.localeCompare(b.category),
  )) {
    if (left-- <= 0) break;
    share.count += 1;
  }
  const pick = (category: string, i: number) => {
    const list = frames.get(category)!;
    return list[i % list.length]!;
  };
  const body: string[] = [];
  for (const { category, count } of shares) for (let i = 0; i < count; i++) body.push(pick(category, i));
  // A fixed shuffle (a linear congruential generator), so every run decodes the same sequence.
  let seed = 0x2545f491;
  for (let i = body.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % (i + 1);
    [body[i], body[j]] = [body[j]!, body[i]!];
  }
  const texts: string[] = [];
  const perConversation = Math.ceil(body.length / conversations);
  for (let c = 0; c < conversations; c++) {
    for (const category of once) texts.push(pick(category, c));
    texts.push(...body.slice(c * perConversation, (c + 1) * perConversation));
  }
  const composition = new Map<string, number>();
  for (const category of once) composition.set(category, conversations);
  for (const { category, count } of shares) composition.set(category, count);
  return {
    texts,
    composition,
    recorded: [...frames.values()].reduce((sum, list) => sum + list.length, 0),
    characters: texts.reduce((sum, text) => sum + text.length, 0),
  };
}

/**
 * The texts, one per line (a JSON text holds no raw line break), in a new file of the system's temporary
 * folder: what a fresh process times "its first events" on. Building the mix parses every recorded frame
 * (about 4,300 events of the same shapes), after which `JSON.parse` finds the objects' hidden classes and the
 * keys' strings made already, as it does not for an app's first events. The caller removes the file.
 */
export function writeTextsFile(texts: readonly string[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'bench-texts-')), 'texts.jsonl');
  writeFileSync(path, texts.join('\n'));
  return path;
}
