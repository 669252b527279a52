// Issue 34 item 8 against the real agent server (newest provisioned version): `conversations.create` with
// `trace` sends the observability headers of POST /api/conversations; the server takes them into the stored
// conversation (meta.json), from which its tracing starts the conversation's spans under the given parent.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parentSpanContext } from '../../src/index.js';
import { oneAgentServer, useAgentServer } from './support/one-agent-server.js';
import { startBody } from './support/scenarios.js';

const target = oneAgentServer();
const { version, venv } = target;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** The stored conversation the server keeps for `id` (its meta.json, wherever under the data folder). */
function storedMeta(dataDir: string, id: string): Record<string, unknown> {
  const hex = id.replaceAll('-', '');
  const search = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = search(path);
        if (found) return found;
      } else if (entry.name === 'meta.json' && (dir.includes(hex) || dir.includes(id))) {
        return path;
      }
    }
    return undefined;
  };
  const path = search(join(dataDir, 'conversations'));
  if (!path) throw new Error(`no meta.json for ${id}`);
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe.skipIf(venv === undefined)(
  `conversation trace headers against the real agent server ${version}`,
  () => {
    const real = useAgentServer(target);

    it('stores the span name, tags, metadata and parent span context it was given', async () => {
      const parent = parentSpanContext(TRACEPARENT) as string;
      const started = await real.client.conversations.create(startBody(real.server, real.llm), {
        trace: {
          spanName: 'checkout-review',
          tags: ['team-a', 'nightly'],
          metadata: { tenant: 'acme', attempt: 2, city: 'Zürich' },
          parentSpanContext: parent,
        },
      });
      const meta = storedMeta(real.server.dataDir, started.id);
      console.log(
        `agent server ${version}: stored ${JSON.stringify(
          Object.fromEntries(Object.entries(meta).filter(([key]) => key.startsWith('observability'))),
        )}`,
      );
      expect(meta.observability_span_name).toBe('checkout-review');
      expect(meta.observability_tags).toEqual(['team-a', 'nightly']);
      expect(meta.observability_metadata).toMatchObject({ tenant: 'acme', attempt: 2, city: 'Zürich' });
      expect(meta.observability_parent_span_context).toBe(parent);
      expect(JSON.parse(meta.observability_parent_span_context as string)).toEqual({
        trace_id: '4bf92f35-77b3-4da6-a3ce-929d0e0e4736',
        span_id: '00000000-0000-0000-00f0-67aa0ba902b7',
        is_remote: true,
      });
    });

    it('reads the parent span context with its tracing SDK, as the id pair of the app span', async () => {
      // The server's own parser (lmnr's LaminarSpanContext, in the server's environment) on the value we send.
      const { spawnSync } = await import('node:child_process');
      const parent = parentSpanContext(TRACEPARENT) as string;
      const script = [
        'import sys',
        'from lmnr.sdk.types import LaminarSpanContext',
        'c = LaminarSpanContext.try_to_otel_span_context(sys.argv[1])',
        "print(format(c.trace_id, '032x'), format(c.span_id, '016x'), c.is_remote)",
      ].join('\n');
      const run = spawnSync(join(venv as string, 'bin/python'), ['-c', script, parent], {
        encoding: 'utf8',
        env: { ...process.env, LITELLM_LOCAL_MODEL_COST_MAP: 'True' },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe('4bf92f3577b34da6a3ce929d0e0e4736 00f067aa0ba902b7 True');
    });

    it('a metadata header that is not a JSON object is a 422 from the server (the SDK always sends JSON)', async () => {
      // A connection of its own (agent: false): a pooled one may have been closed by the server's keep-alive
      // timeout while the previous test ran.
      const { request } = await import('node:http');
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(
          `${real.server.url}/api/conversations`,
          {
            method: 'POST',
            agent: false,
            headers: {
              'X-Session-API-Key': real.server.sessionApiKey,
              'content-type': 'application/json',
              'X-OpenHands-Observability-Metadata': 'not json',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify(startBody(real.server, real.llm)));
      });
      expect(status).toBe(422);
    });
  },
);
