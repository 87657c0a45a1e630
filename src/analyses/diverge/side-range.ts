/**
 * What one side of `diverge` covers: its cranks' numbers and blocks, first
 * to last, and what was not compared of it (cranks without a number, cranks
 * whose number came again or out of order, executions a restart abandoned).
 */
import type { CrankDigest } from './crank-digest.js';

/** A run of cranks, first to last, and their blocks' heights where the slog says them. */
export interface CrankSpan {
  cranks: number;
  firstCrank: number | undefined;
  lastCrank: number | undefined;
  firstBlock: number | undefined;
  lastBlock: number | undefined;
}

/** One more crank at the span's end (its block, when known). */
export function stretchSpan(span: CrankSpan, crankNum: number, block: number | undefined): void {
  span.cranks += 1;
  span.firstCrank ??= crankNum;
  span.lastCrank = crankNum;
  if (block !== undefined && Number.isFinite(block)) {
    span.firstBlock ??= block;
    span.lastBlock = block;
  }
}

/** Its cranks with a number, in order (`cranks`), and the rest below. */
export interface SideRange extends CrankSpan {
  /** Cranks whose crank-finish has a crankhash. */
  withHash: number;
  /** Cranks that began before the slog or lack their crank-finish: their entries are not compared. */
  partial: number;
  /** Cranks without a number, or whose number is not above the one before: not compared. */
  unordered: number;
  /** Executions a restart abandoned (the kernel ran the crank again). */
  abandoned: number;
  /** Its first crank began before the slog (a dump, a cut); its last has no crank-finish (a live slog, a crash). */
  beganInside: boolean;
  endedInside: boolean;
}

export function emptyRange(): SideRange {
  return { cranks: 0, firstCrank: undefined, lastCrank: undefined, firstBlock: undefined, lastBlock: undefined, withHash: 0, partial: 0, unordered: 0, abandoned: 0, beganInside: false, endedInside: false };
}

/** Counts the crank in; false when it is out of order (not to be compared). */
export function takeCrank(range: SideRange, d: CrankDigest): boolean {
  if (!Number.isFinite(d.crankNum) || (range.lastCrank !== undefined && d.crankNum <= range.lastCrank)) {
    range.unordered += 1;
    return false;
  }
  if (range.cranks === 0) range.beganInside = d.beganBefore;
  range.endedInside = d.unfinished;
  stretchSpan(range, d.crankNum, d.block);
  if (d.crankhash !== undefined) range.withHash += 1;
  if (!d.complete) range.partial += 1;
  return true;
}

/** `cranks 0-2104, blocks 1-170` (blocks left out when there are none). */
export function rangeText(r: Omit<CrankSpan, 'cranks'>): string {
  if (r.firstCrank === undefined) return 'no cranks';
  const cranks = r.firstCrank === r.lastCrank ? `crank ${r.firstCrank}` : `cranks ${r.firstCrank}-${r.lastCrank}`;
  if (r.firstBlock === undefined) return cranks;
  const blocks = r.firstBlock === r.lastBlock ? `block ${r.firstBlock}` : `blocks ${r.firstBlock}-${r.lastBlock}`;
  return `${cranks}, ${blocks}`;
}
