/**
 * Exact duration statistics at microsecond resolution.
 *
 * A `MicrosHistogram` keeps one count per distinct whole-microsecond value, so
 * its memory is bounded by the number of distinct durations (not by how many
 * were added), and its percentiles are exact at µs resolution. Totals, means,
 * minimum and maximum are kept exactly (fractional µs).
 */

/** Statistics of a set of durations. Every time is in microseconds. */
export interface DurationStats {
  /** How many durations. */
  count: number;
  /** Sum, exact (fractional µs). */
  total: number;
  /** total / count (0 when count is 0). */
  mean: number;
  /** Smallest and largest, exact (0 when count is 0). */
  min: number;
  max: number;
  /**
   * Percentiles by the nearest-rank method over the durations rounded to whole
   * µs: the p-th percentile is the smallest value v such that at least p% of
   * the durations are <= v. Whole µs (0 when count is 0).
   */
  p50: number;
  p90: number;
  p95: number;
  p99: number;
}

/**
 * Buckets 0 .. DENSE_MAX - 1 (durations under about 1 ms: most syscalls)
 * are counted in an array, grown as needed, the rest in a map: the same
 * counts, with an array increment in place of two map operations.
 */
const DENSE_MAX = 1024;

export class MicrosHistogram {
  /** Counts of the buckets 0 .. dense.length - 1. */
  private dense = new Float64Array(0);
  private denseDistinct = 0;
  /** Counts of the other buckets (negative, or DENSE_MAX and up). */
  private readonly sparse = new Map<number, number>();
  private n = 0;
  private sum = 0;
  private lo = Infinity;
  private hi = -Infinity;

  /** Adds a duration given in seconds (as the slog's times are). Non-finite values are ignored. */
  addSeconds(seconds: number): void {
    this.addMicros(seconds * 1_000_000);
  }

  /** Adds a duration in microseconds. Non-finite values are ignored. */
  addMicros(micros: number): void {
    if (this.countMicros(micros)) this.sum += micros;
  }

  /**
   * Counts a duration in microseconds but leaves it out of the total: the
   * caller adds a sum of several at once (`addToTotal`). False (and nothing
   * counted) when it is not finite.
   */
  countMicros(micros: number): boolean {
    if (!Number.isFinite(micros)) return false;
    const bucket = Math.round(micros);
    if (bucket >= 0 && bucket < DENSE_MAX) {
      const dense = bucket < this.dense.length ? this.dense : this.grow(bucket);
      if (dense[bucket] === 0) this.denseDistinct += 1;
      dense[bucket] = (dense[bucket] as number) + 1;
    } else {
      this.sparse.set(bucket, (this.sparse.get(bucket) ?? 0) + 1);
    }
    this.n += 1;
    if (micros < this.lo) this.lo = micros;
    if (micros > this.hi) this.hi = micros;
    return true;
  }

  /** Adds to the total durations counted with `countMicros`, µs. */
  addToTotal(micros: number): void {
    this.sum += micros;
  }

  /** Counts every duration `other` counted (not its total: see `addToTotal`). */
  absorbCounts(other: MicrosHistogram): void {
    const dense = other.dense;
    for (let bucket = 0; bucket < dense.length; bucket += 1) {
      const count = dense[bucket] as number;
      if (count === 0) continue;
      const mine = bucket < this.dense.length ? this.dense : this.grow(bucket);
      if (mine[bucket] === 0) this.denseDistinct += 1;
      mine[bucket] = (mine[bucket] as number) + count;
    }
    for (const [bucket, count] of other.sparse) this.sparse.set(bucket, (this.sparse.get(bucket) ?? 0) + count);
    this.n += other.n;
    if (other.lo < this.lo) this.lo = other.lo;
    if (other.hi > this.hi) this.hi = other.hi;
  }

  /** Room for `bucket` in the array (a power of two, at least 64). */
  private grow(bucket: number): Float64Array {
    let length = Math.max(64, this.dense.length);
    while (length <= bucket) length *= 2;
    const dense = new Float64Array(Math.min(length, DENSE_MAX));
    dense.set(this.dense);
    this.dense = dense;
    return dense;
  }

  get count(): number {
    return this.n;
  }

  /** Sum in µs. */
  get total(): number {
    return this.sum;
  }

  /** Distinct whole-µs values kept (the memory this histogram uses). */
  get distinct(): number {
    return this.denseDistinct + this.sparse.size;
  }

  /** Several nearest-rank percentiles (0..100) in one sorted walk; whole µs. */
  percentiles(ps: readonly number[]): number[] {
    if (this.n === 0) return ps.map(() => 0);
    // The distinct buckets in ascending order: the map's negative ones, the array's, the map's others.
    // A typed array sorts numbers natively (no comparator called per pair: a map can hold tens of thousands of buckets).
    const sparse = Float64Array.from(this.sparse.keys()).sort();
    const firstHigh = sparse.findIndex((bucket) => bucket >= 0);
    const low = firstHigh < 0 ? sparse : sparse.subarray(0, firstHigh);
    const high = firstHigh < 0 ? sparse.subarray(0, 0) : sparse.subarray(firstHigh);
    const ranks = ps.map((p) => Math.min(this.n, Math.max(1, Math.ceil((p / 100) * this.n))));
    const out = ps.map(() => 0);
    const order = ranks.map((_, i) => i).sort((a, b) => (ranks[a] as number) - (ranks[b] as number));
    const dense = this.dense;
    let seen = 0;
    let part = 0; // 0: low, 1: dense, 2: high
    let k = 0;
    let bucket = 0;
    for (const idx of order) {
      const rank = ranks[idx] as number;
      while (seen < rank) {
        if (part === 0) {
          if (k < low.length) {
            bucket = low[k++] as number;
            seen += this.sparse.get(bucket) as number;
          } else {
            part = 1;
            k = 0;
          }
        } else if (part === 1) {
          if (k < dense.length) {
            const count = dense[k] as number;
            if (count !== 0) {
              bucket = k;
              seen += count;
            }
            k += 1;
          } else {
            part = 2;
            k = 0;
          }
        } else {
          bucket = high[k++] as number;
          seen += this.sparse.get(bucket) as number;
        }
      }
      out[idx] = bucket;
    }
    return out;
  }

  /** One nearest-rank percentile (0..100), whole µs. */
  percentile(p: number): number {
    return this.percentiles([p])[0] as number;
  }

  stats(): DurationStats {
    const [p50, p90, p95, p99] = this.percentiles([50, 90, 95, 99]) as [number, number, number, number];
    const empty = this.n === 0;
    return {
      count: this.n,
      total: this.sum,
      mean: empty ? 0 : this.sum / this.n,
      min: empty ? 0 : this.lo,
      max: empty ? 0 : this.hi,
      p50,
      p90,
      p95,
      p99,
    };
  }
}
