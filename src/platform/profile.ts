import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { describe, hasControlCharacters, isPlainObject, isPrototypeKey } from '../core/validate.js';

/** The write shape of an LLM profile. Other fields of the profile: not shown in the spec. */
export interface LlmProfileWrite {
  /** Keep the stored API key even if the settings key differs. */
  preserve_existing_api_key?: boolean;
  /**
   * The app's LLM settings fields (openhands-ai 1.11.0 refuses any other key with 422); the SDK checks the ones
   * it documents.
   */
  llm: {
    model: string;
    /** Stored by the app, never read back (`api_key_set` says whether one is stored); redacted from logs. */
    api_key?: string;
    base_url?: string;
    /** Header name → string value; sent by the runtime on every LLM call (recipes 2 and 4). */
    extra_headers?: Record<string, string>;
  };
}

/** What `getLlmProfile` reads back: the stored LLM settings, never the key itself. */
export interface LlmProfile {
  name: string;
  config: {
    model: string | null;
    base_url: string | null;
    extra_headers: Record<string, string> | null;
  } & Record<string, unknown>;
  api_key_set: boolean;
}

/** Recipe 4's header; its value is a JSON string holding an object. */
export const SPEND_LOGS_METADATA_HEADER = 'x-gateway-spend-logs-metadata';
/** Stamped by the platform SDK at call time with the conversation id: a profile value is overwritten. */
export const SESSION_ID_HEADER = 'x-gateway-session-id';

function isJsonObjectText(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

/** The server validates profile names with this pattern (else 422). */
export const PROFILE_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export function checkProfileName(name: unknown, field = 'profileName'): string {
  if (typeof name !== 'string' || !PROFILE_NAME_PATTERN.test(name)) {
    throw new RequestValidationError('must be 1 to 64 letters, digits, ".", "_" or "-"', field);
  }
  return name;
}

/** Checks the write shape before sending: every bad field is named. */
export function checkProfileWrite(profile: LlmProfileWrite): void {
  const issues: ValidationIssue[] = [];
  if (!isPlainObject(profile as unknown)) {
    throw new RequestValidationError(`must be a plain object with llm, got ${describe(profile)}`, 'profile');
  }
  for (const key of Object.keys(profile).filter(isPrototypeKey)) {
    issues.push({ path: [key], message: 'is not allowed as a key (it would reach the prototype)' });
  }
  const pkey = profile.preserve_existing_api_key;
  if (pkey !== undefined && typeof pkey !== 'boolean') {
    issues.push({ path: ['preserve_existing_api_key'], message: 'must be a boolean' });
  }
  const llm = profile.llm as Record<string, unknown> | undefined;
  if (!isPlainObject(llm)) {
    issues.push({ path: ['llm'], message: `must be a plain object with model, got ${describe(llm)}` });
    throw new RequestValidationError(issues);
  }
  for (const key of Object.keys(llm).filter(isPrototypeKey)) {
    issues.push({ path: ['llm', key], message: 'is not allowed as a key (it would reach the prototype)' });
  }
  if (llm.api_key !== undefined && (typeof llm.api_key !== 'string' || llm.api_key === '')) {
    issues.push({ path: ['llm', 'api_key'], message: 'must be a non-empty string' });
  }
  if (typeof llm.model !== 'string' || llm.model.trim() === '') {
    issues.push({ path: ['llm', 'model'], message: 'must be a non-empty string' });
  } else if (hasControlCharacters(llm.model)) {
    issues.push({ path: ['llm', 'model'], message: 'must not contain control or invisible characters' });
  }
  if (
    llm.base_url !== undefined &&
    (typeof llm.base_url !== 'string' ||
      !/^https?:\/\/\S+$/.test(llm.base_url) ||
      hasControlCharacters(llm.base_url))
  ) {
    issues.push({
      path: ['llm', 'base_url'],
      message: 'must be an http(s) URL without control or invisible characters',
    });
  }
  const headers = llm.extra_headers;
  if (headers !== undefined) {
    if (!isPlainObject(headers)) {
      issues.push({
        path: ['llm', 'extra_headers'],
        message: `must be a plain object of header name to string value, got ${describe(headers)}`,
      });
    } else {
      for (const [name, value] of Object.entries(headers)) {
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) || isPrototypeKey(name)) {
          issues.push({ path: ['llm', 'extra_headers', name], message: 'is not a valid header name' });
        } else if (typeof value !== 'string') {
          issues.push({
            path: ['llm', 'extra_headers', name],
            message: 'must be a string; a JSON value such as spend metadata is sent as JSON text (recipe 4)',
          });
        } else if (/[\r\n\0]/.test(value)) {
          issues.push({ path: ['llm', 'extra_headers', name], message: 'must not contain CR, LF or NUL' });
        } else if (name.toLowerCase() === SPEND_LOGS_METADATA_HEADER && !isJsonObjectText(value)) {
          issues.push({
            path: ['llm', 'extra_headers', name],
            message: 'must be JSON text holding an object (recipe 4), e.g. {"team":"alpha"}',
          });
        }
      }
    }
  }
  if (issues.length > 0) throw new RequestValidationError(issues);
}
