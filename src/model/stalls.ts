/**
 * Stalls (docs/time-split.md; SLOG-FORMAT.md, "Where a crank's time
 * goes"): more than a threshold (default 1 s) between two consecutive
 * entries of the slog, inside a crank or between cranks. A `StallDetector`
 * is fed every entry in slog order (a consumer passes it the pass's
 * `observe` hook, which sees each entry before the crank model) and tells
 * each stall to a callback as it is found: it keeps the last entry's time
 * and where the slog is, nothing more.
 *
 * Where a stall fell is where the crank model stood before the entry after
 * the gap (`ModelPlace`, which the pass hands the observer with each
 * entry): the detector follows nothing itself.
 * - `crankNum`: the crank open then (from its crank-start to its
 *   crank-finish, or from the first entry that carries its number when the
 *   slog lacks its crank-start); a crank open without a number (older
 *   kernels' crank-start) takes the number of the entry after the gap.
 *   Undefined between cranks.
 * - `blockNum`, `runNum`: the chain block and run then (chain.ts).
 *   Undefined outside blocks and runs.
 */
import type { ModelPlace } from './assembler.js';
import type { LineFacts, SlogEntry } from '../scan/entry-types.js';
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
  /** The type of the last entry with a `time` (its type, not the entry: no young object held from an old one per line), and its time (seconds and µs). */
  private lastType = '';
  private lastTime = NaN;
  private lastMicros = NaN;

  /** `onStall` is told each stall as the entry after it comes; `thresholdSeconds` (default STALL_SECONDS): longer gaps are stalls. */
  constructor(
    private readonly onStall: (stall: Stall) => void,
    thresholdSeconds: number = STALL_SECONDS,
  ) {
    this.thresholdMicros = micros(thresholdSeconds);
  }

  /**
   * The slog's next entry, with the model's place before it and the
   * reader's facts of it (the pass's `observe` hook). An entry without a
   * `time` is passed over (the gap is measured to the next that has one).
   * Runs for every line: its type and time read from `facts` (one shape,
   * not the entry's: LineFacts); the entry is looked at only when a stall
   * is found. Precondition: `facts` are `entry`'s.
   */
  observe(entry: SlogEntry, place: ModelPlace, facts: Readonly<LineFacts>): void {
    const time = facts.time;
    if (time !== time) return;
    const at = micros(time);
    if (at - this.lastMicros > this.thresholdMicros) this.report(entry, facts.type, time, at - this.lastMicros, place);
    this.lastType = facts.type;
    this.lastTime = time;
    this.lastMicros = at;
  }

  private report(after: SlogEntry, afterType: string, time: number, gap: number, place: ModelPlace): void {
    const open = place.openCrankNum;
    const crankNum = open === undefined ? undefined : !Number.isNaN(open) ? open : afterType === 'crank-start' ? undefined : crankNumOf(after);
    this.onStall({
      startTime: this.lastTime,
      endTime: time,
      micros: gap,
      crankNum,
      blockNum: heightOf(place.chain.block?.height),
      runNum: place.chain.run?.num,
      before: this.lastType,
      after: afterType,
    });
  }
}
