/**
 * The line splitter's big lines (lines.ts): a line over the threshold comes
 * as a BigLine whose chunks are exactly its bytes, wherever the chunk
 * boundaries fall, with the line numbers and the lines around it as
 * without the threshold.
 */
import { describe, expect, it } from 'vitest';
import { lineText, readLines, type LineBatch } from './lines.js';

/** Every line read back: text, and whether it came as a big line; big lines read as the pass reads them. */
async function collect(chunks: Buffer[], bigLineBytes: number, readBig = true): Promise<Array<{ line: number; text: string; big: boolean; unterminated?: boolean }>> {
  const out: Array<{ line: number; text: string; big: boolean; unterminated?: boolean }> = [];
  for await (const batch of readLines(chunks, { bigLineBytes })) {
    if (batch.big) {
      if (!readBig) {
        out.push({ line: batch.firstLine, text: '(skipped)', big: true });
        continue;
      }
      const parts: Buffer[] = [];
      // Chunks are borrowed: copied as they come.
      for await (const chunk of batch.big.chunks()) parts.push(Buffer.from(chunk));
      const text = Buffer.concat(parts).toString('utf8');
      expect(batch.big.bytes).toBe(Buffer.byteLength(text));
      out.push({ line: batch.firstLine, text, big: true, unterminated: batch.big.unterminated });
      continue;
    }
    const n = batch.spans.length / 2;
    for (let i = 0; i < n; i += 1) out.push({ line: batch.firstLine + i, text: lineText(batch as LineBatch, i), big: false });
  }
  return out;
}

/** `text` cut into chunks of `size` bytes (each a copy, as a stream gives them). */
function chunked(text: string | Buffer, size: number): Buffer[] {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(Buffer.from(bytes.subarray(i, i + size)));
  return out;
}

const LINES = ['{"a":1}', 'x'.repeat(300), 'short', 'é'.repeat(200), '', 'y'.repeat(101), '{"b":2}', 'z'.repeat(1000)];

describe('readLines with big lines', () => {
  it('gives every line with its number, big ones as streams, whatever the chunk size', async () => {
    const text = `${LINES.join('\n')}\n`;
    const expected = LINES.map((l, i) => ({ line: i + 1, text: l, big: Buffer.byteLength(l) > 100 }));
    for (const size of [1, 2, 3, 7, 64, 99, 100, 101, 150, 299, 300, 301, 1000, 5000]) {
      const got = await collect(chunked(text, size), 100);
      expect(
        got.map(({ line, text: t, big }) => ({ line, text: t, big })),
        `chunks of ${size}`,
      ).toEqual(expected);
      for (const g of got) if (g.big) expect(g.unterminated).toBe(false);
    }
  });

  it('drops the \\r of a \\r\\n line end in the same chunk (one parted from its \\n stays: white space to JSON)', async () => {
    const text = `${'a'.repeat(200)}\r\nnext\r\n`;
    expect((await collect([Buffer.from(text)], 100)).map((g) => g.text)).toEqual(['a'.repeat(200), 'next']);
    const parted = await collect([Buffer.from(`${'a'.repeat(200)}\r`), Buffer.from('\nnext\r\n')], 100);
    expect(parted.map((g) => g.text)).toEqual([`${'a'.repeat(200)}\r`, 'next']);
  });

  it('a big last line without a newline is unterminated', async () => {
    const got = await collect(chunked(`short\n${'q'.repeat(500)}`, 64), 100);
    expect(got).toEqual([
      { line: 1, text: 'short', big: false },
      { line: 2, text: 'q'.repeat(500), big: true, unterminated: true },
    ]);
  });

  it('skips what a consumer did not read of a big line', async () => {
    const text = `one\n${'w'.repeat(1000)}\nthree\n${'v'.repeat(300)}\nfive\n`;
    const got = await collect(chunked(text, 64), 100, false);
    expect(got.map((g) => g.text)).toEqual(['one', '(skipped)', 'three', '(skipped)', 'five']);
    expect(got.map((g) => g.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a byte-order mark before a big first line is dropped', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${'b'.repeat(300)}\nok\n`)]);
    for (const size of [1, 2, 4, 50, 1000]) {
      expect((await collect(chunked(bytes, size), 100)).map((g) => g.text), `chunks of ${size}`).toEqual(['b'.repeat(300), 'ok']);
    }
  });

  it('without a threshold, no line is big', async () => {
    const text = `${LINES.join('\n')}\n`;
    const got: LineBatch[] = [];
    for await (const batch of readLines(chunked(text, 7))) got.push(batch);
    expect(got.every((b) => b.big === undefined)).toBe(true);
  });
});
