/**
 * How the report's time series cut a run into buckets: a strategy object the
 * series collector (series.ts) asks, crank by crank, which bucket a crank
 * belongs to. Three are here: every N cranks (`--every N`), per benchmark
 * round (`--round-marks`), and per chain block (the default on a slog with
 * blocks: the crank model stamps each crank with its block, model/chain.ts).
 *
 * Contract: a bucket is the run of consecutive cranks given keys of the same
 * `x`; `x` grows from bucket to bucket; a crank given no key is left out of
 * the series (and ends the bucket before it), and so is a crank whose `x` is
 * below the last bucket's. An entry outside cranks may open a bucket of its
 * own (a block in which no crank ran still makes a point).
 */
import type { Crank } from '../model/crank.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { consoleText, type Round, type Rounds } from '../analyses/common/rounds.js';

export interface BucketKey {
  /** The bucket's place on the x axis; grows from bucket to bucket. */
  readonly x: number;
  /** What the bucket is beyond its cranks (`"open vault" round 2`, `block 1234`); none for a plain run of cranks. */
  readonly name?: string;
  /** The chain's bootstrap block: its computrons (all the vats' setup) would flatten the chart, so the series sets them aside. */
  readonly bootstrap?: true;
}

export interface Bucketing {
  /** What the x axis counts, for its title: `crank`, `round`, `block`. */
  readonly axis: string;
  /** Called before each file of the slog is read (for messages that name the file). */
  beginFile?(name: string): void;
  /** Each entry outside cranks, in slog order (round marks, block starts); a key returned opens that bucket now, before any of its cranks. */
  entry(entry: SlogEntry, line: number): BucketKey | undefined | void;
  /** The bucket of `crank`, or undefined to leave it out of the series. */
  bucketOf(crank: Crank): BucketKey | undefined;
  /**
   * Does the slog have what this strategy cuts by (blocks)? Asked once the
   * whole slog was read, when the collector was given several strategies to
   * choose from (series.ts); absent: always.
   */
  applies?(): boolean;
  /**
   * Is this strategy sure to be chosen over every one after it in the list,
   * whatever the rest of the slog holds? Then the collector stops feeding
   * those (their series would never be shown). Absent: never.
   */
  settled?(): boolean;
  /** Are the sums of a bucket shown per crank (buckets of a set number of cranks, the last one holding fewer)? Absent: per bucket. */
  readonly perCrank?: boolean;
  /** Cranks per bucket, for a strategy that cuts every N cranks. */
  readonly cranksPerBucket?: number;
}

/** Cranks per bucket by default (as in Agoric's published benchmark graphs), when the slog is long enough for it. */
export const DEFAULT_EVERY = 250;
/** Points a chart should have at least: fewer cranks per bucket when DEFAULT_EVERY would give fewer. */
export const MIN_POINTS = 50;
/** Cranks per bucket to choose from, the largest first (everyNCranksLadder). */
export const EVERY_LADDER: readonly number[] = [250, 125, 50, 25, 10, 5, 2, 1];

/**
 * Every N cranks, N chosen once the slog was read: the largest of
 * EVERY_LADDER that makes at least MIN_POINTS buckets, else one bucket per
 * crank (a slog of fewer than MIN_POINTS cranks). One strategy per N, each
 * its own series (series.ts chooses the first that applies); once an N has
 * MIN_POINTS buckets the smaller ones stop (`settled`), so the extra work is
 * bounded (the smaller N's stop within their first MIN_POINTS x 250 cranks).
 */
export function everyNCranksLadder(): EveryNCranks[] {
  return EVERY_LADDER.map((n, i) => new EveryNCranks(n, i === EVERY_LADDER.length - 1 ? 0 : MIN_POINTS));
}

/**
 * Every `n` cranks (all kinds, in slog order) make a bucket; x is the first
 * crank's number. Its sums are shown per crank: the last bucket may hold
 * fewer cranks than the others. With `minBuckets`, it applies only to a slog
 * that makes at least that many buckets.
 */
export class EveryNCranks implements Bucketing {
  readonly axis = 'crank';
  readonly perCrank = true;
  private count = 0;
  private base: number | undefined;
  private current: BucketKey | undefined;

  constructor(
    readonly n: number,
    readonly minBuckets = 0,
  ) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`cranks per bucket must be a whole number above 0, not ${n}`);
  }

  get cranksPerBucket(): number {
    return this.n;
  }

  applies(): boolean {
    return Math.ceil(this.count / this.n) >= this.minBuckets;
  }

  /** Enough buckets already: more cranks only make more. */
  settled(): boolean {
    return this.applies();
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

/**
 * One bucket per chain block; x is the block's height. A crank goes to the
 * block the crank model stamped it with (`crank.block`, model/chain.ts);
 * a `cosmic-swingset-begin-block` opens its block's bucket before any crank,
 * so that a block in which no crank ran is a point of its own (no cranks,
 * and the kernel's heap after its commit).
 *
 * A block run again after a restart keeps its height, so its bucket goes on
 * (the execution the restart abandoned is not in the series: the pass hands
 * the series each crank once, model/executions.ts). Cranks outside every
 * block (a slog that starts inside a block, as a flight recorder's does) are
 * left out; so is a block whose height is below one already seen.
 */
const AGAIN = ' (run again after a restart)';

export class PerBlock implements Bucketing {
  readonly axis = 'block';
  private current: BucketKey | undefined;
  private seen = false;

  entry(entry: SlogEntry): BucketKey | undefined {
    if (entry.type !== 'cosmic-swingset-begin-block') return undefined;
    const height = entry.blockHeight;
    if (typeof height !== 'number' || !Number.isFinite(height)) return undefined;
    // The same height begun again: the node restarted inside it (a block with no cranks says so too).
    return this.keyOf(height, this.current?.x === height ? AGAIN : '');
  }

  bucketOf(crank: Crank): BucketKey | undefined {
    const block = crank.block;
    // A block the slog starts inside (model/chain.ts) is charted by none of its cranks: a part of a block is no point of it.
    if (!block || !Number.isFinite(block.height) || block.partial === true) return undefined;
    const key = this.keyOf(block.height, block.bootstrap ? ' (bootstrap)' : block.upgrade ? ' (upgrade)' : block.again ? AGAIN : '');
    if (block.bootstrap !== true || key.bootstrap) return key;
    this.current = { ...key, bootstrap: true };
    return this.current;
  }

  /** Did any block go by? */
  applies(): boolean {
    return this.seen;
  }

  private keyOf(height: number, tag: string): BucketKey {
    this.seen = true;
    let key = this.current;
    // A block's first crank or its second begin-block names it: the bucket may have been opened by its begin-block, before more was known.
    if (!key || key.x !== height || (tag && key.name === `block ${height}`)) {
      key = { x: height, name: `block ${height}${tag}` };
      this.current = key;
    }
    return key;
  }
}
