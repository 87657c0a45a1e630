/**
 * A crank's own work in two numbers: its live deliveries (the `deliver`
 * entries that are not transcript replays: a crank can hold more than one, a
 * message then a bringOutYourDead before a heap snapshot) and their
 * computrons (the sum of its live deliver-results' `dr[2].compute`, where
 * the worker reports it; 0 where none does). Read from the crank model's
 * own reads (model/reads.ts): `replay` and `computrons`.
 */
import type { Crank } from '../../model/crank.js';
import type { DeliverResultEntry } from '../../scan/entry-types.js';

export interface CrankFigures {
  deliveries: number;
  computrons: number;
}

export function crankFigures(crank: Crank): CrankFigures {
  let deliveries = 0;
  let computrons = 0;
  for (const item of crank.items) {
    if (item.kind !== 'entry') continue;
    const entry = item.entry;
    if (entry.type === 'deliver') {
      if ((entry as { replay?: unknown }).replay !== true) deliveries += 1;
    } else if (entry.type === 'deliver-result') {
      const result = entry as DeliverResultEntry;
      if (result.replay !== true && typeof result.computrons === 'number') computrons += result.computrons;
    }
  }
  return { deliveries, computrons };
}
