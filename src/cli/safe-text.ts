/** Text the CLIs print that came from elsewhere: servers' names and images, users' input. */

/** ` at line L, column C` from a `JSON.parse` error that names a position, else nothing. */
export function jsonErrorPlace(raw: string, error: unknown): string {
  const position = /position (\d+)/.exec(String((error as Error)?.message))?.[1];
  if (position === undefined) return '';
  const before = raw.slice(0, Number(position)).split('\n');
  return ` at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

/**
 * Server text (names, images, messages) on one line, control characters written as escapes (`\n`, `\u001b`):
 * a line break in an image would otherwise start a line of its own in output people copy into a shell, and
 * an escape sequence would drive their terminal.
 */
export function oneLine(text: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return text.replace(/\p{Cc}/gu, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
