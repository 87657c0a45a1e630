/**
 * The streaming front end: a slog source to entries, in order, each handed
 * to a callback with its line number. Bad lines go to `onBadLine` and are
 * skipped; nothing is retained.
 */
import { readLineBatches } from './lines.js';
import type { SlogSource } from './open.js';
import { parseLine, type BadLine } from './parse.js';
import type { SlogEntry } from '../model/types.js';

export type EntryHandler = (entry: SlogEntry, line: number) => void;

export interface ReadStats {
  lines: number;
  entries: number;
  badLines: number;
}

export async function forEachEntry(
  source: SlogSource,
  onEntry: EntryHandler,
  onBadLine: (bad: BadLine) => void,
  afterBatch?: () => Promise<void> | void,
): Promise<ReadStats> {
  const stats: ReadStats = { lines: 0, entries: 0, badLines: 0 };
  for await (const batch of readLineBatches(source.stream)) {
    const { lines, firstLine } = batch;
    for (let i = 0; i < lines.length; i += 1) {
      const line = firstLine + i;
      const parsed = parseLine(lines[i] as string, batch.unterminatedLast);
      if (parsed === undefined) continue;
      if (typeof parsed === 'string') {
        stats.badLines += 1;
        onBadLine({ line, why: parsed });
        continue;
      }
      stats.entries += 1;
      onEntry(parsed, line);
    }
    stats.lines = firstLine + lines.length - 1;
    if (afterBatch) await afterBatch();
  }
  return stats;
}
