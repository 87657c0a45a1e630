/**
 * Crank and vat selection: `--cranks 7215-7495,8000,9000-`, `--vat v46`
 * (repeatable; a vat name from the slog or the annotations works too) and
 * `--blocks 85,100-120,13499082-` (the cranks a chain block ran: between its
 * begin-block and its end-block-finish, model/chain.ts), `--since T` and
 * `--until T` (times: a crank is selected when its crank-start's time, else
 * its first entry's, is >= since and < until; time-bounds.ts). Given together, a
 * crank must match all of them.
 */
import { crankStartTime, type Crank } from '../../model/crank.js';
import type { VatNames } from '../../model/vats.js';

/** An inclusive range; `to` is Infinity for an open end (`9000-`). */
export interface CrankRange {
  from: number;
  to: number;
}

export class SelectionError extends Error {}

/** Parses `7215-7495,8000,9000-` (also `-100` for 0-100); `what` names the numbers in errors (`crank`, `block`). */
export function parseRanges(text: string, what: string): CrankRange[] {
  const ranges: CrankRange[] = [];
  for (const raw of text.split(',')) {
    const part = raw.trim();
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!part || !m || (!m[1] && !m[3])) {
      throw new SelectionError(`bad ${what} range "${part}" (expected N, N-M, N- or -M, separated by commas)`);
    }
    for (const digits of [m[1], m[3]]) {
      if (digits && !Number.isSafeInteger(Number(digits))) throw new SelectionError(`${what} number ${digits} is too large (at most ${Number.MAX_SAFE_INTEGER})`);
    }
    const from = m[1] ? Number(m[1]) : 0;
    const to = m[2] ? (m[3] ? Number(m[3]) : Infinity) : from;
    if (to < from) throw new SelectionError(`bad ${what} range "${part}" (${to} is before ${from})`);
    ranges.push({ from, to });
  }
  return ranges;
}

/** Parses `7215-7495,8000,9000-` (also `-100` for 0-100). */
export function parseCrankRanges(text: string): CrankRange[] {
  return parseRanges(text, 'crank');
}

/** Is `n` in one of the ranges? */
export function inRanges(ranges: readonly CrankRange[], n: number): boolean {
  return ranges.some((r) => n >= r.from && n <= r.to);
}

export function formatCrankRanges(ranges: readonly CrankRange[]): string {
  return ranges
    .map(({ from, to }) => (to === Infinity ? `${from}-` : from === to ? `${from}` : `${from}-${to}`))
    .join(',');
}

/** A time as an ISO date in UTC, to the millisecond where it has a fraction (`2026-11-20T10:00:00Z`, `2026-11-20T10:00:42.5Z`). */
export function isoTime(seconds: number): string {
  const iso = new Date(Math.round(seconds * 1000)).toISOString();
  return iso.replace(/\.(\d*?)0*Z$/, (_m, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

export interface SelectionSpec {
  cranks?: CrankRange[];
  /** Vat IDs (`v46`) or names (`walletFactory`), matched when the crank is seen. */
  vats?: string[];
  /** Chain block heights: the cranks each block ran (a crank outside every block matches none). */
  blocks?: CrankRange[];
  /** Seconds since the epoch, resolved (a duration back from the slog's end already made a time): cranks started at or after it. */
  since?: number;
  /** Cranks started before it. */
  until?: number;
}

/** Does the spec select anything less than every crank? */
export function isSelecting(spec: SelectionSpec): boolean {
  return !!(spec.cranks?.length || spec.vats?.length || spec.blocks?.length || spec.since !== undefined || spec.until !== undefined);
}

/**
 * Decides which cranks an analysis looks at. Vat names are resolved through
 * the VatNames the pass keeps (annotations first, then names learned from the
 * slog so far), so a name works once its create-vat has been seen.
 */
export class CrankSelection {
  constructor(
    readonly spec: SelectionSpec,
    private readonly vats: VatNames,
  ) {}

  get isAll(): boolean {
    return !isSelecting(this.spec);
  }

  hasCrank(crankNum: number): boolean {
    const ranges = this.spec.cranks;
    if (!ranges?.length) return true;
    return inRanges(ranges, crankNum);
  }

  /** Did the crank run in one of the selected blocks (any crank, without --blocks)? */
  hasBlock(crank: Crank): boolean {
    const ranges = this.spec.blocks;
    if (!ranges?.length) return true;
    const height = crank.block?.height;
    return height !== undefined && inRanges(ranges, height);
  }

  /** Did the crank start at or after --since and before --until (its crank-start's time, else its first entry's)? A crank without any time matches neither. */
  hasTime(crank: Crank): boolean {
    const { since, until } = this.spec;
    if (since === undefined && until === undefined) return true;
    const time = crankStartTime(crank);
    if (time === undefined) return false;
    return (since === undefined || time >= since) && (until === undefined || time < until);
  }

  hasVat(vatID: string | undefined): boolean {
    const wanted = this.spec.vats;
    if (!wanted?.length) return true;
    if (vatID === undefined) return false;
    const name = this.vats.lookup(vatID);
    return wanted.some((w) => w === vatID || (name !== undefined && w === name));
  }

  /** Routing cranks have no vat: a --vat selection leaves them out. */
  matches(crank: Crank): boolean {
    if (!this.hasCrank(crank.crankNum)) return false;
    if (!this.hasBlock(crank)) return false;
    if (!this.hasTime(crank)) return false;
    if (this.spec.vats?.length && crank.crankType === 'routing') return false;
    return this.hasVat(crank.vatID);
  }

  /** The highest crank number any range can still match (Infinity if open): lets a pass stop early. */
  get lastCrank(): number {
    const ranges = this.spec.cranks;
    if (!ranges?.length) return Infinity;
    return Math.max(...ranges.map((r) => r.to));
  }

  describe(): string {
    const parts: string[] = [];
    if (this.spec.cranks?.length) parts.push(`cranks ${formatCrankRanges(this.spec.cranks)}`);
    if (this.spec.vats?.length) parts.push(`vat ${this.spec.vats.join(', ')}`);
    if (this.spec.blocks?.length) parts.push(`${this.spec.blocks.length === 1 && this.spec.blocks[0]?.from === this.spec.blocks[0]?.to ? 'block' : 'blocks'} ${formatCrankRanges(this.spec.blocks)}`);
    const times = [this.spec.since === undefined ? '' : `since ${isoTime(this.spec.since)}`, this.spec.until === undefined ? '' : `until ${isoTime(this.spec.until)}`];
    if (times.some((t) => t)) parts.push(`cranks ${times.filter((t) => t).join(' ')}`);
    return parts.join(' and ') || 'all cranks';
  }
}
