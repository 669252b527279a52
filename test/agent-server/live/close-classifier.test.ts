import { describe, expect, it } from 'vitest';
import { classifyProbeFailure } from '../../../src/agent-server/live/close-classifier.js';
import { NotFoundError } from '../../../src/core/errors.js';

const notFound = () =>
  new NotFoundError({
    status: 404,
    headers: {},
    body: { detail: 'Not Found' },
    method: 'GET',
    url: 'http://server/api',
    message: 'Not Found',
  });

describe('classifyProbeFailure', () => {
  it('a missing conversation or bash-events stream fails with the subject named, never another', () => {
    const conversation = classifyProbeFailure(notFound(), 4004, '', true, 'Conversation c-1');
    const bash = classifyProbeFailure(notFound(), 0, '', false, 'The bash-events stream');
    expect(conversation.type === 'fail' && conversation.error.message).toBe(
      'Conversation c-1 not found (the server closed the socket: 4004 Conversation not found)',
    );
    expect(bash.type === 'fail' && bash.error.message).toBe(
      'The bash-events stream not found (the server refused the WebSocket handshake, and its REST API answers 404)',
    );
  });
});
