/**
 * `slogulate diverge A B`: two slogs of one chain (two validators) or of one
 * benchmark, aligned by crank number, and where they stopped doing the same
 * thing.
 *
 * Each side's cranks come in (as digests, crank-digest.ts) in crank order;
 * the matcher keeps those not yet matched, in two queues, and matches the
 * heads: the same number on both sides is a pair, compared; a number one
 * side lacks is before the other's first crank (outside the compared
 * range), after its last (likewise), or a gap (a crank one side has in the
 * compared range, and the other not: its deliveries are one side's only).
 * The reading of the two slogs (run/diverge.ts) pauses the side that is
 * ahead, so that the queues stay within a window.
 *
 * A pair is compared by its `crankhash` where both have one (the hash of
 * the crank's kernel-state changes, in consensus), else by its normalized
 * entries (ignored-fields.ts). The first pair that differs is the
 * divergence; its entries are kept for the report, with the first field
 * that differs. After it, `activityhash` (cumulative) stays different;
 * whether later crankhashes agree again is counted. Cranks whose hashes
 * agree but whose entries differ (what the hash does not cover: console
 * lines, a delivery's result) are counted apart. Deliveries are matched by
 * (vatID, deliveryNum) for computrons and time (delivery-match.ts,
 * timing-tally.ts).
 *
 * The result says nothing of either side that it did not compare, and says
 * what it compared.
 */
import type { CrankDigest, NormalEntry } from './crank-digest.js';
import { DeliveryMatcher, type DeliveryMatchResult } from './delivery-match.js';
import { firstDifference, onlyComputrons, type EntryDifference } from './first-difference.js';
import { emptyRange, stretchSpan, takeCrank, type SideRange } from './side-range.js';
import { TimingTally, type TimingResult } from './timing-tally.js';

export type SideIndex = 0 | 1;

/** At most this many entries of each side of the diverged crank are kept for the report. */
const MAX_SHOWN_ENTRIES = 400;

/** The first crank that differs, both sides of it. */
export interface Divergence {
  crankNum: number;
  blockA: number | undefined;
  blockB: number | undefined;
  whatA: string;
  whatB: string;
  /** What told: the crankhash (both have one), or the entries (not both have one). */
  by: 'crankhash' | 'entries';
  crankhashA: string | undefined;
  crankhashB: string | undefined;
  /** The first entry and field that differ; undefined when the entries are the same (the hash differs on state the slog does not show), or not comparable (`partial`). */
  difference: EntryDifference | undefined;
  /** One side's crank began before its slog, or has no crank-finish: its entries were not compared. */
  partial: boolean;
  /** Both sides' normalized entries (the first MAX_SHOWN_ENTRIES). */
  entriesA: NormalEntry[];
  entriesB: NormalEntry[];
}

/** The compared range: the cranks both sides have. */
export interface ComparedRange {
  cranks: number;
  firstCrank: number | undefined;
  lastCrank: number | undefined;
  firstBlock: number | undefined;
  lastBlock: number | undefined;
  /** Pairs compared by crankhash, and by entries. */
  byHash: number;
  byEntries: number;
  /** Pairs whose entries were not compared: one side's crank began before its slog or never finished. */
  partial: number;
}

/** Cranks of the compared range that one side has and the other not. */
export interface Gaps {
  onlyA: number;
  onlyB: number;
  firstOnlyA: number | undefined;
  firstOnlyB: number | undefined;
}

export interface AfterDivergence {
  /** Pairs after the first divergence. */
  cranks: number;
  /** Of them, those whose crankhashes (or, without hashes, entries) agree again, and the first. */
  agreeAgain: number;
  firstAgreeAgain: number | undefined;
  /** Of them, those whose activityhashes differ (both have one). */
  activityDiffers: number;
  activityCompared: number;
}

/** Pairs whose crankhashes agree and whose entries do not (looked for only when asked: `compareEntries`). */
export interface EntriesOnly {
  looked: boolean;
  cranks: number;
  first: { crankNum: number; block: number | undefined; what: string; difference: EntryDifference } | undefined;
}

export interface DivergeResult {
  a: SideRange;
  b: SideRange;
  compared: ComparedRange;
  first: Divergence | undefined;
  after: AfterDivergence;
  /** The first pair whose activityhashes differ (both have one); before `first` when the slogs began from different histories. */
  firstActivityDiffers: number | undefined;
  /** The first pair whose crank ran in another block on each side. */
  blockDiffers: { crankNum: number; blockA: number; blockB: number } | undefined;
  entriesOnly: EntriesOnly;
  gaps: Gaps;
  deliveries: DeliveryMatchResult;
  timing: TimingResult;
  /** Did the deterministic parts differ: a crank, a computron count, a delivery or crank one side only has. */
  diverged: boolean;
}

/** A queue of one side's digests, in crank order. */
class Queue {
  private items: CrankDigest[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  peek(): CrankDigest | undefined {
    return this.items[this.head];
  }

  push(d: CrankDigest): void {
    this.items.push(d);
  }

  shift(): CrankDigest {
    const d = this.items[this.head] as CrankDigest;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return d;
  }
}

export interface MatcherOptions {
  /** The deliveries of largest time difference kept (default 10). */
  largest?: number;
  /** A delivery's vat as the timing tables name it (`v6 amm`). */
  vatLabel?: (vatID: string | undefined) => string;
  /** Compare the entries of cranks whose crankhashes agree too (EntriesOnly); without it, only where they differ. */
  compareEntries?: boolean;
  /**
   * The cranks come without their entries (a light read, run/diverge.ts):
   * the first divergence by crankhash is found without its entries (they
   * are read again and put in by `withEntries`), and a pair without hashes,
   * which only its entries can compare, sets `needsEntries`.
   */
  entriesLater?: boolean;
}

export class DivergeMatcher {
  private readonly queues: [Queue, Queue] = [new Queue(), new Queue()];
  private readonly ended: [boolean, boolean] = [false, false];
  private readonly ranges: [SideRange, SideRange] = [emptyRange(), emptyRange()];
  private readonly compared: ComparedRange = { cranks: 0, firstCrank: undefined, lastCrank: undefined, firstBlock: undefined, lastBlock: undefined, byHash: 0, byEntries: 0, partial: 0 };
  private first: Divergence | undefined;
  private readonly after: AfterDivergence = { cranks: 0, agreeAgain: 0, firstAgreeAgain: undefined, activityDiffers: 0, activityCompared: 0 };
  private firstActivityDiffers: number | undefined;
  private blockDiffers: DivergeResult['blockDiffers'];
  private readonly entriesOnly: EntriesOnly = { looked: false, cranks: 0, first: undefined };
  private readonly gaps: Gaps = { onlyA: 0, onlyB: 0, firstOnlyA: undefined, firstOnlyB: undefined };
  private readonly timing: TimingTally;
  private readonly deliveries: DeliveryMatcher;
  private readonly compareEntries: boolean;
  private readonly entriesLater: boolean;
  /** With `entriesLater`: a pair came that only its entries can compare (no crankhash on one side): read them. */
  needsEntries = false;

  constructor(options: MatcherOptions = {}) {
    this.compareEntries = options.compareEntries === true;
    this.entriesLater = options.entriesLater === true && !this.compareEntries;
    this.entriesOnly.looked = this.compareEntries;
    this.timing = new TimingTally(options.largest ?? 10);
    const vatLabel = options.vatLabel ?? ((v: string | undefined): string => v ?? '<no vat>');
    this.deliveries = new DeliveryMatcher((a, da, db) => this.timing.delivery(a, da, db, vatLabel(da.vatID)));
  }

  /** A crank of one side, in the side's order. */
  push(side: SideIndex, d: CrankDigest): void {
    if (takeCrank(this.ranges[side], d)) this.queues[side].push(d);
  }

  /** An execution a restart abandoned (not compared: the side's later execution is). */
  abandoned(side: SideIndex): void {
    this.ranges[side].abandoned += 1;
  }

  /** The side's slog ended: every crank it had came. */
  end(side: SideIndex): void {
    this.ended[side] = true;
  }

  queued(side: SideIndex): number {
    return this.queues[side].size;
  }

  /** Matches what can be matched: both heads, or one side's when the other has ended. */
  drain(): void {
    const [qa, qb] = this.queues;
    for (;;) {
      const a = qa.peek();
      const b = qb.peek();
      if (a !== undefined && b !== undefined) {
        if (a.crankNum === b.crankNum) this.pair(qa.shift(), qb.shift());
        else if (a.crankNum < b.crankNum) this.unpaired(0, qa.shift());
        else this.unpaired(1, qb.shift());
      } else if (a !== undefined && this.ended[1]) {
        this.unpaired(0, qa.shift());
      } else if (b !== undefined && this.ended[0]) {
        this.unpaired(1, qb.shift());
      } else {
        return;
      }
    }
  }

  /** A crank the other side lacks: outside the other's range, or a gap in it. */
  private unpaired(side: SideIndex, d: CrankDigest): void {
    const other = this.ranges[side === 0 ? 1 : 0];
    // The other side's range so far: its first crank, and (once it ended) its last.
    const otherEnded = this.ended[side === 0 ? 1 : 0] && this.queues[side === 0 ? 1 : 0].size === 0;
    if (other.firstCrank === undefined || d.crankNum < other.firstCrank) return;
    if (otherEnded && other.lastCrank !== undefined && d.crankNum > other.lastCrank) return;
    if (side === 0) {
      this.gaps.onlyA += 1;
      this.gaps.firstOnlyA ??= d.crankNum;
    } else {
      this.gaps.onlyB += 1;
      this.gaps.firstOnlyB ??= d.crankNum;
    }
    this.deliveries.alone(side, d);
  }

  private pair(a: CrankDigest, b: CrankDigest): void {
    this.countCompared(a);
    // A crank one side has in part (begun before its slog, unfinished) may lack a delivery the other has.
    this.deliveries.pair(a, b, a.complete && b.complete);
    // By part only where the two cranks did the same work (after a divergence a number may be another crank).
    if (a.complete && b.complete && sameWork(a, b)) this.timing.crankParts(a.parts, b.parts);
    if (this.blockDiffers === undefined && a.block !== undefined && b.block !== undefined && a.block !== b.block) {
      this.blockDiffers = { crankNum: a.crankNum, blockA: a.block, blockB: b.block };
    }
    if (a.activityhash !== undefined && b.activityhash !== undefined && a.activityhash !== b.activityhash) this.firstActivityDiffers ??= a.crankNum;
    const byHash = a.crankhash !== undefined && b.crankhash !== undefined;
    const comparable = a.complete && b.complete;
    if (!comparable) this.compared.partial += 1;
    const hashDiffers = byHash && a.crankhash !== b.crankhash;
    // With hashes, the entries are compared where the hash first differs (to say where), or when asked for (`entries`).
    const look = comparable && (!byHash || (hashDiffers && this.first === undefined) || this.compareEntries);
    if (look && !byHash && this.entriesLater) this.needsEntries = true;
    const difference = look && !this.entriesLater ? firstDifference(a.entries(), b.entries()) : undefined;
    if (byHash) this.compared.byHash += 1;
    else this.compared.byEntries += 1;
    const differs = byHash ? hashDiffers : difference !== undefined;
    if (this.first !== undefined) {
      this.later(a, b, differs);
      return;
    }
    if (differs) {
      this.first = divergence(a, b, byHash ? 'crankhash' : 'entries', difference, !comparable, !this.entriesLater);
      return;
    }
    // A computron count that differs is a computron mismatch (delivery-match.ts), said there.
    if (difference !== undefined && !onlyComputrons(a.entries(), b.entries(), difference)) {
      this.entriesOnly.cranks += 1;
      this.entriesOnly.first ??= { crankNum: a.crankNum, block: a.block, what: a.what, difference };
    }
  }

  private later(a: CrankDigest, b: CrankDigest, differs: boolean): void {
    const after = this.after;
    after.cranks += 1;
    if (!differs) {
      after.agreeAgain += 1;
      after.firstAgreeAgain ??= a.crankNum;
    }
    if (a.activityhash !== undefined && b.activityhash !== undefined) {
      after.activityCompared += 1;
      if (a.activityhash !== b.activityhash) after.activityDiffers += 1;
    }
  }

  private countCompared(a: CrankDigest): void {
    stretchSpan(this.compared, a.crankNum, a.block);
  }

  /** Once both sides ended (and `drain` ran). */
  result(): DivergeResult {
    this.drain();
    const deliveries = this.deliveries.result();
    const gaps = this.gaps;
    const diverged = this.first !== undefined || deliveries.mismatches > 0 || deliveries.onlyA > 0 || deliveries.onlyB > 0 || gaps.onlyA > 0 || gaps.onlyB > 0;
    return {
      a: this.ranges[0],
      b: this.ranges[1],
      compared: this.compared,
      first: this.first,
      after: this.after,
      firstActivityDiffers: this.firstActivityDiffers,
      blockDiffers: this.blockDiffers,
      entriesOnly: this.entriesOnly,
      gaps,
      deliveries,
      timing: this.timing.result(),
      diverged,
    };
  }
}

/** The same vat and method, and the same deliveries (by vat and number). */
function sameWork(a: CrankDigest, b: CrankDigest): boolean {
  if (a.what !== b.what || a.deliveries.length !== b.deliveries.length) return false;
  return a.deliveries.every((d, i) => d.vatID === b.deliveries[i]?.vatID && d.deliveryNum === b.deliveries[i]?.deliveryNum);
}

/**
 * The first divergence found by a light read (MatcherOptions.entriesLater),
 * given its two cranks read again whole: their first difference and entries.
 * Precondition: `a` and `b` are the divergence's crank on each side.
 */
export function withEntries(first: Divergence, a: CrankDigest, b: CrankDigest): Divergence {
  const difference = first.partial ? undefined : firstDifference(a.entries(), b.entries());
  return { ...first, difference, entriesA: shown(a), entriesB: shown(b) };
}

const shown = (d: CrankDigest): NormalEntry[] => d.entries().slice(0, MAX_SHOWN_ENTRIES);

function divergence(a: CrankDigest, b: CrankDigest, by: Divergence['by'], difference: EntryDifference | undefined, partial: boolean, withItsEntries: boolean): Divergence {
  return {
    crankNum: a.crankNum,
    blockA: a.block,
    blockB: b.block,
    whatA: a.what,
    whatB: b.what,
    by,
    crankhashA: a.crankhash,
    crankhashB: b.crankhash,
    difference,
    partial,
    entriesA: withItsEntries ? shown(a) : [],
    entriesB: withItsEntries ? shown(b) : [],
  };
}
