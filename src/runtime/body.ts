import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { describe, hasControlCharacters, isPlainObject, isPrototypeKey } from '../core/validate.js';
import type { WarmRuntimeConfig, WarmRuntimeConfigBody } from './schemas.js';

/** Fields that identify a listed configuration and never belong in a save body. */
export const IDENTITY_FIELDS = ['name', 'source'] as const;

const REQUIRED = ['image', 'working_dir', 'command', 'environment'] as const;
const OPTIONAL_INTEGERS = ['count', 'run_as_user', 'run_as_group', 'fs_group'] as const;

/**
 * A copy of `body` ready for `PUT`: `name` and `source` removed, `undefined` fields dropped, and every field
 * of a warm-runtime configuration checked. Throws `RequestValidationError` naming each bad field (nothing is sent then).
 */
export function prepareWarmRuntimeConfigBody(body: unknown): WarmRuntimeConfigBody {
  // A Map or class instance would be sent as `{}` or mangled by JSON.stringify.
  if (!isPlainObject(body)) {
    throw new RequestValidationError(`must be a plain JSON object, got ${describe(body)}`, 'body');
  }
  const prototypeKeys = Object.keys(body).filter(isPrototypeKey);
  if (prototypeKeys.length > 0) {
    // `out[key] = value` with `__proto__` would set the copy's prototype: checks would read through it and
    // the PUT would send `{}`.
    throw new RequestValidationError(
      prototypeKeys.map((key) => ({
        path: [key],
        message: 'is not allowed as a key (it would reach the prototype)',
      })),
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((IDENTITY_FIELDS as readonly string[]).includes(key) || value === undefined) continue;
    out[key] = value;
  }
  const issues = validateWarmRuntimeConfigBody(out);
  if (issues.length > 0) throw new RequestValidationError(issues);
  return out as WarmRuntimeConfigBody;
}

/** Every problem of a save body, `[]` when it is valid. Paths are field names. */
export function validateWarmRuntimeConfigBody(body: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const bad = (field: string, message: string) => issues.push({ path: [field], message });
  for (const field of REQUIRED) {
    if (body[field] === undefined || body[field] === null) bad(field, 'is required');
  }
  const { image, working_dir, command, environment, fuse_s3_mount } = body;
  if (image !== undefined && image !== null && (typeof image !== 'string' || image.trim() === '')) {
    bad('image', `must be a non-empty image reference, got ${describe(image)}`);
  } else if (typeof image === 'string' && (hasControlCharacters(image) || /\s/.test(image))) {
    bad('image', 'must not contain whitespace, control or invisible characters');
  }
  if (working_dir !== undefined && working_dir !== null && typeof working_dir !== 'string') {
    bad('working_dir', `must be a string, got ${describe(working_dir)}`);
  } else if (typeof working_dir === 'string' && working_dir.includes('\u0000')) {
    bad('working_dir', 'must not contain NUL');
  }
  if (command !== undefined && command !== null) {
    if (!Array.isArray(command)) bad('command', `must be an array of strings, got ${describe(command)}`);
    else
      command.forEach((part, i) => {
        if (typeof part !== 'string')
          issues.push({ path: ['command', i], message: `must be a string, got ${describe(part)}` });
        else if (part.includes('\u0000'))
          issues.push({ path: ['command', i], message: 'must not contain NUL (no process argument can)' });
      });
  }
  if (environment !== undefined && environment !== null) {
    if (!isPlainObject(environment)) {
      bad('environment', `must be a plain object of strings, got ${describe(environment)}`);
    } else {
      for (const [key, value] of Object.entries(environment)) {
        if (isPrototypeKey(key) || !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(key)) {
          issues.push({
            path: ['environment', key],
            message: 'must be a variable name (letters, digits, "_", "." or "-", not starting with a digit)',
          });
        } else if (typeof value !== 'string') {
          issues.push({ path: ['environment', key], message: `must be a string, got ${describe(value)}` });
        } else if (value.includes('\u0000')) {
          issues.push({ path: ['environment', key], message: 'must not contain NUL' });
        }
      }
    }
  }
  for (const field of OPTIONAL_INTEGERS) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      bad(field, `must be an integer >= 0, got ${describe(value)}`);
    }
  }
  if (fuse_s3_mount !== undefined && fuse_s3_mount !== null && typeof fuse_s3_mount !== 'boolean') {
    bad('fuse_s3_mount', `must be a boolean, got ${describe(fuse_s3_mount)}`);
  }
  return issues;
}

export interface TemplateOverrides {
  /** The new configuration's image (warm-pool rule 1: give every selectable configuration its own image). */
  image?: string;
  /** Warm pods to keep; when omitted the source's `count` is kept. */
  count?: number;
}

/**
 * `template`: a copy of `source` without its identity fields (`name`, `source`), with `image` and
 * `count` overridden. Unknown fields are kept, as the helper CLI does.
 */
export function deriveTemplate(
  source: WarmRuntimeConfig,
  overrides: TemplateOverrides = {},
): WarmRuntimeConfigBody {
  if (!isPlainObject(overrides as unknown)) {
    throw new RequestValidationError(`must be a plain object, got ${describe(overrides)}`, 'overrides');
  }
  if (!isPlainObject(source as unknown)) {
    throw new RequestValidationError(`must be a configuration object, got ${describe(source)}`, 'source');
  }
  const issues: ValidationIssue[] = [];
  if (
    overrides.image !== undefined &&
    (typeof overrides.image !== 'string' || overrides.image.trim() === '')
  ) {
    issues.push({
      path: ['image'],
      message: `must be a non-empty image reference, got ${describe(overrides.image)}`,
    });
  }
  if (
    overrides.count !== undefined &&
    (typeof overrides.count !== 'number' || !Number.isSafeInteger(overrides.count) || overrides.count < 0)
  ) {
    issues.push({ path: ['count'], message: `must be an integer >= 0, got ${describe(overrides.count)}` });
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
  const copy: Record<string, unknown> = structuredClone(source);
  for (const field of IDENTITY_FIELDS) delete copy[field];
  if (overrides.image !== undefined) copy.image = overrides.image;
  if (overrides.count !== undefined) copy.count = overrides.count;
  return copy as WarmRuntimeConfigBody;
}
