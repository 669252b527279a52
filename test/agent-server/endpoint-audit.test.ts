// The endpoint audit: every operation of the newest recorded OpenAPI document of the agent server is called by
// a typed method of AgentServerClient (per the operation tables the namespaces call through) or listed as an
// exclusion with its reason. Re-recording the document for a new release shows at once what changed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/agent-server/index.js';
import {
  AGENT_SERVER_OPERATIONS,
  compareAgentServerVersions,
  EXCLUDED_OPERATIONS,
} from '../../src/agent-server/index.js';
import { AgentServerClient } from '../../src/index.js';

const DIR = join(import.meta.dirname, '../fixtures/openapi');
const VERSIONS = readdirSync(DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.slice(0, -5))
  .sort((a, b) => compareAgentServerVersions(a, b) ?? 0);
const NEWEST = VERSIONS[VERSIONS.length - 1] as string;
const HTTP = ['get', 'post', 'put', 'patch', 'delete'];

function operationsOf(version: string): Set<string> {
  const doc = JSON.parse(readFileSync(join(DIR, `${version}.json`), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const keys = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of Object.keys(item))
      if (HTTP.includes(method)) keys.add(`${method.toUpperCase()} ${path}`);
  return keys;
}

function declared(): { namespace: string; method: string; operation: Operation }[] {
  const rows = [];
  for (const [namespace, table] of Object.entries(AGENT_SERVER_OPERATIONS))
    for (const [method, entry] of Object.entries(table))
      for (const operation of Array.isArray(entry) ? entry : [entry as Operation])
        rows.push({ namespace, method, operation });
  return rows;
}

const key = (operation: Operation) => `${operation.method} ${operation.path}`;

describe(`endpoint audit against the agent server's OpenAPI ${NEWEST}`, () => {
  const inDocument = operationsOf(NEWEST);
  const rows = declared();
  const covered = new Set(rows.map((row) => key(row.operation)));

  it('every operation is covered by a typed method or excluded with a reason', () => {
    const missing = [...inDocument].filter((op) => !covered.has(op) && !(op in EXCLUDED_OPERATIONS));
    const coveredCount = [...inDocument].filter((op) => covered.has(op)).length;
    console.log(
      `agent-server ${NEWEST}: ${coveredCount} ÷ ${inDocument.size} operations covered by typed methods, ` +
        `${Object.keys(EXCLUDED_OPERATIONS).length} excluded, ${missing.length} missing`,
    );
    expect(missing).toEqual([]);
  });

  it('no declared or excluded operation is missing from the document (renamed or removed routes)', () => {
    expect([...covered].filter((op) => !inDocument.has(op))).toEqual([]);
    expect(Object.keys(EXCLUDED_OPERATIONS).filter((op) => !inDocument.has(op))).toEqual([]);
    expect(Object.keys(EXCLUDED_OPERATIONS).filter((op) => covered.has(op))).toEqual([]);
    for (const reason of Object.values(EXCLUDED_OPERATIONS)) expect(reason.length).toBeGreaterThan(20);
  });

  it('each declared method exists on its namespace of AgentServerClient', () => {
    const client = new AgentServerClient({ baseUrl: 'http://127.0.0.1:9', logLevel: 'off' });
    const absent = rows.filter(({ namespace, method }) => {
      const target = (client as unknown as Record<string, Record<string, unknown>>)[namespace];
      return typeof target?.[method] !== 'function';
    });
    expect(absent.map(({ namespace, method }) => `${namespace}.${method}`)).toEqual([]);
  });

  it('each declared `since` is the first recorded document that has the operation (none: the oldest has it)', () => {
    const docs = VERSIONS.map((version) => [version, operationsOf(version)] as const);
    const wrong = rows
      .map(({ namespace, method, operation }) => {
        const first = docs.find(([, ops]) => ops.has(key(operation)))?.[0];
        const expected = first === VERSIONS[0] ? undefined : first;
        return operation.since === expected
          ? undefined
          : `${namespace}.${method} ${key(operation)}: ${operation.since} ≠ ${expected}`;
      })
      .filter(Boolean);
    expect(wrong).toEqual([]);
  });
});
