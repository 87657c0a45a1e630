/**
 * `stats`' table of heap snapshots per vat (snapshot-tally.ts): saves and
 * loads, the saves' time in compress, database save and archive write,
 * and the heap's uncompressed size at the first and last save and its
 * growth (the sum of uncompressedSizeDelta). Readable times and sizes.
 */
import type { SlogAggregate, SnapshotStats } from './aggregate.js';
import { left, right, signedSize, size, time, vatName, type StatsTable } from './table-cells.js';

export function snapshotTable(agg: SlogAggregate): StatsTable {
  const rows = agg.snapshotsByVat.map((s) => [
    s.vatID,
    vatName(s.vatID, s.vatName),
    `${s.saves}`,
    `${s.loads}`,
    time(s.compressMicros),
    time(s.dbSaveMicros),
    time(s.archiveWriteMicros),
    size(s.firstUncompressedSize),
    size(s.lastUncompressedSize),
    signedSize(s.uncompressedSizeDelta),
  ]);
  const sum = (f: (s: SnapshotStats) => number): number => agg.snapshotsByVat.reduce((n, s) => n + f(s), 0);
  rows.push([
    'all',
    '',
    `${sum((s) => s.saves)}`,
    `${sum((s) => s.loads)}`,
    time(sum((s) => s.compressMicros)),
    time(sum((s) => s.dbSaveMicros)),
    time(sum((s) => s.archiveWriteMicros)),
    '',
    '',
    signedSize(sum((s) => s.uncompressedSizeDelta)),
  ]);
  return {
    totals: 1,
    title: 'Heap snapshots by vat',
    columns: [
      left('vat'),
      left('name'),
      right('saves'),
      right('loads'),
      right('compress'),
      right('db save'),
      right('archive write'),
      right('first size'),
      right('last size'),
      right('growth'),
    ],
    rows,
    note: 'compress, db save, archive write: the saves\' compressSeconds, dbSaveSeconds, archiveWriteSeconds; sizes uncompressed, at the first and last save; growth: the sum of uncompressedSizeDelta',
  };
}
