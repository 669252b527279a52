/**
 * What the configuration helpers tell the operator without failing: a value they corrected (a `/v1` suffix
 * removed or added) or a risk the spec warns about (Pattern B, keys in plaintext, headers not forwarded).
 */
export interface GatewayConfigNote {
  level: 'info' | 'warning';
  /** Stable code, e.g. `api-base-v1-removed` or `pattern-b-bare-name-400`. */
  code: string;
  message: string;
  /** The input field the note is about, when there is one. */
  path?: (string | number)[];
}

/** Receives each note as it is made (default: notes are only returned where the function returns them). */
export type NoteSink = (note: GatewayConfigNote) => void;

/** Appends a note unless one with the same code and message is already there (shared bases repeat them). */
export function pushNote(notes: GatewayConfigNote[], note: GatewayConfigNote): void {
  if (!notes.some((n) => n.code === note.code && n.message === note.message)) notes.push(note);
}
