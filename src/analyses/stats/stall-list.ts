/**
 * The stalls of a slog for `stats` (docs/time-split.md, "Stalls"): a
 * StallDetector fed every entry through the pass's `observe` hook (it sees
 * the whole slog, whatever the selection), counting every stall and keeping
 * the longest MAX_STALLS, so that memory does not grow with the slog.
 * Made again for each read of the slog (run/analyses.ts's statsOf), so a
 * slog read twice after a restart counts each stall once.
 */
import { StallDetector, STALL_SECONDS, type Stall } from '../../model/stalls.js';
import type { ModelPlace } from '../../model/assembler.js';
import type { LineFacts, SlogEntry } from '../../scan/entry-types.js';
import { TopN } from '../common/top-n.js';

/** How many stalls are listed (the longest; all are counted): enough for any threshold a person reads a table of. */
export const MAX_STALLS = 1000;

export interface StallStats {
  /** More than this many seconds between two consecutive entries is a stall. */
  gapSeconds: number;
  /** Every stall of the slog, and their µs summed. */
  count: number;
  totalMicros: number;
  /** The longest MAX_STALLS of them (all when there are no more; equal ones: the first), in slog order. */
  list: Stall[];
}

interface Kept {
  stall: Stall;
  /** Its place among the stalls, for slog order. */
  index: number;
}

export class StallList {
  private readonly detector: StallDetector;
  private readonly longest: TopN<Kept>;
  private count = 0;
  private totalMicros = 0;

  /** `gapSeconds`: longer gaps are stalls; `max`: how many to list. */
  constructor(
    private readonly gapSeconds: number = STALL_SECONDS,
    max: number = MAX_STALLS,
  ) {
    this.detector = new StallDetector((stall) => this.add(stall), gapSeconds);
    this.longest = new TopN<Kept>(max, (a, b) => b.stall.micros - a.stall.micros || a.index - b.index);
  }

  /** The slog's next entry, in slog order, the model's place before it and the reader's facts of it (the pass's `observe`). */
  observe(entry: SlogEntry, place: ModelPlace, facts: Readonly<LineFacts>): void {
    this.detector.observe(entry, place, facts);
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
