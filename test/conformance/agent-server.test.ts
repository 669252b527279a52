// The SDK against the real agent server, for every version of the matrix (test/peers/matrix.json): REST
// reads and writes, and the event model (every event a real server sends parses in strict mode and
// re-serialises to the same JSON). The live subscription is in session-protocol.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_SERVER_FEATURES,
  ConversationsClient,
  type Event,
  EventsClient,
  isAgentServerVersionError,
  isConflictError,
  isNotFoundError,
  safeParseEvent,
} from '../../src/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { BASIC_RUN, type FakeLlm, finish, startFakeLlm, terminal, think } from './support/fake-llm.js';
import { compareVersions } from './support/record.js';
import { allEvents, runScenario, settle, startBody } from './support/scenarios.js';

const SHORT_KINDS_WITHOUT_EVENTS = ['PauseEvent', 'CondensationRequest'] as const;

for (const { version } of versionsUnderTest('agent-server')) {
  const venv = requirePeer('agent-server', version);

  describe.skipIf(venv === undefined)(`real agent server ${version}`, () => {
    let server: RealAgentServer;
    let llm: FakeLlm;
    let events: EventsClient;
    let conversations: ConversationsClient;
    let finishedId: string;
    let finishedEvents: Record<string, unknown>[];

    const clientOptions = () => ({
      baseUrl: server.url,
      sessionApiKey: server.sessionApiKey,
      logLevel: 'off' as const,
    });

    beforeAll(async () => {
      llm = await startFakeLlm();
      server = await startRealAgentServer(venv as string, version);
      events = new EventsClient(clientOptions());
      conversations = new ConversationsClient(clientOptions());
      const run = await runScenario(server, llm, BASIC_RUN);
      expect(run.status).toBe('finished');
      finishedId = run.id;
      finishedEvents = await allEvents(server, run.id);
    });

    afterAll(async () => {
      await server?.close();
      await llm?.close();
    });

    it('serverInfo reports the version, and the version gate follows it', async () => {
      const info = await events.serverInfo();
      expect(info.version).toBe(version);
      for (const feature of Object.values(AGENT_SERVER_FEATURES)) {
        const gate = events.requireFeature(feature);
        if (compareVersions(version, feature.minVersion) >= 0) await expect(gate).resolves.toBeUndefined();
        else await expect(gate).rejects.toSatisfy(isAgentServerVersionError);
      }
    });

    it('every event the server sends parses in strict mode and re-serialises to the same JSON', () => {
      for (const raw of finishedEvents) {
        const parsed = safeParseEvent(raw, { mode: 'strict' });
        expect(parsed.success, `${String(raw.kind)}: ${parsed.success ? '' : parsed.error.message}`).toBe(
          true,
        );
        if (parsed.success) expect(JSON.parse(JSON.stringify(parsed.data))).toEqual(raw);
      }
    });

    it('starts a conversation through the SDK; the initial message always runs', async () => {
      llm.script(BASIC_RUN);
      const body = startBody(server, llm);
      const info = await conversations.create({
        agent: body.agent,
        workspace: body.workspace,
        // run: false is what the SDK sends by default; the real server runs an initial message anyway.
        initial_message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
        max_iterations: 20,
        stuck_detection: false,
      });
      const status = await conversations.waitUntil(info.id, ['finished', 'error', 'stuck'], {
        timeout: 60_000,
      });
      expect(status).toBe('finished');
      expect(await events.count(info.id, { kind: 'ActionEvent' })).toBe(3);
    });

    it('search: every kind and source filter, paging, both sort orders, timestamp windows, count', async () => {
      const all: Event[] = [];
      for await (const event of events.search(finishedId)) all.push(event);
      expect(all.map((event) => event.id)).toEqual(finishedEvents.map((event) => event.id));
      expect(await events.count(finishedId)).toBe(all.length);

      const paged: string[] = [];
      for await (const page of events.pages(finishedId, { limit: 2 })) {
        expect(page.items.length).toBeLessThanOrEqual(2);
        paged.push(...page.items.map((event) => String(event.id)));
      }
      expect(paged).toEqual(all.map((event) => event.id));

      const descending: string[] = [];
      for await (const event of events.search(finishedId, { sortOrder: 'TIMESTAMP_DESC' }))
        descending.push(String(event.id));
      expect(descending).toEqual(all.map((event) => event.id).reverse());

      const kinds = [...new Set(all.map((event) => String(event.kind)))];
      for (const kind of kinds) {
        const matched: string[] = [];
        for await (const event of events.search(finishedId, { kind: kind as 'ActionEvent' }))
          matched.push(String(event.kind));
        expect(matched.length, kind).toBe(all.filter((event) => event.kind === kind).length);
        expect(new Set(matched), kind).toEqual(new Set([kind]));
        expect(await events.count(finishedId, { kind: kind as 'ActionEvent' }), kind).toBe(matched.length);
      }
      for (const kind of SHORT_KINDS_WITHOUT_EVENTS) expect(await events.count(finishedId, { kind })).toBe(0);

      for (const source of ['agent', 'user', 'environment'] as const) {
        const expected = all.filter((event) => (event as { source?: string }).source === source).length;
        expect(await events.count(finishedId, { source }), source).toBe(expected);
      }

      // A window split at a middle event's own timestamp: before it, and from it on, add up to everything.
      const middle = all[Math.floor(all.length / 2)] as Event & { timestamp: string };
      const before = await events.count(finishedId, { timestampLt: middle.timestamp });
      const after = await events.count(finishedId, { timestampGte: middle.timestamp });
      expect(before + after).toBe(all.length);
      expect(after).toBeGreaterThan(0);
      expect(before).toBeGreaterThan(0);
    });

    it('get: every event by id, and an unknown id is NotFoundError', async () => {
      for (const raw of finishedEvents) {
        const event = await events.get(finishedId, String(raw.id));
        expect(event.id).toBe(raw.id);
        expect(event.kind).toBe(raw.kind);
      }
      await expect(events.get(finishedId, '00000000-0000-4000-8000-000000000000')).rejects.toSatisfy(
        isNotFoundError,
      );
      await expect(conversations.get('00000000-0000-4000-8000-000000000000')).rejects.toSatisfy(
        isNotFoundError,
      );
    });

    it('title, confirmation policy and a rejected action; pause, run, 409 while running, delete', async () => {
      await conversations.setTitle(finishedId, `Conformance ${version}`);
      expect((await conversations.get(finishedId)).title).toBe(`Conformance ${version}`);

      // Confirmation: the agent proposes a command, the SDK rejects it.
      llm.script([{ toolCalls: [terminal('echo needs-approval')] }, { toolCalls: [finish('ok')] }]);
      const body = startBody(server, llm);
      const started = await conversations.create({
        agent: body.agent,
        workspace: body.workspace,
        confirmation_policy: { kind: 'AlwaysConfirm' },
        initial_message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
      });
      expect(await conversations.waitUntil(started.id, 'waiting_for_confirmation', { timeout: 60_000 })).toBe(
        'waiting_for_confirmation',
      );
      await events.respondToConfirmation(started.id, { accept: false, reason: 'not now' });
      await settle(server, started.id, 30_000, ['idle']);
      expect(await events.count(started.id, { kind: 'UserRejectObservation' })).toBe(1);
      await conversations.setConfirmationPolicy(started.id, { kind: 'NeverConfirm' });

      // Run while the LLM holds its answer: a second run is 409, pause stops it.
      llm.script([{ toolCalls: [think('waiting')] }, { toolCalls: [finish('resumed')] }]);
      const requestsBefore = llm.requests.length;
      llm.hold();
      try {
        await events.send(started.id, { role: 'user', content: [{ type: 'text', text: 'again' }] });
        await conversations.run(started.id);
        await llm.waitForRequests(requestsBefore + 1);
        const second = conversations.run(started.id).catch((error: unknown) => error);
        // Up to 1.31.2 the 409 only comes once the running step has its LLM answer (docs/compatibility.md).
        if (compareVersions(version, '1.36.1') < 0) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          llm.release();
        }
        expect(await second).toSatisfy(isConflictError);
        await conversations.pause(started.id);
      } finally {
        llm.release();
      }
      expect(
        await conversations.waitUntil(started.id, ['paused', 'finished', 'idle'], { timeout: 30_000 }),
      ).toMatch(/paused|finished|idle/);

      await conversations.delete(started.id);
      await expect(conversations.get(started.id)).rejects.toSatisfy(isNotFoundError);
      await expect(conversations.pause(started.id)).rejects.toSatisfy(isNotFoundError);
    });

    // Following a conversation live across a crash and restart of the server: session-protocol.test.ts.
  });
}
