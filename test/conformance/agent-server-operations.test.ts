// Every AgentServerClient operation of support/operation-recipes.ts against every agent-server version under test
// whose OpenAPI document (test/fixtures/openapi/<version>.json) has the routes the recipe calls: the SDK must decode
// what each version answers, not only what the newest does. A recipe a version lacks a route for is skipped there
// (and listed by the skip); the counts per version are in docs/compatibility.md.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Operation } from '../../src/agent-server/api/operation.js';
import { AGENT_SERVER_OPERATIONS } from '../../src/agent-server/api/operations.js';
import { AgentServerClient } from '../../src/index.js';
import { requirePeer, versionsUnderTest } from '../peers/peers.js';
import { type RealAgentServer, startRealAgentServer } from './support/agent-server.js';
import { type FakeLlm, startFakeLlm } from './support/fake-llm.js';
import { RECIPES, type RecipeContext } from './support/operation-recipes.js';

type Document = { paths: Record<string, Record<string, unknown>> };

/**
 * The operation of `namespace.method`: the server-wide one, or with `@runtime` the conversation-runtime variant
 * (a table entry lists both).
 */
function operationOf(key: string): Operation {
  const [name, variant] = key.split('@') as [string, string | undefined];
  const [namespace, method] = name.split('.') as [string, string];
  const entry = AGENT_SERVER_OPERATIONS[namespace]?.[method];
  const operation = Array.isArray(entry) ? entry[variant === 'runtime' ? 1 : 0] : entry;
  if (operation === undefined) throw new Error(`no operation ${key} in AGENT_SERVER_OPERATIONS`);
  return operation as Operation;
}

for (const { version } of versionsUnderTest('agent-server')) {
  const venv = requirePeer('agent-server', version);
  const document = JSON.parse(
    readFileSync(new URL(`../fixtures/openapi/${version}.json`, import.meta.url), 'utf8'),
  ) as Document;
  const has = (key: string) => {
    const operation = operationOf(key);
    return document.paths[operation.path]?.[operation.method.toLowerCase()] !== undefined;
  };

  describe.skipIf(venv === undefined)(`AgentServerClient operations on agent server ${version}`, () => {
    const context = { memo: {} } as { -readonly [K in keyof RecipeContext]: RecipeContext[K] };
    let server: RealAgentServer;
    let llm: FakeLlm;

    beforeAll(async () => {
      llm = await startFakeLlm();
      server = await startRealAgentServer(venv as string, version);
      context.server = server;
      context.llm = llm;
      context.client = new AgentServerClient({
        baseUrl: server.url,
        sessionApiKey: server.sessionApiKey,
        logLevel: 'off',
      });
    });

    afterAll(async () => {
      await server?.close();
      await llm?.close();
    });

    for (const [name, recipe] of Object.entries(RECIPES)) {
      const missing = recipe.uses.filter((key) => !has(key));
      const title = missing.length === 0 ? name : `${name} (no ${missing.join(', ')} in ${version})`;
      it.skipIf(missing.length > 0)(title, () => recipe.run(context));
    }
  });
}
