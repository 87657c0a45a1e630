/**
 * Splits a byte stream into lines without readline: chunks are scanned for
 * '\n' as Buffers, and only whole lines are decoded. Lines come in batches
 * (one batch per chunk) to keep the per-line overhead low.
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

/** A line's text; `ascii` when the bytes are known to be ASCII (then latin1 reads them the same, faster). */
function decode(buf: Buffer, start: number, end: number, ascii = false): string {
  if (end > start && buf[end - 1] === 13) end -= 1;
  return buf.toString(ascii ? 'latin1' : 'utf8', start, end);
}

/**
 * Chunks may be borrowed (valid only until the next one is read): what is
 * kept of one (an unfinished line) is copied.
 */
export async function* readLineBatches(stream: Readable | AsyncIterable<Buffer>): AsyncGenerator<LineBatch> {
  let carry: Buffer[] = [];
  let carryLength = 0;
  let lineNo = 1;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const lines: string[] = [];
    const ascii = isAscii(chunk);
    let start = 0;
    let nl = chunk.indexOf(10);
    if (nl >= 0 && carryLength > 0) {
      carry.push(chunk.subarray(0, nl));
      const whole = Buffer.concat(carry, carryLength + nl);
      lines.push(decode(whole, 0, whole.length));
      carry = [];
      carryLength = 0;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    while (nl >= 0) {
      lines.push(decode(chunk, start, nl, ascii));
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      carry.push(Buffer.from(chunk.subarray(start)));
      carryLength += chunk.length - start;
    }
    if (lines.length) {
      yield { lines, firstLine: lineNo, unterminatedLast: false };
      lineNo += lines.length;
    }
  }
  if (carryLength > 0) {
    const whole = Buffer.concat(carry, carryLength);
    yield { lines: [decode(whole, 0, whole.length)], firstLine: lineNo, unterminatedLast: true };
  }
}
