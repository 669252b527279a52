/**
 * The errors of `./tracing`. They extend the SDK's `AgentPlatformError` (from the small, dependency-free
 * core/error-base.ts, so the entry stays free of zod and ky), so `isAgentPlatformError` recognises them too.
 */
import { AgentPlatformError, brand } from '../core/error-base.js';

/** A redirect target, or an argument of `resolveTraceExport`, that cannot work; `field` names it (never its value). */
export class TraceTargetError extends AgentPlatformError {
  readonly field: string;
  constructor(field: string, detail: string) {
    super(`trace target ${field}: ${detail}`);
    this.field = field;
  }
}
brand(TraceTargetError, 'TraceTargetError');

/** Thrown on input that is not an OTLP JSON trace export; `path` locates the bad field. */
export class OtlpDecodeError extends AgentPlatformError {
  readonly path: string;
  constructor(path: string, detail: string) {
    super(`${path}: ${detail}`);
    this.path = path;
  }
}
brand(OtlpDecodeError, 'OtlpDecodeError');
