/**
 * A block's, a run's or a group's cranks counted as they come (blocks.ts, runs.ts, crank-groups.ts):
 * how many, their live deliveries and computrons (crank-figures.ts), the
 * first and last crank number.
 */
import type { Crank } from '../../model/crank.js';
import { crankFigures } from '../common/crank-figures.js';

export class CrankTally {
  cranks = 0;
  deliveries = 0;
  computrons = 0;
  firstCrank: number | null = null;
  lastCrank: number | null = null;

  add(crank: Crank): void {
    const { deliveries, computrons } = crankFigures(crank);
    this.cranks += 1;
    this.deliveries += deliveries;
    this.computrons += computrons;
    if (Number.isFinite(crank.crankNum)) {
      this.firstCrank ??= crank.crankNum;
      this.lastCrank = crank.crankNum;
    }
  }
}
