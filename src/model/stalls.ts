/**
 * Stalls (docs/time-split.md; SLOG-FORMAT.md, "Where a crank's time
 * goes"): more than a threshold (default 1 s) between two consecutive
 * entries of the slog, inside a crank or between cranks. A `StallDetector`
 * is fed every entry in slog order (a consumer passes it the pass's
 * `observe` hook, which sees each entry before the crank model) and tells
 * each stall to a callback as it is found: it keeps the last entry's time
 * and where the slog is, nothing more.
 *
 * Where a stall fell, as the entries before it say (the state after the
 * entry before the gap):
 * - `crankNum`: the crank open then: from its crank-start to its
 *   crank-finish, or from the first entry that carries its `crankNum`
 *   (a crank whose crank-start the slog lacks); a crank-start without a
 *   number (older kernels) takes the number of the entry after the gap.
 *   Undefined between cranks.
 * - `blockNum`, `runNum`: the chain block and run then, read by a
 *   ChainTracker of the detector's own, the same reading the crank model
 *   stamps cranks with (chain.ts). Undefined outside blocks and runs.
 */
import { ChainTracker } from './chain.js';
import { isCrankEntry, type SlogEntry } from '../scan/entry-types.js';
import { micros } from './time-split.js';

/** More than this many seconds between two consecutive entries is a stall, unless told otherwise. */
export const STALL_SECONDS = 1;

/** A gap of more than the threshold between two consecutive entries. */
export interface Stall {
  /** The `time` of the entry before the gap and of the entry after it, seconds since the epoch. */
  startTime: number;
  endTime: number;
  /** µs(endTime) - µs(startTime). */
  micros: number;
  /** The crank open across the gap; undefined between cranks. */
  crankNum: number | undefined;
  /** The chain block (its height) and run (its runNum) across the gap; undefined outside them. */
  blockNum: number | undefined;
  runNum: number | undefined;
  /** The types of the entries before and after the gap. */
  before: string;
  after: string;
}

function crankNumOf(entry: SlogEntry): number | undefined {
  const crankNum = (entry as { crankNum?: unknown }).crankNum;
  return typeof crankNum === 'number' ? crankNum : undefined;
}

/** A block's height, undefined where the slog does not say it (a bootstrap block whose height is not known yet). */
const heightOf = (height: number | undefined): number | undefined => (height === undefined || Number.isNaN(height) ? undefined : height);

export class StallDetector {
  private readonly thresholdMicros: number;
  private readonly chain = new ChainTracker();
  /** The last entry with a `time`: its time (seconds and µs) and type. */
  private lastTime = NaN;
  private lastMicros = NaN;
  private lastType = '';
  /** A crank is open (started, or begun by an entry with its number), and its number if known. */
  private crankOpen = false;
  private crankNum: number | undefined;

  /** `onStall` is told each stall as the entry after it comes; `thresholdSeconds` (default STALL_SECONDS): longer gaps are stalls. */
  constructor(
    private readonly onStall: (stall: Stall) => void,
    thresholdSeconds: number = STALL_SECONDS,
  ) {
    this.thresholdMicros = micros(thresholdSeconds);
  }

  /** The slog's next entry. An entry without a `time` is passed over (the gap is measured to the next that has one). */
  observe(entry: SlogEntry): void {
    const time = entry.time;
    if (typeof time === 'number') {
      const at = micros(time);
      const gap = at - this.lastMicros;
      if (gap > this.thresholdMicros) this.report(entry, time, gap);
      this.lastTime = time;
      this.lastMicros = at;
      this.lastType = entry.type;
    }
    this.follow(entry);
  }

  private report(after: SlogEntry, time: number, gap: number): void {
    const crankNum = this.crankOpen ? (this.crankNum ?? (after.type === 'crank-start' ? undefined : crankNumOf(after))) : undefined;
    this.onStall({
      startTime: this.lastTime,
      endTime: time,
      micros: gap,
      crankNum,
      blockNum: heightOf(this.chain.block?.height),
      runNum: this.chain.run?.num,
      before: this.lastType,
      after: after.type,
    });
  }

  /** Where the slog is after `entry`: the crank open, the block and run. */
  private follow(entry: SlogEntry): void {
    switch (entry.type) {
      case 'crank-start':
        this.crankOpen = true;
        this.crankNum = crankNumOf(entry);
        return;
      case 'crank-finish':
        this.crankOpen = false;
        this.crankNum = undefined;
        return;
      case 'kernel-init-start':
        this.crankOpen = false;
        this.crankNum = undefined;
        break;
      default:
        break;
    }
    if (!isCrankEntry(entry)) this.chain.entry(entry);
    const crankNum = crankNumOf(entry);
    if (crankNum !== undefined) {
      this.crankOpen = true;
      this.crankNum = crankNum;
    }
  }
}
