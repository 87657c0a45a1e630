/**
 * Splits a byte stream into lines without readline: chunks are scanned for
 * '\n' as Buffers, and only whole lines are decoded. Lines come in batches
 * (one batch per chunk) to keep the per-line overhead low.
 *
 * readLineSpans gives each batch as places in its bytes, to be decoded just
 * before use (spanText), 64 KB at a time: a line's string then dies young,
 * which the garbage collector handles for next to nothing, where decoding a
 * whole chunk's lines first (a megabyte of strings alive at once) had every
 * young collection copy, then promote, the lines not read yet. Measured on
 * the 138 MB slog: young collections of 2-4 ms became 0.5-1 ms, and the
 * text render's garbage collection time fell by half.
 */
import { isAscii } from 'node:buffer';
import type { Readable } from 'node:stream';

export interface LineBatch {
  /** The lines, without their '\n' (and without a trailing '\r'). */
  lines: string[];
  /** The 1-based line number of lines[0]. */
  firstLine: number;
  /** True for the final batch when the input did not end with '\n'. */
  unterminatedLast: boolean;
}

export interface LineSpans {
  /** The bytes holding the lines: valid only until the next batch is asked for. */
  bytes: Buffer;
  /** Each line's start and end (at its '\n', or the end of input), in pairs. */
  spans: number[];
  /** All of `bytes` is ASCII (then latin1 decodes it the same, faster). */
  ascii: boolean;
  /** The 1-based line number of the first line. */
  firstLine: number;
  /** True for the final batch when the input did not end with '\n'. */
  unterminatedLast: boolean;
  /** ASCII lines are decoded a piece of about PIECE bytes at a time (spanText): the piece, and its place in `bytes`. */
  piece?: string;
  pieceStart?: number;
  pieceEnd?: number;
}

/**
 * One decoding call per line costs more than the decoding itself: ASCII
 * lines are decoded this many bytes of whole lines at a time, and each line
 * is a slice of that string (which V8 makes without copying). Below V8's
 * large-object size, so that a piece is young garbage like a line.
 */
const PIECE = 1 << 16;

/** No piece decoded yet (every batch starts with the same fields: one object shape for V8). */
const NO_PIECE = { piece: undefined, pieceStart: 0, pieceEnd: 0 } as const;

/** Buffer's own decoders, which toString() calls after checking its arguments (typed here: @types/node leaves them out). */
interface Decoders {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
const direct = typeof (Buffer.prototype as unknown as Partial<Decoders>).latin1Slice === 'function' && typeof (Buffer.prototype as unknown as Partial<Decoders>).utf8Slice === 'function';

/** Line `i` of a batch: its text without '\n' and a trailing '\r'. */
export function spanText(batch: LineSpans, i: number): string {
  const { bytes, spans } = batch;
  const start = spans[2 * i] as number;
  let end = spans[2 * i + 1] as number;
  if (end > start && bytes[end - 1] === 13) end -= 1;
  if (!direct) return bytes.toString(batch.ascii ? 'latin1' : 'utf8', start, end);
  const decoders = bytes as unknown as Decoders;
  if (!batch.ascii) return decoders.utf8Slice(start, end);
  let pieceStart = batch.pieceStart as number;
  if (batch.piece === undefined || start < pieceStart || end > (batch.pieceEnd as number)) {
    // A new piece: this line and those after it up to about PIECE bytes.
    const count = spans.length / 2;
    let last = i;
    while (last + 1 < count && (spans[2 * last + 3] as number) - start <= PIECE) last += 1;
    pieceStart = start;
    batch.pieceStart = start;
    batch.pieceEnd = spans[2 * last + 1] as number;
    batch.piece = decoders.latin1Slice(start, batch.pieceEnd);
  }
  return (batch.piece as string).slice(start - pieceStart, end - pieceStart);
}

/** The bytes a batch's lines span, their line ends included. */
export function batchBytes(batch: LineSpans): number {
  const { spans } = batch;
  return spans.length ? (spans[spans.length - 1] as number) - (spans[0] as number) + spans.length / 2 : 0;
}

/**
 * Chunks may be borrowed (valid only until the next one is read): what is
 * kept of one (an unfinished line) is copied.
 */
export async function* readLineSpans(stream: Readable | AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<LineSpans> {
  let carry: Buffer[] = [];
  let carryLength = 0;
  let lineNo = 1;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let nl = chunk.indexOf(10);
    if (nl >= 0 && carryLength > 0) {
      // The line begun in earlier chunks, whole: a batch of its own.
      carry.push(chunk.subarray(0, nl));
      const whole = Buffer.concat(carry, carryLength + nl);
      carry = [];
      carryLength = 0;
      yield { bytes: whole, spans: [0, whole.length], ascii: false, firstLine: lineNo, unterminatedLast: false, ...NO_PIECE };
      lineNo += 1;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    const spans: number[] = [];
    const from = start;
    while (nl >= 0) {
      spans.push(start, nl);
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (spans.length) {
      yield { bytes: chunk, spans, ascii: isAscii(chunk.subarray(from, start)), firstLine: lineNo, unterminatedLast: false, ...NO_PIECE };
      lineNo += spans.length / 2;
    }
    if (start < chunk.length) {
      carry.push(Buffer.from(chunk.subarray(start)));
      carryLength += chunk.length - start;
    }
  }
  if (carryLength > 0) {
    const whole = Buffer.concat(carry, carryLength);
    yield { bytes: whole, spans: [0, whole.length], ascii: false, firstLine: lineNo, unterminatedLast: true, ...NO_PIECE };
  }
}

/** The same lines, decoded a batch at a time. */
export async function* readLineBatches(stream: Readable | AsyncIterable<Buffer>): AsyncGenerator<LineBatch> {
  for await (const batch of readLineSpans(stream)) {
    const lines: string[] = [];
    for (let i = 0; i < batch.spans.length / 2; i += 1) lines.push(spanText(batch, i));
    yield { lines, firstLine: batch.firstLine, unterminatedLast: batch.unterminatedLast };
  }
}
