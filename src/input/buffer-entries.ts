/**
 * The entries of slog lines held in one Buffer (a chunk of the parallel
 * render), with exactly the semantics of the streaming path (lines.ts +
 * parse.ts): '\n' ends a line, a trailing '\r' is dropped, blank lines are
 * skipped, and a bad line is reported with its (chunk-relative) line number.
 */
import { isAscii } from 'node:buffer';
import type { SlogEntry } from '../model/types.js';
import { parseLine, type BadLine } from './parse.js';
import type { LineParser, ReadStats } from './entries.js';

export interface BufferEntriesOptions {
  /** The chunk ends the input: a last line without '\n' is reported as truncated if it does not parse. */
  last: boolean;
  onEntry: (entry: SlogEntry, line: number) => void;
  onBadLine: (bad: BadLine) => void;
  /** How a line is read (default: parseLine). */
  parse?: LineParser;
}

/** Line numbers are 1-based within `buf`. */
export function forEachEntryInBuffer(buf: Uint8Array, options: BufferEntriesOptions): ReadStats {
  const bytes = Buffer.isBuffer(buf) ? buf : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const stats: ReadStats = { lines: 0, entries: 0, badLines: 0 };
  const { onEntry, onBadLine } = options;
  const parse = options.parse ?? parseLine;
  // ASCII bytes read the same as latin1, which is faster to decode.
  const encoding = isAscii(bytes) ? 'latin1' : 'utf8';
  const end = bytes.length;
  let start = 0;
  let line = 0;
  while (start < end) {
    let nl = bytes.indexOf(10, start);
    const terminated = nl >= 0;
    if (!terminated) nl = end;
    line += 1;
    let stop = nl;
    if (stop > start && bytes[stop - 1] === 13) stop -= 1;
    const parsed = parse(bytes.toString(encoding, start, stop), !terminated && options.last);
    if (typeof parsed === 'string') {
      stats.badLines += 1;
      onBadLine({ line, why: parsed });
    } else if (parsed !== undefined) {
      stats.entries += 1;
      onEntry(parsed, line);
    }
    start = nl + 1;
  }
  stats.lines = line;
  return stats;
}
