/**
 * Cuts a slog's decompressed bytes into chunks for the parallel render.
 * Every chunk but the first starts at a `crank-start` line (checked by
 * parsing that one line), so that no crank spans two chunks and each chunk
 * can be assembled into cranks on its own: ending a chunk flushes an open
 * crank exactly as the next crank-start would.
 *
 * Chunks live in buffers that are handed back (`ChunkBuffers.give`) once
 * their text is written, and reused: memory stays flat however long the slog.
 *
 * A stretch longer than `maxBytes` without any crank-start cannot be cut: the
 * reader then hands back everything not yet cut (`rest`), and the caller
 * goes on without chunks, reading the rest from the same iterator.
 */

const CRANK_START_LINE = Buffer.from('\n{"type":"crank-start"');

export type SlogChunk =
  /** Bytes to render (a view of a pooled buffer: give it back); `last` when the input ends with them. */
  | { kind: 'chunk'; bytes: Buffer; last: boolean }
  /** No cut possible: these bytes, then whatever the input still holds. */
  | { kind: 'rest'; bytes: Buffer };

/** Is the line buf[start, end) a crank-start entry, as the line parser would read it? */
function isCrankStartLine(buf: Buffer, start: number, end: number): boolean {
  let stop = end;
  if (stop > start && buf[stop - 1] === 13) stop -= 1;
  try {
    const value = JSON.parse(buf.toString('utf8', start, stop)) as unknown;
    return (
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      (value as { type?: unknown }).type === 'crank-start'
    );
  } catch {
    return false;
  }
}

/**
 * The start of the last whole crank-start line in buf that begins after
 * `from`, or -1. The line must end (with '\n') inside buf: only then can it
 * be checked.
 */
export function lastCrankStart(buf: Buffer, from = 0): number {
  let at = buf.length;
  for (;;) {
    const idx = buf.lastIndexOf(CRANK_START_LINE, at);
    if (idx < 0 || idx + 1 <= from) return -1;
    const start = idx + 1;
    const end = buf.indexOf(10, start);
    if (end >= 0 && isCrankStartLine(buf, start, end)) return start;
    at = idx - 1;
    if (at < 0) return -1;
  }
}

/** Reusable chunk buffers, each with an ArrayBuffer of its own (so that it can be transferred to a worker). */
export class ChunkBuffers {
  private readonly free: ArrayBuffer[] = [];

  constructor(
    /** The usual size. */
    readonly size: number,
    /** How many free buffers to keep. */
    private readonly keep: number,
  ) {}

  /** A buffer of at least `min` bytes. */
  take(min = this.size): Buffer {
    const i = this.free.findIndex((b) => b.byteLength >= min);
    if (i >= 0) {
      const [ab] = this.free.splice(i, 1);
      return Buffer.from(ab as ArrayBuffer);
    }
    return Buffer.allocUnsafeSlow(Math.max(min, this.size));
  }

  give(bytes: Uint8Array): void {
    const ab = bytes.buffer;
    if (!(ab instanceof ArrayBuffer) || ab.byteLength === 0) return;
    // Only usual-size buffers are kept: one grown for a long stretch (a vat's
    // megabyte source bundle) is left to the collector, so the pool stays small.
    if (this.free.length < this.keep && ab.byteLength === this.size) this.free.push(ab);
  }
}

export interface ChunkReaderOptions {
  /** Cut once this many bytes are waiting. */
  targetBytes: number;
  /** Give up cutting past this many bytes without a crank-start. */
  maxBytes: number;
  buffers: ChunkBuffers;
}

/**
 * Reads `input` (whose chunks may be borrowed: they are copied at once) and
 * yields chunks of about `targetBytes`. When the input fails, the complete
 * lines read so far are yielded as a last chunk (not `last`: the input did
 * not end), then the error is thrown.
 */
export async function* readSlogChunks(input: AsyncIterator<Buffer>, options: ChunkReaderOptions): AsyncGenerator<SlogChunk> {
  const { buffers, targetBytes } = options;
  let cur = buffers.take();
  let len = 0;
  /** Bytes at the front of `cur` already searched for a cut (an unchecked line can straddle the old end). */
  let searched = 0;
  try {
    for (;;) {
      const next = await input.next();
      if (next.done) break;
      const piece = next.value;
      if (len + piece.length > cur.length) {
        const bigger = buffers.take(Math.max(cur.length * 2, len + piece.length));
        cur.copy(bigger, 0, 0, len);
        buffers.give(cur);
        cur = bigger;
      }
      piece.copy(cur, len);
      len += piece.length;
      if (len < targetBytes) continue;
      const waiting = cur.subarray(0, len);
      const cut = lastCrankStart(waiting, searched);
      if (cut > 0) {
        const rest = buffers.take(Math.max(buffers.size, len - cut));
        cur.copy(rest, 0, cut, len);
        const chunk = cur.subarray(0, cut);
        cur = rest;
        len -= cut;
        searched = 0;
        yield { kind: 'chunk', bytes: chunk, last: false };
      } else if (len >= options.maxBytes) {
        const bytes = Buffer.from(waiting);
        buffers.give(cur);
        yield { kind: 'rest', bytes };
        return;
      } else {
        searched = Math.max(0, waiting.lastIndexOf(10) - CRANK_START_LINE.length);
      }
    }
  } catch (err) {
    const lastNl = cur.subarray(0, len).lastIndexOf(10);
    if (lastNl >= 0) yield { kind: 'chunk', bytes: cur.subarray(0, lastNl + 1), last: false };
    throw err;
  }
  yield { kind: 'chunk', bytes: cur.subarray(0, len), last: true };
}
