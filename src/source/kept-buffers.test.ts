import { describe, expect, it } from 'vitest';
import { JoinedBytes, KeptBuffer } from './kept-buffers.js';
import { readLines, lineText, type LineBatch } from './lines.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('KeptBuffer', () => {
  it('lends the same buffer again once it is given back, and a new one while it is lent', () => {
    const kept = new KeptBuffer(1024);
    const a = kept.take(10);
    expect(a.length).toBe(1024);
    const b = kept.take(10);
    expect(b).not.toBe(a);
    kept.give(b);
    kept.give(a);
    expect(kept.take(500)).toBe(a);
  });

  it('grows the kept buffer in place of the old one, with the bytes asked for', () => {
    const kept = new KeptBuffer(4);
    const a = kept.take(4);
    a.write('abcd', 'latin1');
    const grown = kept.grow(a, 6, 3);
    expect(grown.length).toBeGreaterThanOrEqual(8);
    expect(grown.subarray(0, 3).toString('latin1')).toBe('abc');
    kept.give(grown);
    expect(kept.take(1)).toBe(grown);
  });
});

describe('JoinedBytes', () => {
  it('joins pieces, clears, and keeps its buffer from one line to the next', () => {
    const kept = new KeptBuffer(8);
    const joined = new JoinedBytes(kept);
    joined.append(bytes('{"a"'));
    joined.append(bytes(':1}'));
    expect(joined.view().toString('latin1')).toBe('{"a":1}');
    const first = joined.view().buffer;
    joined.clear();
    joined.append(bytes('{"b":2, "c": 3}'));
    expect(joined.view().toString('latin1')).toBe('{"b":2, "c": 3}');
    joined.release();
    // Grown once (8 to 16 bytes), and the grown buffer is the one kept.
    expect(kept.take(1).buffer).not.toBe(first);
  });

  it('two at once hold their own bytes', () => {
    const kept = new KeptBuffer(64);
    const x = new JoinedBytes(kept);
    const y = new JoinedBytes(kept);
    x.append(bytes('xxxx'));
    y.append(bytes('yyyy'));
    x.append(bytes('XX'));
    expect(x.view().toString('latin1')).toBe('xxxxXX');
    expect(y.view().toString('latin1')).toBe('yyyy');
  });
});

/** Every line readLines gives for these chunks, as text. */
async function* linesOf(chunks: Iterable<Buffer>): AsyncGenerator<string> {
  for await (const batch of readLines(chunks)) {
    const b: LineBatch = batch;
    for (let i = 0; i < b.spans.length / 2; i += 1) yield lineText(b, i);
  }
}

/** `text` cut into pieces of `size` bytes, each in a buffer reused for the next (chunks are borrowed). */
function* borrowed(text: string, size: number): Generator<Buffer> {
  const all = bytes(text);
  const buf = Buffer.alloc(size);
  for (let at = 0; at < all.length; at += size) {
    const n = all.copy(buf, 0, at, Math.min(all.length, at + size));
    yield buf.subarray(0, n);
  }
}

describe('readLines with lines that span chunks', () => {
  it('gives every line whole, two slogs read at once (each joins its lines in a buffer of its own)', async () => {
    const slogA = Array.from({ length: 50 }, (_, i) => `{"a":${i},"pad":"${'a'.repeat(i * 7)}"}`).join('\n') + '\n';
    const slogB = Array.from({ length: 40 }, (_, i) => `{"b":${i},"pad":"${'b'.repeat(i * 11)}"}`).join('\r\n');
    const a = linesOf(borrowed(slogA, 37));
    const b = linesOf(borrowed(slogB, 29));
    const gotA: string[] = [];
    const gotB: string[] = [];
    // Interleaved, one line of each in turn.
    for (;;) {
      const [x, y] = await Promise.all([a.next(), b.next()]);
      if (!x.done) gotA.push(x.value);
      if (!y.done) gotB.push(y.value);
      if (x.done && y.done) break;
    }
    expect(gotA).toEqual(slogA.trimEnd().split('\n'));
    expect(gotB).toEqual(slogB.split('\r\n'));
  });
});

describe('readLines stopped early', () => {
  it('closes its source (its file, its stream)', async () => {
    let closed = false;
    function* source(): Generator<Buffer> {
      try {
        for (let i = 0; i < 100; i += 1) yield bytes(`{"n":${i}}\n{"m":`);
      } finally {
        closed = true;
      }
    }
    for await (const batch of readLines(source())) {
      expect(batch.spans.length).toBeGreaterThan(0);
      break;
    }
    expect(closed).toBe(true);
  });
});
