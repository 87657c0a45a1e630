/**
 * `stats`' tables of where the crank time went (docs/time-split.md): the
 * parts of all selected cranks, one row each, and the parts per vat, one
 * column each. Readable times (`41.02 s`); `--json` has the exact µs.
 */
import { PARTS, type PartName } from '../../model/parts.js';
import type { CrankPartsStats, PartRow, SlogAggregate } from './aggregate.js';
import { left, pct, right, time, vatName, type StatsTable } from './table-cells.js';

/** The parts in print order: each part inside another (replay, gc) right under it. */
const PRINT_ORDER: readonly PartName[] = PARTS.filter((p) => p.within === undefined).flatMap((p) => [
  p.name,
  ...PARTS.filter((q) => q.within === p.name).map((q) => q.name),
]);

const rowOf = (stats: CrankPartsStats, name: PartName): PartRow => stats.parts.find((r) => r.part === name) as PartRow;

/** What the note under the slog's table says of cranks left out and parts unknown. */
function partsNote(stats: CrankPartsStats): string {
  const notes = ['cranks: where the part is not 0; replay is part of page-in and gc of vat, the other parts add up to all'];
  const unknownIn = rowOf(stats, 'vat').unknownIn;
  if (unknownIn) notes.push(`vat and pipe unknown in ${unknownIn} crank${unknownIn === 1 ? '' : 's'} (a worker's timestamps list unusable): on the unknown row`);
  if (stats.withoutParts) {
    notes.push(`${stats.withoutParts} crank${stats.withoutParts === 1 ? '' : 's'} without crank-start or crank-finish left out`);
  }
  return notes.join('; ');
}

/** "Where the crank time went": one row per part, then all. */
export function partsTable(agg: SlogAggregate): StatsTable {
  const stats = agg.crankParts;
  const rows = PRINT_ORDER.map((name) => {
    const r = rowOf(stats, name);
    const spec = PARTS.find((p) => p.name === name);
    return [r.within === undefined ? name : `  ${name}`, time(r.micros), pct(r.share), `${r.cranks}`, spec?.what ?? ''];
  });
  rows.push(['all', time(stats.totalMicros), pct(stats.totalMicros > 0 ? 1 : 0), `${stats.cranks}`, 'delivery and routing crank time']);
  return {
    totals: 1,
    title: 'Where the crank time went',
    columns: [left('part'), right('time'), right('share'), right('cranks'), left('what')],
    rows,
    note: partsNote(stats),
  };
}

/** A part's column header (the vat part is `vat code`: `vat` heads the vat's ID). */
const header = (name: PartName): string => (name === 'vat' ? 'vat code' : name);

/** "Crank time by vat": each vat's delivery cranks, the routing cranks, all; a column per part that is not 0 throughout. */
export function partsByVatTable(agg: SlogAggregate): StatsTable {
  const all = agg.crankParts;
  const shown = PRINT_ORDER.filter((name) => {
    const r = rowOf(all, name);
    return r.micros !== 0 || r.unknownIn !== 0;
  });
  const row = (vatID: string, name: string, stats: CrankPartsStats): string[] => [
    vatID,
    name,
    `${stats.cranks}`,
    time(stats.totalMicros),
    ...shown.map((part) => time(rowOf(stats, part).micros)),
  ];
  const rows = agg.crankPartsByVat.map((v) => row(v.vatID, vatName(v.vatID, v.vatName), v));
  if (agg.routingCrankParts.cranks) rows.push(row('routing', '', agg.routingCrankParts));
  rows.push(row('all', '', all));
  return {
    totals: 1,
    title: 'Crank time by vat',
    columns: [left('vat'), left('name'), right('cranks'), right('total'), ...shown.map((name) => right(header(name)))],
    rows,
    note: 'each vat\'s delivery cranks, then the routing cranks (all kernel); a part that is 0 in every crank has no column',
  };
}
