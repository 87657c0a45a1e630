/**
 * The N best items seen so far, best first, in memory bounded by N.
 */

/** Negative when `a` ranks before `b`. */
export type RankOrder<T> = (a: T, b: T) => number;

export class TopN<T> {
  private readonly items: T[] = [];

  constructor(
    readonly n: number,
    private readonly order: RankOrder<T>,
  ) {}

  /** Would `item` make the list (without adding it)? */
  admits(item: T): boolean {
    if (this.n <= 0) return false;
    if (this.items.length < this.n) return true;
    return this.order(item, this.items[this.items.length - 1] as T) < 0;
  }

  /** Adds `item` if it ranks among the best N; an equal item ranks after those already in. */
  offer(item: T): boolean {
    if (!this.admits(item)) return false;
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order(this.items[mid] as T, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.items.splice(lo, 0, item);
    if (this.items.length > this.n) this.items.pop();
    return true;
  }

  get size(): number {
    return this.items.length;
  }

  /** Best first. */
  list(): T[] {
    return [...this.items];
  }
}
