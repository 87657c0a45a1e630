import { describe, expect, it } from 'vitest';
import { indexIn, lastIndexIn, shortNeedle } from './short-needle.js';

/** The plain loops the search stands for. */
function naiveIndex(buf: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  for (let k = Math.max(from, 0); k <= to && k + needle.length <= buf.length; k += 1) {
    if (needle.every((b, j) => buf[k + j] === b)) return k;
  }
  return -1;
}
function naiveLastIndex(buf: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  for (let k = Math.min(to, buf.length - needle.length); k >= Math.max(from, 0); k -= 1) {
    if (needle.every((b, j) => buf[k + j] === b)) return k;
  }
  return -1;
}

/** A pseudo-random generator with a seed, so that a failure can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('short-needle', () => {
  it('finds the needles of the byte search on a real crank-start line', () => {
    const line = Buffer.from(
      '{"type":"crank-start","crankType":"delivery","crankNum":123,"message":{"type":"send","target":"ko62","msg":{"methargs":{"body":"#[\\"time\\",[]]","slots":[]},"result":"kp40"}},"time":1695000000.123456,"monotime":12.345678}\n',
    );
    const crankNum = shortNeedle('"crankNum":');
    const time = shortNeedle('"time":');
    expect(indexIn(line, crankNum, 0, 200)).toBe(line.indexOf('"crankNum":'));
    expect(lastIndexIn(line, time, 0, line.length)).toBe(line.lastIndexOf('"time":'));
    // Bounded: not found before `to`, nor after `from` backward.
    expect(indexIn(line, crankNum, 0, line.indexOf('"crankNum":') - 1)).toBe(-1);
    expect(lastIndexIn(line, time, line.lastIndexOf('"time":') + 1, line.length)).toBe(-1);
  });

  it('agrees with the plain loops on random bytes drawn from the needles and digits, every bound', () => {
    const next = random(20261127);
    for (const text of ['"time":', '"crankNum":', '"blockHeight":', 'aa', 'abab', '"""']) {
      const needle = shortNeedle(text);
      const alphabet = Buffer.from(`${text}0123456789.,}`);
      for (let round = 0; round < 300; round += 1) {
        const buf = Buffer.alloc(Math.floor(next() * 80));
        for (let i = 0; i < buf.length; i += 1) buf[i] = alphabet[Math.floor(next() * alphabet.length)] as number;
        // Some needles placed whole, so that there are matches, overlapping ones too.
        for (let n = Math.floor(next() * 4); n > 0 && buf.length >= text.length; n -= 1) buf.write(text, Math.floor(next() * (buf.length - text.length + 1)), 'latin1');
        const from = Math.floor(next() * (buf.length + 4)) - 2;
        const to = from + Math.floor(next() * (buf.length + 4));
        expect(indexIn(buf, needle, from, to), `${text} in ${buf.toString('latin1')} [${from}, ${to}]`).toBe(naiveIndex(buf, needle.bytes, from, to));
        expect(lastIndexIn(buf, needle, from, to), `${text} in ${buf.toString('latin1')} [${from}, ${to}]`).toBe(naiveLastIndex(buf, needle.bytes, from, to));
      }
    }
  });

  it('refuses a needle it cannot shift by', () => {
    expect(() => shortNeedle('"')).toThrow(RangeError);
  });
});
