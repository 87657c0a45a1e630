/**
 * One figure's values at period boundaries (the start of the first period,
 * then the end of each), kept as running sums: its first and last value, and
 * the least-squares slope over the period index, without holding the points.
 */
export class Series {
  private n = 0;
  private sx = 0;
  private sy = 0;
  private sxy = 0;
  private sxx = 0;
  first: number | undefined;
  last: number | undefined;
  /** The index of the first point (0: the start of the first period). */
  firstAt: number | undefined;
  lastAt: number | undefined;

  add(x: number, y: number): void {
    this.n += 1;
    this.sx += x;
    this.sy += y;
    this.sxy += x * y;
    this.sxx += x * x;
    if (this.first === undefined) {
      this.first = y;
      this.firstAt = x;
    }
    this.last = y;
    this.lastAt = x;
  }

  get points(): number {
    return this.n;
  }

  /** The change from first to last (undefined: no point). */
  get change(): number | undefined {
    return this.first === undefined || this.last === undefined ? undefined : this.last - this.first;
  }

  /** The least-squares slope per period (undefined with fewer than two points). */
  get slope(): number | undefined {
    if (this.n < 2) return undefined;
    const d = this.n * this.sxx - this.sx * this.sx;
    if (d === 0) return undefined;
    return (this.n * this.sxy - this.sx * this.sy) / d;
  }
}
