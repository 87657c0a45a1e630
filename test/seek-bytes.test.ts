/**
 * The byte loops under the seek and the index, against plain loops: a
 * crank-start's time read from its line's end (seek.ts timeAfter: JSON's
 * number, also where it takes the integer-over-a-power-of-ten path), and
 * the newlines counted for the index (newline-count.ts: in WebAssembly in
 * its own buffer, by Buffer.indexOf elsewhere).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countNewlines, COUNT_BYTES, NewlineCounter } from '../src/source/newline-count.js';
import { timeAfter } from '../src/source/seek.js';
import { ROOT } from './helpers.js';

const SLOGS = join(ROOT, '..', 'shared', 'slogs');
const REAL = [join(SLOGS, 'a-local-3.slog'), join(SLOGS, 'b-local-5.slog'), join(SLOGS, 'real', 'chain-A.slog'), join(SLOGS, 'real', 'restart-replay.slog')];

/** The newlines in `bytes`, one byte at a time. */
function plainCount(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 10) n += 1;
  return n;
}

/** Numbers as JSON writes them: whole, decimals of 1 to 17 digits, negative, with exponents. */
function numbers(): string[] {
  const out = ['0', '7', '1795308057.677275', '1795308057.6772751', '9007199254740991', '9007199254740992', '9007199254740993', '9007199254740995', '900719925474099.3', '900719925474099.5', '90071992547409.93', '9999999999999999', '99999999999999.99', '0.1', '0.30000000000000004', '1e21', '1.5e-7', '-3.25', '123456789012345678', '12.'];
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 3000; i += 1) {
    const digits = 1 + rand(18);
    let s = '';
    for (let d = 0; d < digits; d += 1) s += String(d === 0 && digits > 1 ? 1 + rand(9) : rand(10));
    const point = rand(digits + 1);
    if (point > 0 && point < digits) s = `${s.slice(0, point)}.${s.slice(point)}`;
    out.push(s);
  }
  return out;
}

describe('timeAfter: the number after a line\'s last "time":', () => {
  it('is JSON.parse\'s on every crank-start of the shared slogs', () => {
    let checked = 0;
    for (const path of REAL) {
      const bytes = readFileSync(path);
      for (let at = 0; at < bytes.length; ) {
        let nl = bytes.indexOf(10, at);
        if (nl < 0) nl = bytes.length;
        const line = bytes.subarray(at, nl).toString('utf8');
        if (line.startsWith('{"type":"crank-start"')) {
          const entry = JSON.parse(line) as { time: number };
          // The line as the search sees it: from its start, its newline in the chunk.
          expect(timeAfter(bytes, at)).toBe(entry.time);
          checked += 1;
        }
        at = nl + 1;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('is Number\'s on decimals of every length, whole numbers, exponents and signs', () => {
    for (const text of numbers()) {
      const line = Buffer.from(`{"type":"crank-start","time":${text},"monotime":1.5,"time":${text}}\n`);
      const want = Number(text);
      expect(timeAfter(line, 0), text).toBe(Number.isFinite(want) ? want : NaN);
    }
  });

  it('is NaN without a newline or without a number', () => {
    expect(timeAfter(Buffer.from('{"type":"crank-start","time":12.5}'), 0)).toBeNaN();
    expect(timeAfter(Buffer.from('{"type":"crank-start","time":"x"}\n'), 0)).toBeNaN();
    expect(timeAfter(Buffer.from('{"type":"crank-start"}\n'), 0)).toBeNaN();
  });
});

describe('NewlineCounter: the newlines in a piece of its buffer', () => {
  it('counts what a byte loop counts, at every offset and length near the 16-byte steps, on the shared slogs', () => {
    const counter = new NewlineCounter();
    expect(counter.buf.length).toBe(COUNT_BYTES);
    for (const path of REAL) {
      const bytes = readFileSync(path).subarray(0, COUNT_BYTES);
      bytes.copy(counter.buf);
      const pieces: Array<[number, number]> = [[0, bytes.length]];
      for (let a = 0; a < 40; a += 1) for (const len of [0, 1, 15, 16, 17, 31, 32, 33, 300]) pieces.push([a, a + len]);
      pieces.push([bytes.length - 17, bytes.length], [COUNT_BYTES - 33, COUNT_BYTES]);
      for (const [a, b] of pieces) {
        const piece = counter.buf.subarray(a, b);
        expect(counter.count(piece), `${path} ${a}-${b}`).toBe(plainCount(piece));
      }
    }
  });

  it('counts a buffer of its own by Buffer.indexOf, as the byte loop does', () => {
    const counter = new NewlineCounter();
    const other = Buffer.from('a\n\nb\nccc\n'.repeat(1000));
    expect(counter.count(other)).toBe(plainCount(other));
    expect(countNewlines(other)).toBe(plainCount(other));
    expect(countNewlines(Buffer.alloc(0))).toBe(0);
  });
});
