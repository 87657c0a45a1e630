/**
 * The streaming front end: a slog source to entries, in order, each handed
 * to a callback with its line number. Bad lines go to `onBadLine` and are
 * skipped; nothing is retained.
 */
import { batchBytes, readLineSpans, spanText } from './lines.js';
import type { SlogSource } from './open.js';
import { parseLine, type BadLine } from './parse.js';
import type { SlogEntry } from '../model/types.js';

export type EntryHandler = (entry: SlogEntry, line: number) => void;

export interface ReadStats {
  lines: number;
  entries: number;
  badLines: number;
}

/** Reads one line: the entry, a reason it is not one, or undefined for a blank line (parse.ts). */
export type LineParser = (text: string, unterminated: boolean) => SlogEntry | string | undefined;

export async function forEachEntry(
  source: SlogSource,
  onEntry: EntryHandler,
  onBadLine: (bad: BadLine) => void,
  /** Called after each batch with the bytes of its lines (decompressed: a gzip file's raw bytes say less). */
  afterBatch?: (bytes: number) => Promise<void> | void,
  parse: LineParser = parseLine,
): Promise<ReadStats> {
  const stats: ReadStats = { lines: 0, entries: 0, badLines: 0 };
  const chunks = source.chunks;
  const input = chunks ? { [Symbol.asyncIterator]: chunks } : source.stream;
  for await (const batch of readLineSpans(input)) {
    const { firstLine } = batch;
    const count = batch.spans.length / 2;
    for (let i = 0; i < count; i += 1) {
      const line = firstLine + i;
      // Decoded only now: see lines.ts.
      const parsed = parse(spanText(batch, i), batch.unterminatedLast && i === count - 1);
      if (parsed === undefined) continue;
      if (typeof parsed === 'string') {
        stats.badLines += 1;
        onBadLine({ line, why: parsed });
        continue;
      }
      stats.entries += 1;
      onEntry(parsed, line);
    }
    stats.lines = firstLine + count - 1;
    if (afterBatch) await afterBatch(batchBytes(batch));
  }
  return stats;
}
