/**
 * The streaming front end (entries.ts) for the analyses' line reader, which
 * works on a line's bytes: each line is first offered, as bytes, to the
 * reader (analysis-lines.ts); only a line it leaves is decoded and parsed
 * whole (parse.ts), so that such a line is read, or reported, exactly as on
 * the plain path. The lines are those of lines.ts: '\n' ends a line, a
 * trailing '\r' is dropped, a last line without '\n' is reported as
 * truncated if it does not parse, line numbers count from 1.
 *
 * One thread: reading the second half of a big file on a second thread
 * (sending the fields read back to this thread, which assembles and
 * analyses every entry in order) was measured slower here, on two vCPUs
 * shared with other work, in wall time as well as in CPU time.
 */
import { analysisLineReader, type AnalysisLineOptions } from './analysis-lines.js';
import { forEachEntry, type EntryHandler, type ReadStats } from './entries.js';
import { batchBytes, readLineSpans, type LineSpans } from './lines.js';
import type { SlogSource } from './open.js';
import { parseLine, type BadLine } from './parse.js';

/** Every line of `source` read by the analyses' line reader. */
export async function forEachEntryInBytes(
  source: SlogSource,
  onEntry: EntryHandler,
  onBadLine: (bad: BadLine) => void,
  afterBatch: ((bytes: number) => Promise<void> | void) | undefined,
  options: AnalysisLineOptions,
): Promise<ReadStats> {
  const stats: ReadStats = { lines: 0, entries: 0, badLines: 0 };
  const read = options.reader ? options.reader() : analysisLineReader(options);
  let lineNo = 0;

  /** A line the reader leaves: parsed whole, as on the plain path. */
  function parseWhole(buf: Buffer, start: number, end: number, last: boolean): void {
    const parsed = parseLine(buf.toString('utf8', start, end), last);
    if (parsed === undefined) return;
    if (typeof parsed === 'string') {
      stats.badLines += 1;
      onBadLine({ line: lineNo, why: parsed });
      return;
    }
    stats.entries += 1;
    onEntry(parsed, lineNo);
  }

  /** A whole line [start, stop) of `buf`, without its '\n'. */
  function line(buf: Buffer, start: number, stop: number, last: boolean): void {
    lineNo += 1;
    const end = stop > start && buf[stop - 1] === 13 ? stop - 1 : stop;
    const entry = read(buf, start, end);
    if (entry === undefined) {
      parseWhole(buf, start, end, last);
    } else {
      stats.entries += 1;
      onEntry(entry, lineNo);
    }
  }

  /**
   * The lines of one batch (lines.ts). The hot loop, alone in its function:
   * anything rarer in here would send the optimized code back to be compiled
   * again when it first happens, and that code holds the line reader's too.
   */
  function batchLines(batch: LineSpans): void {
    const { bytes, spans } = batch;
    const count = spans.length / 2;
    const lastLine = batch.unterminatedLast ? count - 1 : -1;
    for (let i = 0; i < count; i += 1) line(bytes, spans[2 * i] as number, spans[2 * i + 1] as number, i === lastLine);
  }

  // A plain file is read synchronously (SlogSource.syncChunks).
  const syncChunks = source.syncChunks;
  const input: Iterable<Buffer> | AsyncIterable<Buffer> =
    syncChunks && !source.gzipped ? { [Symbol.iterator]: syncChunks } : (source.stream as AsyncIterable<Buffer>);
  for await (const batch of readLineSpans(input)) {
    batchLines(batch);
    stats.lines = lineNo;
    if (afterBatch) await afterBatch(batchBytes(batch));
  }
  return stats;
}

/**
 * The loop over a slog's entries: entries.ts's forEachEntry, or with
 * `options` the analyses' line reader (same arguments; the last one, a
 * string line parser, is then not used: the byte reader takes its place).
 */
export function entryLoop(options: AnalysisLineOptions | undefined): typeof forEachEntry {
  if (!options) return forEachEntry;
  return (source, onEntry, onBadLine, afterBatch) => forEachEntryInBytes(source, onEntry, onBadLine, afterBatch, options);
}
