/**
 * How the report's time series cut a run into buckets: a strategy object the
 * series collector (series.ts) asks, crank by crank, which bucket a crank
 * belongs to. Two are here: every N cranks (`--every N`), and per benchmark
 * round (`--round-marks`). A per-chain-block strategy plugs in the same way:
 * it watches the `cosmic-swingset-begin-block` entries in `entry` and gives
 * each crank its block's key.
 *
 * Contract: a bucket is the run of consecutive cranks given the same key
 * object; keys' `x` grow from bucket to bucket; a crank given no key is left
 * out of the series (and ends the bucket before it).
 */
import type { Crank } from '../model/crank.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { consoleText, type Round, type Rounds } from '../analyses/rounds.js';

export interface BucketKey {
  /** The bucket's place on the x axis; grows from bucket to bucket. */
  readonly x: number;
  /** What the bucket is beyond its cranks (`"open vault" round 2`, `block 1234`); none for a plain run of cranks. */
  readonly name?: string;
}

export interface Bucketing {
  /** What the x axis counts, for its title: `crank`, `round`, `block`. */
  readonly axis: string;
  /** Called before each file of the slog is read (for messages that name the file). */
  beginFile?(name: string): void;
  /** Each entry outside cranks, in slog order (round marks, block starts). */
  entry(entry: SlogEntry, line: number): void;
  /** The bucket of `crank`, or undefined to leave it out of the series. */
  bucketOf(crank: Crank): BucketKey | undefined;
}

/** Every `n` cranks (all kinds, in slog order) make a bucket; x is the first crank's number. */
export class EveryNCranks implements Bucketing {
  readonly axis = 'crank';
  private count = 0;
  private base: number | undefined;
  private current: BucketKey | undefined;

  constructor(readonly n: number) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`cranks per bucket must be a whole number above 0, not ${n}`);
  }

  entry(): void {}

  bucketOf(crank: Crank): BucketKey {
    if (this.count % this.n === 0 || !this.current) {
      // The first crank's number, then counted: a slog that runs cranks again
      // after a restart still has growing x (the label gives the real numbers).
      this.base ??= Number.isFinite(crank.crankNum) ? crank.crankNum : 0;
      this.current = { x: this.base + this.count };
    }
    this.count += 1;
    return this.current;
  }
}

/**
 * One bucket per benchmark round (rounds.ts): its cranks, from its start mark
 * to its end mark, read from the slog's console entries as they stream by.
 * Cranks outside every round are left out. x counts rounds from 1.
 * A misplaced mark throws RoundMarkError.
 */
export class PerRound implements Bucketing {
  readonly axis = 'round';
  private file = '<slog>';
  private readonly keys = new Map<Round, BucketKey>();

  constructor(readonly rounds: Rounds) {}

  beginFile(name: string): void {
    this.file = name;
  }

  entry(entry: SlogEntry, line: number): void {
    const text = consoleText(entry);
    if (text !== undefined) this.rounds.noteText(text, `${this.file}:${line}`);
  }

  bucketOf(crank: Crank): BucketKey | undefined {
    // Marks logged inside the crank apply before it is placed (as in RoundFilter).
    for (const item of crank.items) {
      if (item.kind !== 'entry') continue;
      const text = consoleText(item.entry);
      if (text !== undefined) this.rounds.noteText(text, `${this.file}: crank ${crank.crankNum}`);
    }
    const round = this.rounds.contains(crank.crankNum);
    this.rounds.passed(crank.crankNum);
    if (!round) return undefined;
    let key = this.keys.get(round);
    if (!key) {
      key = { x: this.keys.size + 1, name: `"${round.benchmark}" round ${round.round}` };
      this.keys.set(round, key);
    }
    return key;
  }
}
