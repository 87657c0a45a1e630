/**
 * The figures `top` and `stats` compute without making strings, against
 * the plain ways they stand for: `top`'s whole µs and two-decimal
 * percentages against Number(x.toFixed(n)), and MicrosHistogram (counts in
 * an array for short durations, in a map for the rest) against a plain map
 * of counts, on values that include halves, negatives, -0, NaN and
 * infinities.
 */
import { describe, expect, it } from 'vitest';
import { MicrosHistogram } from '../src/analyses/common/histogram.js';
import { percent2, wholeMicros } from '../src/analyses/top/top.js';

/** A reproducible stream of numbers in [0, 1). */
function randoms(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const SPECIAL = [0, -0, NaN, Infinity, -Infinity, 0.5e-6, -0.5e-6, 1.5e-6, -2.5e-6, 4.5e14, 1e16, -1e16, 1e21, 1e300, 0.12345, 0.00005, -0.00005, 5e-324];

describe("top's figures", () => {
  const random = randoms(7);
  const values = [...SPECIAL];
  for (let i = 0; i < 100_000; i += 1) {
    const r = random();
    values.push(
      (r - 0.5) * 10 ** Math.floor(random() * 24 - 14),
      (Math.floor(r * 1e9) + 0.5) / 1e6, // halves of a µs
      (Math.floor(r * 1e6) + 0.5) / 1e6, // halves of a hundredth of a percent
      random() / (random() + 1e-9),
    );
  }

  it('wholeMicros is Number((s * 1e6).toFixed(0))', () => {
    const wrong = values.filter((s) => !Object.is(wholeMicros(s), Number((s * 1_000_000).toFixed(0))));
    expect(wrong).toEqual([]);
  });

  it('percent2 is Number((f * 100).toFixed(2))', () => {
    const wrong = values.filter((f) => !Object.is(percent2(f), Number((f * 100).toFixed(2))));
    expect(wrong).toEqual([]);
  });
});

/** What MicrosHistogram stands for: a map of counts by whole µs, sorted when asked. */
class PlainHistogram {
  readonly counts = new Map<number, number>();
  n = 0;
  add(micros: number): void {
    if (!Number.isFinite(micros)) return;
    const bucket = Math.round(micros);
    this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + 1);
    this.n += 1;
  }
  percentile(p: number): number {
    if (this.n === 0) return 0;
    const rank = Math.min(this.n, Math.max(1, Math.ceil((p / 100) * this.n)));
    let seen = 0;
    for (const bucket of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(bucket) as number;
      if (seen >= rank) return bucket;
    }
    throw new Error('unreachable');
  }
}

describe('MicrosHistogram', () => {
  it('has the counts and percentiles of a plain map of counts, across its array and map', () => {
    const random = randoms(99);
    for (let round = 0; round < 400; round += 1) {
      const h = new MicrosHistogram();
      const plain = new PlainHistogram();
      const scale = [1, 100, 1000, 1024, 5000, 1e6][round % 6] as number;
      const n = Math.floor(random() * 400);
      for (let i = 0; i < n; i += 1) {
        const r = random();
        const v =
          r < 0.05 ? -random() * scale : r < 0.08 ? NaN : r < 0.1 ? Infinity : r < 0.15 ? Math.round(random() * scale) + 0.5 : r < 0.17 ? -0.3 : r < 0.2 ? 1023.5 : random() * scale;
        h.addMicros(v);
        plain.add(v);
      }
      const ps = [0, 1, 25, 50, 90, 95, 99, 99.9, 100];
      expect(h.percentiles(ps)).toEqual(ps.map((p) => plain.percentile(p)));
      expect(h.distinct).toBe(plain.counts.size);
      expect(h.count).toBe(plain.n);
    }
  });
});
