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
 */
import { isAscii } from 'node:buffer';

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

/** Line `i` of a batch, as text. */
export function lineText(batch: LineBatch, i: number): string {
  return batchText(batch, batch.spans[2 * i] as number, batch.spans[2 * i + 1] as number);
}

/** The bytes a batch's lines span, their line ends included. */
export function batchBytes(batch: LineBatch): number {
  const { spans } = batch;
  return spans.length ? (spans[spans.length - 1] as number) - (spans[0] as number) + spans.length / 2 : 0;
}

function batch(bytes: Buffer, spans: number[], ascii: boolean, firstLine: number, unterminatedLast: boolean): LineBatch {
  return { bytes, spans, ascii, firstLine, unterminatedLast, piece: undefined, pieceStart: 0, pieceEnd: 0 };
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
 */
export async function* readLines(chunks: AsyncIterable<Buffer> | Iterable<Buffer>): AsyncGenerator<LineBatch> {
  let carry: Buffer[] = [];
  let carryLength = 0;
  let lineNo = 1;
  let atStart = true;
  for await (let chunk of chunks) {
    if (atStart) {
      if (chunk.length === 0) continue;
      // A byte-order mark (editors on Windows write one): not part of the first line.
      if (carryLength + chunk.length < 3) {
        carry.push(Buffer.from(chunk));
        carryLength += chunk.length;
        continue;
      }
      if (carryLength > 0) {
        chunk = Buffer.concat([...carry, chunk]);
        carry = [];
        carryLength = 0;
      }
      atStart = false;
      if (hasBom(chunk)) chunk = chunk.subarray(3);
    }
    let start = 0;
    const nl = carryLength > 0 ? chunk.indexOf(10) : -1;
    if (nl >= 0) {
      // The line begun in earlier chunks, whole: a batch of its own.
      carry.push(chunk.subarray(0, nl));
      const whole = Buffer.concat(carry, carryLength + nl);
      carry = [];
      carryLength = 0;
      yield batch(whole, [0, lineEnd(whole, 0, whole.length)], false, lineNo, false);
      lineNo += 1;
      start = nl + 1;
    }
    const from = start;
    const lines = wholeLines(chunk, start);
    const spans = lines.spans;
    start = lines.rest;
    if (spans.length) {
      yield batch(chunk, spans, isAscii(chunk.subarray(from, start)), lineNo, false);
      lineNo += spans.length / 2;
    }
    if (start < chunk.length) {
      carry.push(Buffer.from(chunk.subarray(start)));
      carryLength += chunk.length - start;
    }
  }
  if (carryLength > 0) {
    const whole = Buffer.concat(carry, carryLength);
    const bytes = atStart && hasBom(whole) ? whole.subarray(3) : whole;
    if (bytes.length > 0) yield batch(bytes, [0, lineEnd(bytes, 0, bytes.length)], false, lineNo, true);
  }
}
