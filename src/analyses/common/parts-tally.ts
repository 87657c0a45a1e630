/**
 * Sums of crank parts (model/parts.ts) over many cranks: per part its µs
 * and the cranks where it is not zero; the cranks without parts (no
 * crank-start or no crank-finish) counted apart. One tally per group
 * (the slog, a vat, a block, a run, a bucket of the report) answers "where
 * did this group's crank time go".
 */
import type { CrankParts } from '../../model/crank.js';
import { PARTS, type PartName } from '../../model/parts.js';

export interface PartSum {
  name: PartName;
  /** µs summed over the cranks where the part is known. */
  micros: number;
  /** Cranks where it is known and not zero. */
  cranks: number;
  /** Cranks where it is unknown (vat and pipe with an unusable list). */
  unknownIn: number;
}

export class PartsTally {
  /** Cranks added with parts, and their total µs. */
  cranks = 0;
  totalMicros = 0;
  /** Cranks without parts (their total is not known). */
  withoutParts = 0;
  private readonly sums: PartSum[] = PARTS.map((p) => ({ name: p.name, micros: 0, cranks: 0, unknownIn: 0 }));

  /**
   * One crank's parts (undefined: a crank without them). Each field is read
   * by name, in PARTS order (parts-tally.test.ts checks it against partMicros): a tally adds every
   * crank of a slog, and a field read by a computed key is several times
   * slower on a hot path.
   */
  add(parts: CrankParts | undefined): void {
    if (parts === undefined) {
      this.withoutParts += 1;
      return;
    }
    this.cranks += 1;
    this.totalMicros += parts.total;
    const s = this.sums;
    known(s[0] as PartSum, parts.pageIn);
    known(s[1] as PartSum, parts.replay);
    maybe(s[2] as PartSum, parts.vat);
    known(s[3] as PartSum, parts.syscall);
    maybe(s[4] as PartSum, parts.pipe);
    known(s[5] as PartSum, parts.snapshot);
    known(s[6] as PartSum, parts.kernel);
    known(s[7] as PartSum, parts.unknown);
    // gc is undefined in every crank without a bringOutYourDead: not unknown, just absent.
    if (parts.gc !== undefined) known(s[8] as PartSum, parts.gc);
  }

  /** Another tally's sums added to this one's. */
  addTally(other: PartsTally): void {
    this.cranks += other.cranks;
    this.totalMicros += other.totalMicros;
    this.withoutParts += other.withoutParts;
    other.sums.forEach((s, i) => {
      const mine = this.sums[i] as PartSum;
      mine.micros += s.micros;
      mine.cranks += s.cranks;
      mine.unknownIn += s.unknownIn;
    });
  }

  /** Every part's sum, in PARTS order. */
  parts(): readonly PartSum[] {
    return this.sums;
  }

  /** One part's sum. */
  part(name: PartName): PartSum {
    return this.sums.find((s) => s.name === name) as PartSum;
  }
}

/** A part always known in a crank with parts. */
function known(sum: PartSum, us: number): void {
  sum.micros += us;
  if (us !== 0) sum.cranks += 1;
}

/** A part that may be unknown (vat, pipe). */
function maybe(sum: PartSum, us: number | undefined): void {
  if (us === undefined) sum.unknownIn += 1;
  else known(sum, us);
}

