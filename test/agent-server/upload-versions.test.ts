// Uploads on every server generation: 1.58.0 and later answer `FileUploadResult` (`file_size`), older servers the
// bare `Success`. The file is stored either way, so both answers must decode (an older server's upload used to be
// reported as a ResponseValidationError after the bytes were written).
import { describe, expect, it } from 'vitest';
import { AgentServerClient } from '../../src/index.js';
import { agentServerApiHandlers, SimulatedFiles } from '../../src/testing.js';
import { useMswServer } from '../helpers/msw.js';

const KEY = 'upload-versions-key';
const files = { old: new SimulatedFiles(), current: new SimulatedFiles() };
useMswServer(
  ...agentServerApiHandlers({
    baseUrl: 'http://old.test',
    sessionApiKey: KEY,
    files: files.old,
    version: '1.45.0',
  }),
  ...agentServerApiHandlers({ baseUrl: 'http://new.test', sessionApiKey: KEY, files: files.current }),
);
const clientOf = (baseUrl: string) =>
  new AgentServerClient({ baseUrl, sessionApiKey: KEY, logLevel: 'off', maxRetries: 0 });
const bytes = new Uint8Array([0, 255, 7]);

describe('files.upload answers by server version', () => {
  it('before 1.58.0: `{success: true}` without file_size decodes, and the file is there', async () => {
    const client = clientOf('http://old.test');
    expect(await client.files.upload('/w/old.bin', bytes)).toEqual({ success: true });
    expect(await client.files.download('/w/old.bin')).toEqual(bytes);
  });

  it('1.58.0 and later: file_size is the number of bytes written', async () => {
    expect(await clientOf('http://new.test').files.upload('/w/new.bin', bytes)).toEqual({
      success: true,
      file_size: 3,
    });
  });
});
