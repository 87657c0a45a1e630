/**
 * Which node was slower, over the deliveries both ran: their time (deliver
 * to deliver-result) summed per vat, per vat and method and per block on
 * each side, the deliveries whose times differ most, and the crank time by
 * part (model/parts.ts: page-in, vat, syscall, pipe, snapshot, kernel...)
 * of the cranks both ran, where both sides know the part.
 *
 * Memory: one row per vat, per vat and method and per block (a block's row
 * is three numbers), and the `keep` largest differences.
 */
import { PARTS, partMicros, type PartName } from '../../model/parts.js';
import type { CrankParts } from '../../model/crank.js';
import type { DeliveryDigest } from './crank-digest.js';
import type { Place } from './delivery-match.js';

/** Both sides' sums of one key. */
export interface TimeRow {
  key: string;
  count: number;
  microsA: number;
  microsB: number;
}

/** One delivery both ran, and its time on each side. */
export interface DeliveryPair {
  crankNum: number;
  block: number | undefined;
  vatID: string | undefined;
  deliveryNum: number | undefined;
  what: string;
  microsA: number;
  microsB: number;
}

/** A part's sum over the cranks both ran where both sides know it. */
export interface PartRow {
  part: PartName;
  cranks: number;
  microsA: number;
  microsB: number;
}

class Rows {
  private readonly rows = new Map<string, TimeRow>();

  add(key: string, a: number, b: number): void {
    let row = this.rows.get(key);
    if (row === undefined) {
      row = { key, count: 0, microsA: 0, microsB: 0 };
      this.rows.set(key, row);
    }
    row.count += 1;
    row.microsA += a;
    row.microsB += b;
  }

  /** Every row, the largest difference first. */
  sorted(): TimeRow[] {
    return [...this.rows.values()].sort((x, y) => Math.abs(y.microsA - y.microsB) - Math.abs(x.microsA - x.microsB) || x.key.localeCompare(y.key));
  }
}

export class TimingTally {
  private readonly byVat = new Rows();
  private readonly byMethod = new Rows();
  private readonly byBlock = new Rows();
  private readonly largest: DeliveryPair[] = [];
  private readonly parts = new Map<PartName, PartRow>();
  deliveries = 0;
  microsA = 0;
  microsB = 0;

  constructor(private readonly keep: number) {}

  /** A delivery both sides ran, in cranks `a` and `b` (the same crank number, or not, after a divergence). */
  delivery(a: Place, da: DeliveryDigest, db: DeliveryDigest, vatLabel: string): void {
    this.deliveries += 1;
    this.microsA += da.micros;
    this.microsB += db.micros;
    this.byVat.add(vatLabel, da.micros, db.micros);
    this.byMethod.add(`${vatLabel} ${da.method}`, da.micros, db.micros);
    if (a.block !== undefined) this.byBlock.add(String(a.block), da.micros, db.micros);
    this.keepLargest({ crankNum: a.crankNum, block: a.block, vatID: da.vatID, deliveryNum: da.deliveryNum, what: `${vatLabel}, ${da.method}`, microsA: da.micros, microsB: db.micros });
  }

  /** The parts of a crank both ran (each side's split; a part unknown on either side left out for this crank). */
  crankParts(a: CrankParts | undefined, b: CrankParts | undefined): void {
    if (a === undefined || b === undefined) return;
    for (const spec of PARTS) {
      const x = partMicros(a, spec);
      const y = partMicros(b, spec);
      if (x === undefined || y === undefined) continue;
      let row = this.parts.get(spec.name);
      if (row === undefined) {
        row = { part: spec.name, cranks: 0, microsA: 0, microsB: 0 };
        this.parts.set(spec.name, row);
      }
      row.cranks += 1;
      row.microsA += x;
      row.microsB += y;
    }
  }

  private keepLargest(pair: DeliveryPair): void {
    const diff = (p: DeliveryPair): number => Math.abs(p.microsA - p.microsB);
    const list = this.largest;
    if (list.length >= this.keep && diff(pair) <= diff(list[list.length - 1] as DeliveryPair)) return;
    let at = list.length;
    while (at > 0 && diff(list[at - 1] as DeliveryPair) < diff(pair)) at -= 1;
    list.splice(at, 0, pair);
    if (list.length > this.keep) list.pop();
  }

  result(): TimingResult {
    const parts = PARTS.map((p) => this.parts.get(p.name)).filter((r): r is PartRow => r !== undefined && (r.microsA > 0 || r.microsB > 0));
    return {
      deliveries: this.deliveries,
      microsA: this.microsA,
      microsB: this.microsB,
      byVat: this.byVat.sorted(),
      byMethod: this.byMethod.sorted(),
      byBlock: this.byBlock.sorted(),
      largest: [...this.largest],
      parts,
    };
  }
}

export interface TimingResult {
  /** Deliveries both ran, and their total time on each side. */
  deliveries: number;
  microsA: number;
  microsB: number;
  byVat: TimeRow[];
  byMethod: TimeRow[];
  byBlock: TimeRow[];
  /** The deliveries whose times differ most, the largest first. */
  largest: DeliveryPair[];
  /** Crank time by part, over the cranks both ran (PARTS order; parts that are 0 on both sides left out). */
  parts: PartRow[];
}
