/**
 * A series of buckets in memory bounded by `maxPoints`, whatever the number
 * of buckets: once `maxPoints` points are held, neighbours are merged two by
 * two, and from then on each point covers twice as many buckets. A point
 * keeps, for each column, the minimum, the maximum and the mean of its
 * buckets' values (a bucket without a value for a column is left out of
 * that column's figures), so a spike survives the merging as a maximum.
 *
 * Every point but the last covers the same number of buckets
 * (`bucketsPerPoint`); the last covers what came after (one bucket or more).
 *
 *     const d = new Downsampler(1000);
 *     for (const bucket of buckets) d.add(bucket);
 *     d.points();   // at most 1000
 */

/** One bucket: its place on the x axis, its label, and a value per column (undefined: none). */
export interface Bucket {
  /** Must grow from bucket to bucket. */
  x: number;
  label: string;
  values: ReadonlyArray<number | undefined>;
}

/** One column's figures over a point's buckets; null when none of them had a value. */
export interface ColumnFigures {
  min: number | null;
  max: number | null;
  mean: number | null;
}

export interface Point {
  /** The first bucket's x. */
  x: number;
  /** The labels of the first and the last bucket (the same for a point of one bucket). */
  from: string;
  to: string;
  /** How many buckets the point covers. */
  buckets: number;
  /** One per column, in column order (as many as the widest bucket had values). */
  columns: ColumnFigures[];
}

/** A point being made: sums, to merge exactly. */
interface Acc {
  x: number;
  from: string;
  to: string;
  buckets: number;
  min: number[];
  max: number[];
  sum: number[];
  /** Buckets with a value, per column. */
  n: number[];
}

function accOf(bucket: Bucket): Acc {
  const width = bucket.values.length;
  const acc: Acc = { x: bucket.x, from: bucket.label, to: bucket.label, buckets: 1, min: new Array<number>(width), max: new Array<number>(width), sum: new Array<number>(width), n: new Array<number>(width) };
  for (let i = 0; i < width; i += 1) {
    const v = bucket.values[i];
    const has = v !== undefined && Number.isFinite(v);
    acc.min[i] = has ? v : Infinity;
    acc.max[i] = has ? v : -Infinity;
    acc.sum[i] = has ? v : 0;
    acc.n[i] = has ? 1 : 0;
  }
  return acc;
}

/** Adds `b` (the buckets after `a`'s) into `a`. */
function mergeInto(a: Acc, b: Acc): void {
  a.to = b.to;
  a.buckets += b.buckets;
  for (let i = 0; i < b.n.length; i += 1) {
    if (i >= a.n.length) {
      a.min[i] = Infinity;
      a.max[i] = -Infinity;
      a.sum[i] = 0;
      a.n[i] = 0;
    }
    a.min[i] = Math.min(a.min[i] as number, b.min[i] as number);
    a.max[i] = Math.max(a.max[i] as number, b.max[i] as number);
    a.sum[i] = (a.sum[i] as number) + (b.sum[i] as number);
    a.n[i] = (a.n[i] as number) + (b.n[i] as number);
  }
}

function pointOf(acc: Acc): Point {
  const columns: ColumnFigures[] = acc.n.map((n, i) =>
    n === 0 ? { min: null, max: null, mean: null } : { min: acc.min[i] as number, max: acc.max[i] as number, mean: (acc.sum[i] as number) / n },
  );
  return { x: acc.x, from: acc.from, to: acc.to, buckets: acc.buckets, columns };
}

export class Downsampler {
  private readonly done: Acc[] = [];
  private pending: Acc | undefined;
  private stride = 1;
  private lastX = -Infinity;
  private count = 0;

  constructor(readonly maxPoints: number) {
    if (!Number.isInteger(maxPoints) || maxPoints < 2 || maxPoints % 2 !== 0) {
      throw new RangeError(`maxPoints must be an even whole number of at least 2, not ${maxPoints}`);
    }
  }

  /** Buckets per point (a power of two). */
  get bucketsPerPoint(): number {
    return this.stride;
  }

  /** Buckets added so far. */
  get buckets(): number {
    return this.count;
  }

  add(bucket: Bucket): void {
    if (!(bucket.x > this.lastX)) throw new RangeError(`bucket x ${bucket.x} does not grow (after ${this.lastX})`);
    this.lastX = bucket.x;
    this.count += 1;
    const acc = accOf(bucket);
    if (this.pending) mergeInto(this.pending, acc);
    else this.pending = acc;
    if (this.pending.buckets < this.stride) return;
    this.done.push(this.pending);
    this.pending = undefined;
    if (this.done.length < this.maxPoints) return;
    // Full: merge neighbours, and make each point cover twice as many buckets from now on.
    const half = this.maxPoints / 2;
    for (let i = 0; i < half; i += 1) {
      const a = this.done[2 * i] as Acc;
      mergeInto(a, this.done[2 * i + 1] as Acc);
      this.done[i] = a;
    }
    this.done.length = half;
    this.stride *= 2;
  }

  /** The points so far, the last one possibly covering fewer buckets. */
  points(): Point[] {
    const out = this.done.map(pointOf);
    if (this.pending) out.push(pointOf(this.pending));
    return out;
  }
}
