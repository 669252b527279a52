/**
 * The errors `./models` and `./tracing` throw are `AgentPlatformError`s, the root entry's class (`./models`
 * exports it too), and bad input is one of them, never a bare SyntaxError.
 */
import { describe, expect, it } from 'vitest';
import { AgentPlatformError } from '../../src/index.js';
import * as models from '../../src/models.js';
import * as tracing from '../../src/tracing.js';

describe('the base error class of each entry', () => {
  it('./models: a malformed event is an error of its AgentPlatformError, the root entry’s class', () => {
    const result = models.safeParseEvent('{ not json');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toBeInstanceOf(models.AgentPlatformError);
    expect(models.AgentPlatformError).toBe(AgentPlatformError);
  });

  it('./tracing: text that is not JSON is an OtlpDecodeError naming the input, an AgentPlatformError', () => {
    expect(() => tracing.decodeOtlpTraces('not an export')).toThrow(tracing.OtlpDecodeError);
    expect(() => tracing.decodeOtlpTraces('not an export')).toThrow(AgentPlatformError);
    expect(() => tracing.decodeOtlpTraces('{"resourceSpans": [')).toThrow('input: not JSON');
  });
});
