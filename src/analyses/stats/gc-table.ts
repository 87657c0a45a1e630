/**
 * `stats`' table of garbage collection per vat (gc-tally.ts): the
 * bringOutYourDead deliveries, their GC time (the worker's time before the
 * first syscall) and the largest. Readable times.
 */
import type { GcStats, SlogAggregate } from './aggregate.js';
import { left, right, time, vatName, type StatsTable } from './table-cells.js';

export function gcTable(agg: SlogAggregate): StatsTable {
  const withUnknown = agg.gcByVat.some((g) => g.unknown > 0);
  const row = (vatID: string, name: string, g: Omit<GcStats, 'vatID' | 'vatName'>): string[] => {
    const cells = [vatID, name, `${g.deliveries}`, time(g.gcMicros), time(g.largestMicros)];
    if (withUnknown) cells.push(`${g.unknown}`);
    return cells;
  };
  const rows = agg.gcByVat.map((g) => row(g.vatID, vatName(g.vatID, g.vatName), g));
  const sum = (f: (g: GcStats) => number): number => agg.gcByVat.reduce((n, g) => n + f(g), 0);
  rows.push(
    row('all', '', {
      deliveries: sum((g) => g.deliveries),
      gcMicros: sum((g) => g.gcMicros),
      largestMicros: agg.gcByVat.reduce((m, g) => Math.max(m, g.largestMicros), 0),
      unknown: sum((g) => g.unknown),
    }),
  );
  const columns = [left('vat'), left('name'), right('bringOutYourDead'), right('GC time'), right('largest')];
  if (withUnknown) columns.push(right('unknown'));
  return {
    totals: 1,
    title: 'Garbage collection by vat',
    columns,
    rows,
    note: 'GC time: a bringOutYourDead delivery\'s time in the worker before its first syscall (a local worker: deliver to first syscall)' +
      (withUnknown ? '; unknown: deliveries whose worker timestamps list is unusable' : ''),
  };
}
