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

export class MicrosHistogram {
  private readonly counts = new Map<number, number>();
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
    if (!Number.isFinite(micros)) return;
    const bucket = Math.round(micros);
    this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + 1);
    this.n += 1;
    this.sum += micros;
    if (micros < this.lo) this.lo = micros;
    if (micros > this.hi) this.hi = micros;
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
    return this.counts.size;
  }

  /** Several nearest-rank percentiles (0..100) in one sorted walk; whole µs. */
  percentiles(ps: readonly number[]): number[] {
    if (this.n === 0) return ps.map(() => 0);
    const keys = [...this.counts.keys()].sort((a, b) => a - b);
    const ranks = ps.map((p) => Math.min(this.n, Math.max(1, Math.ceil((p / 100) * this.n))));
    const out = ps.map(() => 0);
    const order = ranks.map((_, i) => i).sort((a, b) => (ranks[a] as number) - (ranks[b] as number));
    let seen = 0;
    let k = 0;
    for (const idx of order) {
      const rank = ranks[idx] as number;
      while (k < keys.length && seen < rank) {
        seen += this.counts.get(keys[k] as number) as number;
        k += 1;
      }
      out[idx] = keys[k - 1] as number;
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
