/**
 * The index builder's lines that name vats (IndexBuilder.keepCreateLines):
 * against a plain loop over the slog's lines, every line holding
 * `"create-vat"` is kept whole when short (64 KB), else as its stand-in
 * (naming-line.ts) with where it starts and ends, wherever it falls
 * against the builder's 1 MB search chunks (which overlap by
 * SEARCH_OVERLAP bytes): lines of up to 2.5 MB, ending just before, at and
 * just after a chunk's end, the slog's last line without its newline, in
 * pieces (members) of any size, given to the builder in pieces of any size.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GzipIndex } from './gzip-index.js';
import { IndexBuilder } from './index-builder.js';
import { namingStandIn } from './naming-line.js';
import { COUNT_BYTES } from './newline-count.js';
import { SEARCH_OVERLAP } from './seek.js';

/** A line of `length` bytes (without its newline): a create-vat with a bundle, a create-vat crank message, or filler. */
function line(kind: 'vat' | 'message' | 'filler', length: number, n: number): string {
  const head =
    kind === 'vat'
      ? `{"type":"create-vat","vatID":"v${n}","name":"vat${n}","vatSourceBundle":{"endoZipBase64":"`
      : kind === 'message'
        ? `{"type":"crank-start","crankNum":${n},"message":{"type":"create-vat","vatID":"v${n}","dynamicOptions":{"name":"dyn${n}"},"pad":"`
        : `{"type":"console","args":["`;
  const tail = kind === 'message' ? `"},"time":${n}.5}` : kind === 'vat' ? `"},"time":${n}.25}` : `"],"time":${n}}`;
  return `${head}${'A'.repeat(Math.max(0, length - head.length - tail.length))}${tail}`;
}

/** What the index must hold, by a plain loop: each line holding "create-vat", whole or as its stand-in. */
function expected(text: Buffer): { whole: Array<[number, string]>; standIns: Array<[number, number, string]> } {
  const whole: Array<[number, string]> = [];
  const standIns: Array<[number, number, string]> = [];
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf(10, start);
    if (end < 0) end = text.length;
    const bytes = text.subarray(start, end);
    if (bytes.includes('"create-vat"')) {
      if (bytes.length <= 64 << 10) whole.push([start, bytes.toString()]);
      else standIns.push([start, end, (namingStandIn(bytes) as Buffer).toString()]);
    }
    start = end + 1;
  }
  return { whole, standIns };
}

/** The index of `text` cut into members of `pieceBytes`, each given to the builder in pieces of `dataBytes` (as a plain slog's index is made). */
function indexOf(text: Buffer, pieceBytes: number, dataBytes: number): GzipIndex {
  const builder = new IndexBuilder();
  for (let from = 0; from < text.length; from += pieceBytes) {
    const size = Math.min(pieceBytes, text.length - from);
    builder.start(from, from);
    for (let pos = from; pos < from + size; pos += dataBytes) builder.data(text.subarray(pos, Math.min(pos + dataBytes, from + size)));
    builder.end({ at: from, bytes: size, from, size });
  }
  return builder.finish({ size: text.length, mtimeMs: 0, head: '' });
}

function check(lines: string[], lastNewline: boolean, pieceBytes: number, dataBytes = 1 << 20): void {
  const text = Buffer.from(lines.join('\n') + (lastNewline ? '\n' : ''));
  const index = indexOf(text, pieceBytes, dataBytes);
  const want = expected(text);
  expect(index.createLines.map((l) => [l.start, l.bytes.toString()])).toEqual(want.whole);
  expect((index.createNames ?? []).map((l) => [l.start, l.end, l.bytes.toString()])).toEqual(want.standIns);
}

describe('IndexBuilder: the lines that name vats', () => {
  // Where the builder's search chunks end in the slog: the first at COUNT_BYTES, each next COUNT_BYTES - SEARCH_OVERLAP on.
  const chunkEnd = (k: number): number => COUNT_BYTES + k * (COUNT_BYTES - SEARCH_OVERLAP);

  it('a long line ending just before, at and just after a search chunk\'s end; one that starts there', () => {
    for (const k of [0, 1]) {
      for (const d of [-2, -1, 0, 1, 2]) {
        // A filler up to 200 KB before the chunk's end, then a create-vat whose newline is at chunkEnd(k) + d.
        const fillerEnd = chunkEnd(k) - (200 << 10);
        const lines = [line('filler', fillerEnd - 1, 1), line('vat', chunkEnd(k) + d - fillerEnd, 2), line('message', 300, 3)];
        check(lines, true, 4 << 20);
        // A create-vat that begins right at the chunk's end (its hit in the next chunk's overlap).
        check([line('filler', chunkEnd(k) + d - 1, 1), line('vat', 100 << 10, 2), line('filler', 50, 3)], true, 4 << 20);
      }
    }
  });

  it('any lines, any pieces: what a plain loop finds', () => {
    const kinds = fc.constantFrom<'vat' | 'message' | 'filler'>('vat', 'message', 'filler', 'filler');
    const lineArb = fc.tuple(kinds, fc.oneof(fc.integer({ min: 120, max: 4000 }), fc.integer({ min: 60 << 10, max: 70 << 10 }), fc.integer({ min: 300 << 10, max: 2500 << 10 })));
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.integer({ min: 64 << 10, max: 6 << 20 }),
        fc.integer({ min: 1000, max: 3 << 20 }),
        (specs, lastNewline, pieceBytes, dataBytes) => {
          check(
            specs.map(([kind, length], i) => line(kind, length, i + 1)),
            lastNewline,
            pieceBytes,
            dataBytes,
          );
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
