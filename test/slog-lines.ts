/**
 * Hand-made slog lines for tests, read the way a slog is: each object is
 * written as a JSON line and read back through the scan layer, by the byte
 * reader and by the plain path, which must agree (so a test of a shape the
 * real slogs lack tests both readers too).
 */
import { expect } from 'vitest';
import { MODEL_READS } from '../src/model/reads.js';
import { BadLine } from '../src/scan/plain-reader.js';
import { lineReader } from '../src/scan/line-reader.js';
import { mergeReads, READ_ALL, type Reads } from '../src/scan/reads.js';
import type { SlogEntry } from '../src/scan/entry-types.js';
import { splitLines } from '../src/source/lines.js';

/** A hand-made line: any object with a type (fields as the slogger writes them). */
export type Line = { type: string; [key: string]: unknown };

/** The entries a consumer with these reads gets from the lines (both readers agreeing). */
export function readEntries(lines: readonly Line[], reads: Reads = READ_ALL): SlogEntry[] {
  const batch = splitLines(Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n')));
  const merged = mergeReads(MODEL_READS, reads);
  const fast = lineReader(merged, { fast: true });
  const plain = lineReader(merged, { fast: false });
  const out: SlogEntry[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const a = fast.read(batch, i);
    const b = plain.read(batch, i);
    expect(a, `line ${i + 1}: ${JSON.stringify(lines[i]).slice(0, 200)}`).toStrictEqual(b);
    if (a === undefined || a instanceof BadLine) throw new Error(`line ${i + 1} is not a slog entry`);
    out.push(a);
  }
  return out;
}
