/**
 * Issue messages. The models use `zod/mini` (a quarter of classic zod's size), which ships no error messages
 * unless an application loads a locale globally; this small map is passed to every parse instead, so messages
 * read the same whatever the application configured. Messages name types and limits, never input values.
 */
import type * as z from 'zod/mini';

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function list(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v) ?? String(v)).join(' | ');
}

type RawIssue = z.core.$ZodRawIssue & {
  expected?: string;
  values?: readonly unknown[];
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  exact?: boolean;
  origin?: string;
  keys?: readonly string[];
  format?: string;
  options?: readonly unknown[];
};

/** The error map of every parse in this module. */
export const issueMessage = (issue: RawIssue): string => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? `required ${issue.expected ?? 'value'} is missing`
        : `expected ${issue.expected ?? 'another type'}, received ${typeOf(issue.input)}`;
    case 'invalid_value':
      return `expected ${issue.values && issue.values.length > 1 ? 'one of ' : ''}${list(issue.values ?? [])}`;
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = small ? issue.minimum : issue.maximum;
      const op = issue.exact
        ? 'exactly'
        : small
          ? issue.inclusive
            ? '>='
            : '>'
          : issue.inclusive
            ? '<='
            : '<';
      const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      return `expected ${issue.origin ?? 'value'} ${op} ${String(bound)}${unit}`;
    }
    case 'invalid_format':
      return `invalid ${issue.format ?? 'format'}`;
    case 'unrecognized_keys':
      return `unknown key(s) ${list(issue.keys ?? [])}`;
    case 'invalid_union': {
      const options = issue.options ?? [];
      if (options.length === 0) return 'matches none of the allowed shapes';
      const shown =
        options.length > 6 ? `${list(options.slice(0, 6))} | … (${options.length} in all)` : list(options);
      return `unknown value, expected one of ${shown}`;
    }
    default:
      return 'invalid value';
  }
};

/** Parse parameters carrying the error map. */
export const PARSE_PARAMS = { error: issueMessage } as z.core.ParseContext<z.core.$ZodIssue>;
