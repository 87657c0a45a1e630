/**
 * Where the selected cranks' time went (docs/time-split.md): each crank's
 * parts (`crank.parts`, model/parts.ts) summed over the slog, per vat (the
 * delivery cranks of each), and for the routing cranks apart. Memory: one
 * PartsTally per vat.
 */
import type { Crank } from '../../model/crank.js';
import { PARTS, type PartName } from '../../model/parts.js';
import { NO_VAT } from '../../model/vats.js';
import { PartsTally } from '../common/parts-tally.js';

/** One part of a group of cranks' time. */
export interface PartRow {
  part: PartName;
  /** The part it is inside of (`replay` in `page-in`, `gc` in `vat`); absent for the parts that add up to the total. */
  within?: PartName;
  /** Its µs, summed over the cranks where it is known. */
  micros: number;
  /** micros / the group's totalMicros (0..1; 0 when the total is 0). */
  share: number;
  /** Cranks where it is known and not zero. */
  cranks: number;
  /** Cranks where it is unknown (vat and pipe where a worker's timestamps list is unusable: their µs are on the `unknown` row). */
  unknownIn: number;
}

/** A group of cranks' time, split. */
export interface CrankPartsStats {
  /** Cranks with parts (with their crank-start and crank-finish), and the sum of their totals, µs. */
  cranks: number;
  totalMicros: number;
  /** Cranks without parts (no crank-start or no crank-finish): not in the figures. */
  withoutParts: number;
  /** Every part, in PARTS order; the rows without `within` add up to totalMicros. */
  parts: PartRow[];
}

/** The delivery cranks of one vat, their time split. */
export interface VatCrankPartsStats extends CrankPartsStats {
  vatID: string;
  vatName?: string;
}

/** A tally's rows. */
export function partsStats(tally: PartsTally): CrankPartsStats {
  const total = tally.totalMicros;
  const parts = tally.parts().map((sum, i): PartRow => {
    const within = PARTS[i]?.within;
    return {
      part: sum.name,
      ...(within === undefined ? {} : { within }),
      micros: sum.micros,
      share: total > 0 ? sum.micros / total : 0,
      cranks: sum.cranks,
      unknownIn: sum.unknownIn,
    };
  });
  return { cranks: tally.cranks, totalMicros: total, withoutParts: tally.withoutParts, parts };
}

/**
 * The parts of the selected cranks: each vat's delivery cranks, the routing
 * cranks, and all of them (their sum, made when asked: every part is whole
 * µs, so the sums are exact in any order).
 */
export class CrankPartsTally {
  readonly routing = new PartsTally();
  private readonly byVat = new Map<string, PartsTally>();
  /** The last vat's tally (a slog's cranks often run in one vat after another). */
  private lastVat: string | undefined;
  private lastTally: PartsTally | undefined;

  /** A selected crank (delivery or routing, as `delivery` says). */
  add(crank: Crank, delivery: boolean): void {
    if (!delivery) {
      this.routing.add(crank.parts);
      return;
    }
    const vatID = crank.vatID ?? NO_VAT;
    let tally = vatID === this.lastVat ? this.lastTally : this.byVat.get(vatID);
    if (!tally) {
      tally = new PartsTally();
      this.byVat.set(vatID, tally);
    }
    this.lastVat = vatID;
    this.lastTally = tally;
    tally.add(crank.parts);
  }

  /** Every selected crank's parts: the routing cranks' and each vat's, summed. */
  all(): PartsTally {
    const all = new PartsTally();
    all.addTally(this.routing);
    for (const tally of this.byVat.values()) all.addTally(tally);
    return all;
  }

  /** One row per vat, in `order`. */
  vatRows(name: (vatID: string) => string | undefined, order: (a: string, b: string) => number): VatCrankPartsStats[] {
    return [...this.byVat]
      .sort(([a], [b]) => order(a, b))
      .map(([vatID, tally]) => {
        const vatName = vatID === NO_VAT ? undefined : name(vatID);
        return { vatID, ...(vatName === undefined ? {} : { vatName }), ...partsStats(tally) };
      });
  }
}
