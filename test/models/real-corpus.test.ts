/**
 * Every event the real agent servers of the matrix emitted (test/fixtures/real/<version>/<scenario>.json, written
 * by `npm run record:real`): REST events, bare events of the legacy `/sockets/events` frames and the events
 * inside `durable` / `transient` envelopes of `/sockets/session` frames. Each parses in strict mode and
 * serialises back to the same JSON. The folder is globbed, so versions recorded later are covered too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isKnownEvent, parentChain, safeParseEvent } from '../../src/models/index.js';
import { newestVersion } from '../peers/peers.js';

const ROOT = new URL('../fixtures/real/', import.meta.url).pathname;

interface Recording {
  version: string;
  name: string;
  events?: unknown[];
  frames?: { events?: unknown[]; session?: unknown[] };
}

const asJson = (frame: unknown): unknown => (typeof frame === 'string' ? JSON.parse(frame) : frame);

/** `[where, event]` for every event of one recording. */
function eventsOf(recording: Recording): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [i, event] of (recording.events ?? []).entries()) out.push([`events[${i}]`, event]);
  for (const [i, frame] of (recording.frames?.events ?? []).entries())
    out.push([`frames.events[${i}]`, asJson(frame)]);
  (recording.frames?.session ?? []).forEach((frame, i) => {
    const envelope = asJson(frame) as { type?: string; event?: unknown };
    if ((envelope.type === 'durable' || envelope.type === 'transient') && envelope.event !== undefined) {
      out.push([`frames.session[${i}].event`, envelope.event]);
    }
  });
  return out;
}

const recordings: [string, Recording][] = [];
for (const version of readdirSync(ROOT).sort()) {
  for (const file of readdirSync(join(ROOT, version)).sort()) {
    if (!file.endsWith('.json')) continue;
    const recording = JSON.parse(readFileSync(join(ROOT, version, file), 'utf8')) as Recording;
    if (!Array.isArray(recording.events)) continue; // exchanges.json and other non-event recordings
    recordings.push([`${version}/${file}`, recording]);
  }
}

describe('the real corpus', () => {
  it('has recordings', () => {
    expect(recordings.length).toBeGreaterThan(0);
  });

  it("the newest server's recordings hold every event kind the scenarios provoke, and the extra tools' kinds", () => {
    const newest = recordings.filter(([, recording]) => recording.version === newestVersion('agent-server'));
    const events = newest.flatMap(([, recording]) => eventsOf(recording).map(([, event]) => event));
    const kinds = new Set(events.map((event) => (event as { kind: string }).kind));
    expect(kinds.size).toBeGreaterThanOrEqual(14);
    for (const kind of [
      'AgentErrorEvent',
      'HookExecutionEvent',
      'InterruptEvent',
      'PauseEvent',
      'SecurityAnalysisEvent',
    ])
      expect(kinds).toContain(kind);
    const nested = new Set(
      events.flatMap((event) => {
        const { action, observation } = event as {
          action?: { kind: string };
          observation?: { kind: string };
        };
        return [action?.kind, observation?.kind].filter((kind) => kind !== undefined);
      }),
    );
    for (const kind of [
      'ApplyPatchAction',
      'ApplyPatchObservation',
      'TaskAction',
      'TaskObservation',
      'GrepObservation',
    ])
      expect(nested).toContain(kind);
  });

  describe.each(recordings)('%s', (_name, recording) => {
    it('every event parses in strict mode as a known event and serialises to the same JSON', () => {
      const failures: string[] = [];
      for (const [where, event] of eventsOf(recording)) {
        const result = safeParseEvent(event, { mode: 'strict' });
        if (!result.success) {
          failures.push(`${where}: ${result.error.message}`);
          continue;
        }
        if (!isKnownEvent(result.data)) failures.push(`${where}: not a known event`);
        const back = JSON.parse(JSON.stringify(result.data));
        try {
          expect(back).toEqual(event);
        } catch {
          failures.push(`${where}: serialises differently`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('parent_id chains of the REST events lead to the root event', () => {
      const events = (recording.events ?? [])
        .map((e) => safeParseEvent(e, { mode: 'strict' }))
        .flatMap((r) =>
          r.success ? [r.data as { id: string; kind: string; parent_id?: string | null }] : [],
        );
      const withParent = events.filter((e) => typeof e.parent_id === 'string');
      if (withParent.length === 0) return; // servers before 1.31 and 1.31.2 to 1.36 do not send parent_id
      // The chains end where the system prompt's does. With hooks the first event is a `hook_config` state
      // update without `parent_id`: 1.31.1 chains the system prompt to it, 1.37.1 and later give the system prompt the
      // sentinel parent "__root__" (no event has that id), so the chain ends at the system prompt.
      const prompt = events.find((event) => event.kind === 'SystemPromptEvent') ?? events[0];
      const root = prompt && (parentChain(prompt, events).at(-1) ?? prompt);
      for (const event of withParent) {
        const chain = parentChain(event, events);
        // Parallel tool calls chain one after another: an observation's parent is not always its action.
        expect((chain.at(-1) ?? event).id).toBe(root?.id);
      }
    });
  });
});
