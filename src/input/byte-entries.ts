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
  const read = analysisLineReader(options);
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

  // Chunks may be borrowed (valid until the next): an unfinished line is copied.
  let carry: Buffer[] = [];
  let carryLength = 0;

  /**
   * The whole lines of `buf` from `start`; returns where the unfinished
   * last one starts. The hot loop, alone in its function: anything rarer
   * in here (a line across chunks) would send the optimized code back to
   * be compiled again when it first happens, and that code holds the line
   * reader's too.
   */
  function wholeLines(buf: Buffer, start: number): number {
    let nl = buf.indexOf(10, start);
    while (nl >= 0) {
      line(buf, start, nl, false);
      start = nl + 1;
      nl = buf.indexOf(10, start);
    }
    return start;
  }

  /** The lines of a chunk, the first one maybe begun in the chunks before. */
  function chunkLines(chunk: Buffer): void {
    let start = 0;
    if (carryLength > 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        carry.push(Buffer.from(chunk));
        carryLength += chunk.length;
        return;
      }
      carry.push(chunk.subarray(0, nl));
      const whole = Buffer.concat(carry, carryLength + nl);
      carry = [];
      carryLength = 0;
      line(whole, 0, whole.length, false);
      start = nl + 1;
    }
    start = wholeLines(chunk, start);
    if (start < chunk.length) {
      carry.push(Buffer.from(chunk.subarray(start)));
      carryLength += chunk.length - start;
    }
  }

  // A plain file is read synchronously (SlogSource.syncChunks).
  const syncChunks = source.syncChunks;
  const input: Iterable<Buffer> | AsyncIterable<Buffer> =
    syncChunks && !source.gzipped ? { [Symbol.iterator]: syncChunks } : (source.stream as AsyncIterable<Buffer>);
  for await (const chunk of input) {
    chunkLines(chunk);
    stats.lines = lineNo;
    if (afterBatch) await afterBatch(chunk.length);
  }
  if (carryLength > 0) {
    const whole = Buffer.concat(carry, carryLength);
    line(whole, 0, whole.length, true);
    stats.lines = lineNo;
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
