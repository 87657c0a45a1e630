/**
 * The stalls of a slog for `stats` (docs/time-split.md, "Stalls"): a
 * StallDetector fed every entry through the pass's `observe` hook (it sees
 * the whole slog, whatever the selection), counting every stall and keeping
 * the longest MAX_STALLS, so that memory does not grow with the slog.
 * Made again for each read of the slog (run/analyses.ts's statsOf), so a
 * slog read twice after a restart counts each stall once.
 */
import { StallDetector, STALL_SECONDS, type Stall } from '../../model/stalls.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import { TopN } from '../common/top-n.js';

/** How many stalls are listed (the longest; all are counted). */
export const MAX_STALLS = 100;

export interface StallStats {
  /** More than this many seconds between two consecutive entries is a stall. */
  gapSeconds: number;
  /** Every stall of the slog, and their µs summed. */
  count: number;
  totalMicros: number;
  /** The longest MAX_STALLS of them (all when there are no more), in slog order. */
  list: Stall[];
}

interface Kept {
  stall: Stall;
  /** Its place among the stalls, for slog order. */
  index: number;
}

export class StallList {
  private readonly detector: StallDetector;
  private readonly longest = new TopN<Kept>(MAX_STALLS, (a, b) => b.stall.micros - a.stall.micros || a.index - b.index);
  private count = 0;
  private totalMicros = 0;

  constructor(private readonly gapSeconds: number = STALL_SECONDS) {
    this.detector = new StallDetector((stall) => this.add(stall), gapSeconds);
  }

  /** The slog's next entry, in slog order (the pass's `observe`). */
  observe(entry: SlogEntry): void {
    this.detector.observe(entry);
  }

  private add(stall: Stall): void {
    this.longest.offer({ stall, index: this.count });
    this.count += 1;
    this.totalMicros += stall.micros;
  }

  result(): StallStats {
    const list = this.longest
      .list()
      .sort((a, b) => a.index - b.index)
      .map((k) => k.stall);
    return { gapSeconds: this.gapSeconds, count: this.count, totalMicros: this.totalMicros, list };
  }
}
