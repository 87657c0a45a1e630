/**
 * Lines to slog entries. A line that is not a JSON object with a string
 * `type` is a BadLine: reported (file and line) and skipped, never fatal.
 */
import type { SlogEntry } from '../model/types.js';

export interface BadLine {
  line: number;
  why: string;
}

/** Parses one line; returns the entry, or a reason it is not one. Blank lines give `undefined`. */
export function parseLine(text: string, unterminated = false): SlogEntry | string | undefined {
  if (text.length === 0 || (text.trim().length === 0)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = oneLine((err as Error).message);
    return unterminated ? `truncated last line (no newline at end): ${why}` : `not JSON: ${why}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a slog entry (not a JSON object)';
  if (typeof (value as { type?: unknown }).type !== 'string') return 'not a slog entry (no "type" string)';
  return value as SlogEntry;
}

/** Error messages can quote the line: keep them to one short line. */
function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ');
  return flat.length > 160 ? `${flat.slice(0, 157)}...` : flat;
}
