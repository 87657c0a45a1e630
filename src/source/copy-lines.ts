/**
 * The raw bytes of chosen lines of a source, by line number: what
 * `slogulate extract` writes once its pass (run/extract.ts) knows which
 * lines a selection needs. Lines are found by their `\n` as lines.ts finds
 * them (the line splitter of the pass); each is written as the file has it
 * (a `\r` before its `\n` kept), with a `\n` added to a last line that
 * lacks one, and the byte-order mark of the source's first line dropped
 * (one in the middle of the output would make that line no slog entry).
 * Nothing is parsed. Reading stops after the last line chosen. Memory: one
 * chunk, and the pieces of one chosen line that runs across chunks.
 */
import type { SlogSource } from './open.js';

/** Lines `from` to `to` (inclusive, numbered from 1 in the source's file). */
export interface LineSpan {
  from: number;
  to: number;
}

/** Spans sorted by their start, overlapping and adjacent ones merged into one. */
export function mergedSpans(spans: readonly LineSpan[]): LineSpan[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from);
  const out: LineSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && s.from <= last.to + 1) last.to = Math.max(last.to, s.to);
    else out.push({ from: s.from, to: s.to });
  }
  return out;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NL = Buffer.from('\n');

/**
 * Writes the lines of `spans` (merged, sorted: mergedSpans) of `source`,
 * whose first line is numbered `firstLine`, to `write` (each buffer is
 * lent: valid only during the call); `afterChunk` is awaited after each
 * chunk (backpressure). Resolves with the number of lines written.
 */
export async function copyLines(
  source: SlogSource,
  firstLine: number,
  spans: readonly LineSpan[],
  write: (bytes: Buffer) => void,
  afterChunk?: () => Promise<void> | void,
): Promise<number> {
  let span = 0;
  let line = firstLine;
  let written = 0;
  /** Is the line being read (from the chunk's start) one to write, and has a piece of it been written? */
  let midLine = false;
  const wanted = (n: number): boolean => {
    while (span < spans.length && (spans[span] as LineSpan).to < n) span += 1;
    const s = spans[span];
    return s !== undefined && s.from <= n;
  };
  const done = (): boolean => span >= spans.length || (spans[spans.length - 1] as LineSpan).to < line;
  let first = true;
  for await (const chunk of source.chunks()) {
    let at = 0;
    if (first && line === 1 && chunk.subarray(0, 3).equals(BOM)) at = 3;
    first = false;
    while (at < chunk.length) {
      const nl = chunk.indexOf(10, at);
      const end = nl < 0 ? chunk.length : nl + 1;
      if (wanted(line)) {
        write(chunk.subarray(at, end));
        midLine = nl < 0;
      }
      if (nl < 0) break;
      written += wanted(line) ? 1 : 0;
      line += 1;
      at = end;
      if (done()) return written;
    }
    if (afterChunk) await afterChunk();
  }
  // A last line without its newline.
  if (midLine) {
    write(NL);
    written += 1;
  }
  return written;
}
