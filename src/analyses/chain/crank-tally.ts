/**
 * A block's, a run's or a group's cranks counted as they come (blocks.ts, runs.ts, crank-groups.ts):
 * how many, their live deliveries and computrons (crank-figures.ts), the
 * first and last crank number, and where their time went (the crank
 * model's parts summed: PartsTally, part-figures.ts).
 */
import type { Crank } from '../../model/crank.js';
import { crankFigures } from '../common/crank-figures.js';
import { PartsTally } from '../common/parts-tally.js';

export class CrankTally {
  cranks = 0;
  deliveries = 0;
  computrons = 0;
  firstCrank: number | null = null;
  lastCrank: number | null = null;
  /** The cranks' parts, summed. */
  readonly parts = new PartsTally();

  add(crank: Crank): void {
    const { deliveries, computrons } = crankFigures(crank);
    this.cranks += 1;
    this.deliveries += deliveries;
    this.computrons += computrons;
    this.parts.add(crank.parts);
    if (Number.isFinite(crank.crankNum)) {
      this.firstCrank ??= crank.crankNum;
      this.lastCrank = crank.crankNum;
    }
  }
}
