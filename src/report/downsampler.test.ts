import { describe, expect, it } from 'vitest';
import { Downsampler, type Bucket } from './downsampler.js';

const bucket = (i: number, ...values: Array<number | undefined>): Bucket => ({ x: i * 10, label: `b${i}`, values });

describe('Downsampler', () => {
  it('keeps every bucket as a point while there are at most maxPoints', () => {
    const d = new Downsampler(4);
    for (let i = 0; i < 3; i += 1) d.add(bucket(i, i * 2));
    expect(d.points()).toEqual([0, 1, 2].map((i) => ({ x: i * 10, from: `b${i}`, to: `b${i}`, buckets: 1, columns: [{ min: i * 2, max: i * 2, mean: i * 2 }] })));
    expect(d.bucketsPerPoint).toBe(1);
  });

  it('merges neighbours when full, keeping min, max and mean of the buckets', () => {
    const d = new Downsampler(4);
    const values = [5, 1, 9, 3, 4, 4, 8, 0];
    values.forEach((v, i) => d.add(bucket(i, v)));
    // 4 points made of 1 bucket, merged into 2 of 2; then 2 more of 2 make 4 again: merged into 2 of 4.
    expect(d.bucketsPerPoint).toBe(4);
    expect(d.points()).toEqual([
      { x: 0, from: 'b0', to: 'b3', buckets: 4, columns: [{ min: 1, max: 9, mean: 18 / 4 }] },
      { x: 40, from: 'b4', to: 'b7', buckets: 4, columns: [{ min: 0, max: 8, mean: 16 / 4 }] },
    ]);
  });

  it('never holds more than maxPoints, every point but the last covering bucketsPerPoint buckets', () => {
    for (const max of [2, 4, 10, 64]) {
      for (const n of [1, max - 1, max, max + 1, 3 * max + 5, 1000]) {
        const d = new Downsampler(max);
        for (let i = 0; i < n; i += 1) d.add(bucket(i, i));
        const points = d.points();
        expect(points.length).toBeLessThanOrEqual(max);
        expect(points.reduce((s, p) => s + p.buckets, 0)).toBe(n);
        for (const p of points.slice(0, -1)) expect(p.buckets).toBe(d.bucketsPerPoint);
        // The mean of a point of consecutive integers is the middle one; min and max its ends.
        for (const p of points) {
          const first = p.x / 10;
          expect(p.columns[0]).toEqual({ min: first, max: first + p.buckets - 1, mean: first + (p.buckets - 1) / 2 });
        }
      }
    }
  });

  it('leaves buckets without a value out of a column, and gives null when none had one', () => {
    const d = new Downsampler(2);
    d.add(bucket(0, 1, undefined));
    d.add(bucket(1, 3));
    d.add(bucket(2, undefined, undefined, 7));
    d.add(bucket(3, undefined, Number.NaN));
    expect(d.points()).toEqual([
      { x: 0, from: 'b0', to: 'b3', buckets: 4, columns: [{ min: 1, max: 3, mean: 2 }, { min: null, max: null, mean: null }, { min: 7, max: 7, mean: 7 }] },
    ]);
  });

  it('refuses an x that does not grow, and a bad maxPoints', () => {
    const d = new Downsampler(2);
    d.add(bucket(1, 1));
    expect(() => d.add(bucket(1, 1))).toThrow(/does not grow/);
    expect(() => new Downsampler(3)).toThrow(RangeError);
    expect(() => new Downsampler(0)).toThrow(RangeError);
  });
});
