/**
 * Garbage collection per vat (docs/time-split.md, "Garbage collection"):
 * the `bringOutYourDead` deliveries of the selected cranks and their GC
 * time (`crank.deliveryTimes`' gcMicros: the worker's time before the
 * delivery's first syscall), summed and the largest.
 */
import type { Crank, DeliveryTimes } from '../../model/crank.js';
import { NO_VAT } from '../../model/vats.js';

/** The bringOutYourDead deliveries of one vat. */
export interface GcStats {
  vatID: string;
  vatName?: string;
  /** bringOutYourDead deliveries that got their deliver-result. */
  deliveries: number;
  /** Their GC time, µs, summed over those where it is known. */
  gcMicros: number;
  /** The largest GC time of one delivery, µs (0 when none is known). */
  largestMicros: number;
  /** Deliveries whose GC time is unknown (an unusable worker timestamps list). */
  unknown: number;
}

interface Acc {
  deliveries: number;
  gcMicros: number;
  largestMicros: number;
  unknown: number;
}

export class GcTally {
  private readonly byVat = new Map<string, Acc>();

  /** A selected crank: its bringOutYourDead deliveries, each under its own vat (else the crank's). */
  add(crank: Crank): void {
    const times = crank.deliveryTimes;
    for (let i = 0; i < times.length; i += 1) {
      const d = times[i] as DeliveryTimes;
      if (d.dispatch !== 'bringOutYourDead') continue;
      const vatID = d.vatID ?? crank.vatID ?? NO_VAT;
      let acc = this.byVat.get(vatID);
      if (!acc) {
        acc = { deliveries: 0, gcMicros: 0, largestMicros: 0, unknown: 0 };
        this.byVat.set(vatID, acc);
      }
      acc.deliveries += 1;
      if (d.gcMicros === undefined) acc.unknown += 1;
      else {
        acc.gcMicros += d.gcMicros;
        if (d.gcMicros > acc.largestMicros) acc.largestMicros = d.gcMicros;
      }
    }
  }

  /** One row per vat, in `order`. */
  rows(name: (vatID: string) => string | undefined, order: (a: string, b: string) => number): GcStats[] {
    return [...this.byVat]
      .sort(([a], [b]) => order(a, b))
      .map(([vatID, acc]) => {
        const vatName = vatID === NO_VAT ? undefined : name(vatID);
        return { vatID, ...(vatName === undefined ? {} : { vatName }), ...acc };
      });
  }
}
