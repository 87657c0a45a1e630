/**
 * The one line splitter: a stream of byte chunks to lines. `\n` ends a line,
 * a `\r` before it is dropped, a UTF-8 byte-order mark at the very start is
 * dropped, line numbers count from 1. Lines come in batches (one per chunk,
 * and a line that spanned chunks as a batch of its own), as places in the
 * chunk's bytes: nothing is decoded until a reader asks for a line's text
 * (batchText), and a reader that can decide from the bytes (scan/) never
 * asks.
 *
 * Decoding: one decoding call per line costs more than the decoding itself,
 * so ASCII text is decoded about PIECE bytes at a time and each line (or
 * part of one) is a slice of that string, which V8 makes without copying.
 * A piece is young garbage, like a line: measured on the 138 MB slog, young
 * collections of 2-4 ms became 0.5-1 ms, where decoding a whole chunk first
 * (a megabyte of strings alive at once) had every young collection copy,
 * then promote, the text not read yet.
 *
 * A line that grows past `bigLineBytes` before its end (a console entry
 * with a huge string, a delivery with a huge argument) is not joined: it
 * comes as a batch of its own, with no spans and a `big` line whose bytes
 * the reader takes as a stream of chunks (scan/big-line.ts), so that it is
 * never held whole. Lines under the threshold take the usual path, untouched.
 *
 * Chunks that end with an InputEndsEarly (gzip data cut short: open.ts)
 * end as any input does, the unfinished last line handed out as the input's
 * unterminated last line; then the InputEndsEarly is thrown, with the number
 * of lines read whole.
 */
import { isAscii } from 'node:buffer';
import { JoinedBytes, KeptBuffer } from './kept-buffers.js';
import { InputEndsEarly } from './open.js';

export interface LineBatch {
  /** The bytes holding the lines: valid only until the next batch is asked for. */
  bytes: Buffer;
  /** Each line's start and end (without its `\n` and a `\r` before it), in pairs. */
  spans: number[];
  /** All of the lines' bytes are ASCII (then latin1 decodes them the same, faster). */
  ascii: boolean;
  /** The 1-based line number of the first line. */
  firstLine: number;
  /** True for the final batch when the input did not end with `\n`. */
  unterminatedLast: boolean;
  /** The decoded piece of `bytes` now held (ASCII batches), and its place. */
  piece: string | undefined;
  pieceStart: number;
  pieceEnd: number;
  /** A line over the big-line threshold: its bytes as a stream (the batch has no spans then). */
  big: BigLine | undefined;
}

/** Where a line is big enough to be read as a stream (readLines' default). */
export const BIG_LINE_BYTES = 4 << 20;

/** Where lines that span chunks are joined (kept-buffers.ts): made at 2 MB, room for a create-vat line (about 1 MB). */
const LINE_BUFFER = new KeptBuffer(2 << 20);

export interface ReadLinesOptions {
  /**
   * A line that reaches this many bytes before its end comes as a BigLine
   * (default: never; the pass gives BIG_LINE_BYTES or its switch).
   */
  bigLineBytes?: number;
}

/**
 * A line too big to hold: its bytes, read once, in order, as they come. A
 * chunk is valid until the next is asked for. The line's `\n` is not part
 * of it, nor a `\r` just before it in the same chunk (one that a chunk
 * boundary parts from its `\n` comes as the last byte: JSON takes it for
 * white space).
 */
export class BigLine {
  private head: Buffer[];
  private done = false;
  /** Bytes of the line read so far (all of them once read). */
  bytes = 0;
  /** Known once read: the input ended before the line's `\n`. */
  unterminated = false;
  /** Told the size of each chunk of the line as it is read (the pass's heap governor). */
  onChunk: ((bytes: number) => void) | undefined;

  constructor(
    head: Buffer[],
    private readonly next: () => Promise<Buffer | undefined>,
    /** Hands back the rest of the chunk the line ended in. */
    private readonly giveBack: (rest: Buffer) => void,
  ) {
    this.head = head;
  }

  /** A big line already in memory (within a chunk): its bytes as one chunk. */
  static whole(bytes: Buffer): BigLine {
    const line = new BigLine([bytes], () => Promise.resolve(undefined), () => undefined);
    line.done = true;
    return line;
  }

  /** The next chunk of the line, or undefined at its end. */
  async read(): Promise<Buffer | undefined> {
    const chunk = await this.readChunk();
    if (chunk !== undefined) this.onChunk?.(chunk.length);
    return chunk;
  }

  private async readChunk(): Promise<Buffer | undefined> {
    const first = this.head.shift();
    if (first !== undefined) {
      this.bytes += first.length;
      return first;
    }
    if (this.done) return undefined;
    const chunk = await this.next();
    if (chunk === undefined) {
      this.done = true;
      this.unterminated = true;
      return undefined;
    }
    const nl = chunk.indexOf(10);
    if (nl < 0) {
      this.bytes += chunk.length;
      return chunk;
    }
    this.done = true;
    if (nl + 1 < chunk.length) this.giveBack(chunk.subarray(nl + 1));
    const end = lineEnd(chunk, 0, nl);
    this.bytes += end;
    return end > 0 ? chunk.subarray(0, end) : this.readChunk();
  }

  async *chunks(): AsyncGenerator<Buffer> {
    for (let chunk = await this.read(); chunk !== undefined; chunk = await this.read()) yield chunk;
  }

  /** Reads what the consumer left of the line. */
  async skip(): Promise<void> {
    while ((await this.read()) !== undefined);
  }
}

/** Below V8's large-object size, so that a piece is young garbage like a line. */
const PIECE = 1 << 16;

/** Buffer's own decoders, which toString() calls after checking its arguments (typed here: @types/node leaves them out). */
interface Decoders {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** The text of bytes [start, end) of a batch (within its lines). */
export function batchText(batch: LineBatch, start: number, end: number): string {
  const bytes = batch.bytes as unknown as Decoders;
  if (!batch.ascii) return bytes.utf8Slice(start, end);
  if (batch.piece === undefined || start < batch.pieceStart || end > batch.pieceEnd) {
    const spans = batch.spans;
    const last = spans[spans.length - 1] as number;
    const pieceEnd = Math.min(last, Math.max(end, start + PIECE));
    batch.piece = bytes.latin1Slice(start, pieceEnd);
    batch.pieceStart = start;
    batch.pieceEnd = pieceEnd;
  }
  return batch.piece.slice(start - batch.pieceStart, end - batch.pieceStart);
}

/**
 * Line `i` of a batch, as text: from the batch's piece when that holds it,
 * else sliced alone (a line read whole is most often a rare one among lines
 * read from their bytes: a piece made for it would be wasted).
 */
export function lineText(batch: LineBatch, i: number): string {
  const start = batch.spans[2 * i] as number;
  const end = batch.spans[2 * i + 1] as number;
  if (batch.piece !== undefined && start >= batch.pieceStart && end <= batch.pieceEnd) return batchText(batch, start, end);
  const bytes = batch.bytes as unknown as Decoders;
  return batch.ascii ? bytes.latin1Slice(start, end) : bytes.utf8Slice(start, end);
}

/** The bytes a batch's lines span, their line ends included. */
export function batchBytes(batch: LineBatch): number {
  const { spans } = batch;
  return spans.length ? (spans[spans.length - 1] as number) - (spans[0] as number) + spans.length / 2 : 0;
}

function batch(bytes: Buffer, spans: number[], ascii: boolean, firstLine: number, unterminatedLast: boolean): LineBatch {
  return { bytes, spans, ascii, firstLine, unterminatedLast, piece: undefined, pieceStart: 0, pieceEnd: 0, big: undefined };
}

/** A line's bytes (its `\n` already cut) without a `\r` at their end: what a reader of single lines (seek.ts, last-time.ts) keeps of a CRLF line. */
export function withoutCr(bytes: Buffer): Buffer {
  return bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.subarray(0, bytes.length - 1) : bytes;
}

/** A line's end, without a `\r` before its `\n`. */
function lineEnd(bytes: Uint8Array, start: number, nl: number): number {
  return nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
}

const BOM = [0xef, 0xbb, 0xbf];

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === BOM[0] && bytes[1] === BOM[1] && bytes[2] === BOM[2];
}

/** The whole lines of `chunk` from `from` on: their spans, and where the unfinished rest begins. */
function wholeLines(chunk: Buffer, from: number): { spans: number[]; rest: number } {
  const spans: number[] = [];
  let start = from;
  let nl = chunk.indexOf(10, start);
  while (nl >= 0) {
    spans.push(start, lineEnd(chunk, start, nl));
    start = nl + 1;
    nl = chunk.indexOf(10, start);
  }
  return { spans, rest: start };
}

/** All the lines of bytes held whole (a slog in memory): one batch, the last line maybe unterminated. */
export function splitLines(bytes: Buffer, firstLine = 1): LineBatch {
  const from = hasBom(bytes) ? 3 : 0;
  const { spans, rest } = wholeLines(bytes, from);
  const unterminated = rest < bytes.length;
  if (unterminated) spans.push(rest, lineEnd(bytes, rest, bytes.length));
  return batch(bytes, spans, isAscii(bytes.subarray(from)), firstLine, unterminated);
}

/**
 * The lines of a stream of chunks. Chunks may be borrowed (valid only until
 * the next one is read): what is kept of one (an unfinished line) is copied.
 * With `bigLineBytes`, a line that reaches that size before its end is
 * handed out as a BigLine (a batch with no spans), to be read before the
 * next batch is asked for (what is not read of it is skipped then).
 */
export async function* readLines(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  options: ReadLinesOptions = {},
): AsyncGenerator<LineBatch> {
  const bigAt = options.bigLineBytes ?? Infinity;
  const source: AsyncIterator<Buffer> | Iterator<Buffer> =
    Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : (chunks as Iterable<Buffer>)[Symbol.iterator]();
  /** The rest of a chunk a big line ended in: the next chunk to read. */
  let given: Buffer | undefined;
  /** The input's data ended early: thrown once its last line is handed out. */
  let endedEarly: InputEndsEarly | undefined;
  const next = async (): Promise<Buffer | undefined> => {
    if (given !== undefined) {
      const rest = given;
      given = undefined;
      return rest;
    }
    if (endedEarly !== undefined) return undefined;
    let r: IteratorResult<Buffer>;
    try {
      r = await source.next();
    } catch (err) {
      if (!(err instanceof InputEndsEarly)) throw err;
      // The line being read (carried, or a big line) is the unfinished one: those before it are whole.
      err.wholeLines = lineNo - 1;
      endedEarly = err;
      return undefined;
    }
    return r.done ? undefined : r.value;
  };
  const giveBack = (rest: Buffer): void => {
    given = rest;
  };
  // An unfinished line, carried over to the next chunk (chunks may be borrowed).
  const carry = new JoinedBytes(LINE_BUFFER);
  let lineNo = 1;
  let atStart = true;
  try {
    for (let chunk = await next(); chunk !== undefined; chunk = await next()) {
      if (atStart) {
        if (chunk.length === 0) continue;
        // A byte-order mark (editors on Windows write one): not part of the first line.
        if (carry.length + chunk.length < 3) {
          carry.append(chunk);
          continue;
        }
        if (carry.length > 0) {
          carry.append(chunk);
          chunk = Buffer.from(carry.view());
          carry.clear();
        }
        atStart = false;
        if (hasBom(chunk)) chunk = chunk.subarray(3);
      }
      let start = 0;
      const nl = carry.length > 0 ? chunk.indexOf(10) : -1;
      if (nl >= 0) {
        // The line begun in earlier chunks, whole: a batch of its own (its bytes are the
        // carry's until the next append, after this chunk's lines were handed out).
        carry.append(chunk.subarray(0, nl));
        const whole = carry.view();
        carry.clear();
        const end = lineEnd(whole, 0, whole.length);
        if (end > bigAt) yield bigBatch(BigLine.whole(whole.subarray(0, end)), lineNo);
        else yield batch(whole, [0, end], false, lineNo, false);
        lineNo += 1;
        start = nl + 1;
      }
      const from = start;
      const lines = wholeLines(chunk, start);
      const spans = lines.spans;
      start = lines.rest;
      if (spans.length) {
        if (start - from > bigAt) {
          // Only a chunk bigger than the threshold can hold a big line.
          for (const b of splitBig(chunk, spans, lineNo, bigAt)) yield b;
        } else yield batch(chunk, spans, isAscii(chunk.subarray(from, start)), lineNo, false);
        lineNo += spans.length / 2;
      }
      if (start < chunk.length) {
        if (carry.length + chunk.length - start > bigAt) {
          // Too big to join: the line as a stream, from what was carried on.
          const head = carry.length > 0 ? [carry.view(), chunk.subarray(start)] : [chunk.subarray(start)];
          const big = new BigLine(head, next, giveBack);
          yield bigBatch(big, lineNo);
          await big.skip();
          carry.clear();
          lineNo += 1;
          continue;
        }
        carry.append(chunk.subarray(start));
      }
    }
    if (carry.length > 0) {
      const whole = carry.view();
      let bytes = atStart && hasBom(whole) ? whole.subarray(3) : whole;
      if (atStart) {
        // An input of under three bytes (held to tell a byte-order mark) may hold whole lines: `\n`, `{\n`.
        const lines = wholeLines(bytes, 0);
        if (lines.spans.length > 0) {
          yield batch(bytes, lines.spans, false, lineNo, false);
          lineNo += lines.spans.length / 2;
          if (endedEarly !== undefined) endedEarly.wholeLines += lines.spans.length / 2;
        }
        bytes = bytes.subarray(lines.rest);
      }
      if (bytes.length > 0) yield batch(bytes, [0, lineEnd(bytes, 0, bytes.length)], false, lineNo, true);
    }
    if (endedEarly !== undefined) throw endedEarly;
  } finally {
    carry.release();
    // Stopped early (the consumer stopped, or failed): the source is closed too (its file, its stream).
    await source.return?.();
  }
}

const EMPTY = Buffer.alloc(0);

function bigBatch(big: BigLine, line: number): LineBatch {
  const b = batch(EMPTY, [], true, line, false);
  b.big = big;
  return b;
}

/** The whole lines of a chunk as batches, each line over `bigAt` bytes a big line of its own. */
function* splitBig(chunk: Buffer, spans: number[], firstLine: number, bigAt: number): Generator<LineBatch> {
  let from = 0;
  for (let i = 0; i < spans.length; i += 2) {
    const start = spans[i] as number;
    const end = spans[i + 1] as number;
    if (end - start <= bigAt) continue;
    if (i > from) yield normalBatch(chunk, spans.slice(from, i), firstLine + from / 2);
    yield bigBatch(BigLine.whole(chunk.subarray(start, end)), firstLine + i / 2);
    from = i + 2;
  }
  if (from < spans.length) yield normalBatch(chunk, spans.slice(from), firstLine + from / 2);
}

function normalBatch(chunk: Buffer, spans: number[], firstLine: number): LineBatch {
  return batch(chunk, spans, isAscii(chunk.subarray(spans[0] as number, spans[spans.length - 1] as number)), firstLine, false);
}
