/**
 * Sums of crank parts (model/parts.ts) over many cranks: per part its µs
 * and the cranks where it is not zero; the cranks without parts (no
 * crank-start or no crank-finish) counted apart. One tally per group
 * (the slog, a vat, a block, a run, a bucket of the report) answers "where
 * did this group's crank time go".
 */
import type { CrankParts } from '../../model/crank.js';
import { PARTS, partMicros, type PartName } from '../../model/parts.js';

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

  /** One crank's parts (undefined: a crank without them). */
  add(parts: CrankParts | undefined): void {
    if (parts === undefined) {
      this.withoutParts += 1;
      return;
    }
    this.cranks += 1;
    this.totalMicros += parts.total;
    for (let i = 0; i < PARTS.length; i += 1) {
      const sum = this.sums[i] as PartSum;
      const us = partMicros(parts, PARTS[i] as (typeof PARTS)[number]);
      if (us === undefined) {
        // gc is undefined in every crank without a bringOutYourDead: not unknown, just absent.
        if (sum.name !== 'gc') sum.unknownIn += 1;
      } else {
        sum.micros += us;
        if (us !== 0) sum.cranks += 1;
      }
    }
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
