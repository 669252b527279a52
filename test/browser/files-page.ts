// Runs inside Chromium: AgentServerClient uploads a binary file and downloads it back (as bytes, as a Blob and
// as a stream) from the loopback agent-server doubles. Reports on `window.__filesResult`.
import { AgentServerClient } from '../../src/index.js';

declare global {
  interface Window {
    __filesConfig: { url: string; sessionApiKey: string };
    __filesResult?: Record<string, unknown>;
  }
}

async function digest(bytes: Uint8Array): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', bytes.slice().buffer);
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function main(): Promise<Record<string, unknown>> {
  const { url, sessionApiKey } = window.__filesConfig;
  const client = new AgentServerClient({ baseUrl: url, sessionApiKey });
  const bytes = new Uint8Array(3 * 1024 * 1024);
  for (let i = 0; i < bytes.length; i += 65_536) crypto.getRandomValues(bytes.subarray(i, i + 65_536));
  bytes.set([0x00, 0xff, 0xfe, 0x80, 0x0d, 0x0a], 0);
  const uploaded = await client.files.upload('/browser/data.bin', new Blob([bytes]));
  const back = await client.files.download('/browser/data.bin');
  const blob = await client.files.downloadBlob('/browser/data.bin');
  const streamed = new Uint8Array(
    await new Response(await client.files.downloadStream('/browser/data.bin')).arrayBuffer(),
  );
  return {
    ok: true,
    size: bytes.byteLength,
    uploaded: uploaded.file_size,
    sent: await digest(bytes),
    back: await digest(back),
    blob: await digest(new Uint8Array(await blob.arrayBuffer())),
    streamed: await digest(streamed),
  };
}

main().then(
  (result) => {
    window.__filesResult = result;
  },
  (error: unknown) => {
    window.__filesResult = { ok: false, error: String(error) };
  },
);
