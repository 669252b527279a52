import { describe, expect, it } from 'vitest';
import { runDemo } from '../../src/cli/demo.js';
import type { SimulatorCredentials } from '../../src/testing.js';

// The demo in-process, with credentials we know, to check that none of them is ever printed.
const credentials: SimulatorCredentials = {
  sessionApiKey: 'demo-session-key-4f1c9a',
  adminPassword: 'demo-admin-password-77ab',
  apiKey: 'demo-runtime-api-key-19c2',
  masterKey: 'sk-demo-master-key-5e0d',
  externalGatewayKey: 'sk-demo-external-key-a1b2',
  appSessionApiKey: 'demo-app-session-key-0c3f',
  tracingApiKey: 'demo-otlp-key-8d8d',
};

describe('the demo', () => {
  it('walks every step, renders the live events and history, and prints no credential', async () => {
    const lines: string[] = [];
    const code = await runDemo({
      out: (line) => lines.push(line),
      simulator: { credentials, stepDelayMs: 1 },
    });
    const text = lines.join('\n');
    expect(code, text).toBe(0);
    for (const secret of Object.values(credentials)) expect(text).not.toContain(secret);
    expect(text).toContain('set, not shown');
    // The live turn, rendered with the event model's renderEvent, in the order the agent acted.
    const live = lines.filter((line) => line.startsWith('  │ ')).map((line) => line.slice(4));
    expect(live[0]).toMatch(/^user MessageEvent: /);
    expect(live.findIndex((line) => line.startsWith('agent ActionEvent: terminal'))).toBeLessThan(
      live.findIndex((line) => line.startsWith('environment ObservationEvent: terminal')),
    );
    expect(live.at(-1)).toBe('environment ConversationStateUpdateEvent: execution_status = "finished"');
    expect(text).toMatch(/page 1: MessageEvent, ConversationStateUpdateEvent, ActionEvent/);
    expect(text).toMatch(/demo-pool\s+source db\s+ghcr\.io\/acme\/demo-agent:1\.0 count 2/);
    expect(text).toContain('models: claude-haiku-4-5, claude-sonnet-4-5');
    expect(text).toContain('{"team":"platform","project":"sdkdemo"}');
    expect(text).toContain('destination otlp, protocol http/protobuf');
  });

  it('reports the step that failed and exits 1 (a timeout too short to meet)', async () => {
    const lines: string[] = [];
    // A timeout this short cannot be met: the first request is aborted.
    const code = await runDemo({ out: (line) => lines.push(line), timeoutMs: 1, simulator: { credentials } });
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatch(/^\n✘ demo failed at step 2: /);
    const text = lines.join('\n');
    for (const secret of Object.values(credentials)) expect(text).not.toContain(secret);
  });
});
