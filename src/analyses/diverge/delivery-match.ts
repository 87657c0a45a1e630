/**
 * Deliveries matched by (vatID, deliveryNum) across the two sides: the
 * computrons of each pair compared (metering is in consensus: a mismatch is
 * a divergence even where the hashes agree, as Agoric's `compute_mismatch`
 * view finds them), and the deliveries one side ran and the other did not.
 *
 * A delivery of a crank both sides ran is matched within the crank first;
 * one left over (and every delivery of a crank in the compared range that
 * only one side has) waits for its twin in a map of at most MAX_WAITING per
 * side: past that the oldest is given up as one side's only. At the end
 * those still waiting are one side's only.
 */
import type { CrankDigest, DeliveryDigest } from './crank-digest.js';

/** How many waiting deliveries a side keeps; how many of each list the result keeps. */
const MAX_WAITING = 50_000;
const MAX_LISTED = 20;

export interface DeliveryRef {
  crankNum: number;
  block: number | undefined;
  vatID: string | undefined;
  deliveryNum: number | undefined;
  method: string;
}

export interface ComputronMismatch extends DeliveryRef {
  computronsA: number;
  computronsB: number;
}

export interface DeliveryMatchResult {
  /** Pairs whose computrons both sides report. */
  computronsCompared: number;
  /** Pairs where only one side reports computrons (an XS worker against a local one). */
  computronsOneSide: number;
  mismatches: number;
  /** The first MAX_LISTED mismatches. */
  mismatchList: ComputronMismatch[];
  onlyA: number;
  onlyB: number;
  /** The first MAX_LISTED of each. */
  onlyAList: DeliveryRef[];
  onlyBList: DeliveryRef[];
}

/** Where a delivery ran: what is kept of its crank while it waits (not the crank's entries). */
export interface Place {
  crankNum: number;
  block: number | undefined;
}

interface Waiting {
  crank: Place;
  d: DeliveryDigest;
}

const keyOf = (d: DeliveryDigest): string | undefined => (d.vatID === undefined || d.deliveryNum === undefined ? undefined : `${d.vatID}#${d.deliveryNum}`);

const refOf = (crank: Place, d: DeliveryDigest): DeliveryRef => ({ crankNum: crank.crankNum, block: crank.block, vatID: d.vatID, deliveryNum: d.deliveryNum, method: d.method });

export class DeliveryMatcher {
  private readonly waiting: [Map<string, Waiting>, Map<string, Waiting>] = [new Map(), new Map()];
  private readonly r: DeliveryMatchResult = {
    computronsCompared: 0,
    computronsOneSide: 0,
    mismatches: 0,
    mismatchList: [],
    onlyA: 0,
    onlyB: 0,
    onlyAList: [],
    onlyBList: [],
  };

  /** `onPair` is told of each delivery both ran (for the timing). */
  constructor(private readonly onPair: (a: Place, da: DeliveryDigest, db: DeliveryDigest) => void) {}

  /** The deliveries of a crank both sides ran; `whole`: both sides have all of it (else a delivery left over is not one side's only). */
  pair(a: CrankDigest, b: CrankDigest, whole: boolean): void {
    const rest = [...b.deliveries];
    for (const da of a.deliveries) {
      const k = keyOf(da);
      const at = k === undefined ? rest.findIndex((db) => keyOf(db) === undefined) : rest.findIndex((db) => keyOf(db) === k);
      if (at < 0) {
        if (whole) this.wait(0, a, da);
        continue;
      }
      const db = rest.splice(at, 1)[0] as DeliveryDigest;
      this.matched(a, da, db);
    }
    if (whole) for (const db of rest) this.wait(1, b, db);
  }

  /** The deliveries of a crank of the compared range that one side has and the other does not. */
  alone(side: 0 | 1, crank: CrankDigest): void {
    for (const d of crank.deliveries) this.wait(side, crank, d);
  }

  private wait(side: 0 | 1, crank: Place, d: DeliveryDigest): void {
    const k = keyOf(d);
    if (k === undefined) {
      this.only(side, crank, d);
      return;
    }
    const twin = this.waiting[1 - side]?.get(k);
    if (twin !== undefined) {
      this.waiting[1 - side]?.delete(k);
      if (side === 0) this.matched(crank, d, twin.d);
      else this.matched(twin.crank, twin.d, d);
      return;
    }
    const mine = this.waiting[side] as Map<string, Waiting>;
    mine.set(k, { crank: { crankNum: crank.crankNum, block: crank.block }, d });
    if (mine.size > MAX_WAITING) {
      const [oldest, w] = mine.entries().next().value as [string, Waiting];
      mine.delete(oldest);
      this.only(side, w.crank, w.d);
    }
  }

  private matched(a: Place, da: DeliveryDigest, db: DeliveryDigest): void {
    this.onPair(a, da, db);
    const x = da.computrons;
    const y = db.computrons;
    if (x === undefined && y === undefined) return;
    if (x === undefined || y === undefined) {
      this.r.computronsOneSide += 1;
      return;
    }
    this.r.computronsCompared += 1;
    if (x === y) return;
    this.r.mismatches += 1;
    if (this.r.mismatchList.length < MAX_LISTED) this.r.mismatchList.push({ ...refOf(a, da), computronsA: x, computronsB: y });
  }

  private only(side: 0 | 1, crank: Place, d: DeliveryDigest): void {
    if (side === 0) {
      this.r.onlyA += 1;
      if (this.r.onlyAList.length < MAX_LISTED) this.r.onlyAList.push(refOf(crank, d));
    } else {
      this.r.onlyB += 1;
      if (this.r.onlyBList.length < MAX_LISTED) this.r.onlyBList.push(refOf(crank, d));
    }
  }

  /** Every delivery still waiting is one side's only. */
  result(): DeliveryMatchResult {
    for (const side of [0, 1] as const) {
      const mine = this.waiting[side];
      for (const w of mine.values()) this.only(side, w.crank, w.d);
      mine.clear();
    }
    const byCrank = (x: DeliveryRef, y: DeliveryRef): number => x.crankNum - y.crankNum;
    this.r.onlyAList.sort(byCrank);
    this.r.onlyBList.sort(byCrank);
    return this.r;
  }
}
