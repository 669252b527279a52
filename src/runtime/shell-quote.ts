const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes `value` for a POSIX shell exactly like Python's `shlex.quote` (what the helper CLI's `bootstrap`
 * uses): unchanged when every character is safe, else single-quoted with `'` written as `'"'"'`.
 */
export function shellQuote(value: string): string {
  if (value === '') return "''";
  if (SAFE.test(value)) return value;
  return `'${value.replaceAll("'", `'"'"'`)}'`;
}
