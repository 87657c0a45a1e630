/**
 * `growth` (SQLite `growth`): one row per vat per period (benchmark round,
 * else chain block) as `slogulate growth` measures them
 * (analyses/growth/growth.ts): its c-list at the period's start and end,
 * by kind at the end, and its heap; plus a row for the kernel (`vatID`
 * null) with its objects, promises and unresolved promises (its own
 * kernel-stats gauges where the slog has them, else counted from the
 * c-lists). A slog without round marks or blocks has no rows.
 */
import { figureKey, splitKey, type Figures, type PeriodRow } from '../../analyses/growth/periods.js';
import { GROWTH_READS } from '../../analyses/growth/growth.js';
import type { ExportContext, TableDef } from '../schema.js';
import { growthFeed } from './growth-feed.js';

export interface GrowthRow {
  unit: string;
  period: string;
  periodIndex: number;
  firstCrank: number | null;
  lastCrank: number | null;
  vatID: string | null;
  vatName: string | null;
  clistStart: number | null;
  clistEnd: number | null;
  importedObjects: number | null;
  exportedObjects: number | null;
  promises: number | null;
  devices: number | null;
  heapCountStart: number | null;
  heapCountEnd: number | null;
  snapshotSizeStart: number | null;
  snapshotSizeEnd: number | null;
  kernelObjects: number | null;
  kernelPromises: number | null;
  kpUnresolved: number | null;
  kernelSource: string | null;
}

/** The vats a period's figures name. */
function vatsOf(figures: Figures): Set<string> {
  const out = new Set<string>();
  for (const key of figures.keys()) {
    const [subject] = splitKey(key);
    if (!subject.startsWith('kernel')) out.add(subject);
  }
  return out;
}

function rowsOf(ctx: ExportContext, unit: string, index: number, row: PeriodRow, start: Figures, end: Figures): GrowthRow[] {
  const at = (figures: Figures, subject: string, figure: string): number | null => figures.get(figureKey(subject, figure)) ?? null;
  const base = { unit, period: row.label, periodIndex: index, firstCrank: row.firstCrank, lastCrank: row.lastCrank };
  const none = { kernelObjects: null, kernelPromises: null, kpUnresolved: null, kernelSource: null };
  const out: GrowthRow[] = [...new Set([...vatsOf(start), ...vatsOf(end)])].map((vatID) => ({
    ...base,
    vatID,
    vatName: ctx.vats.lookup(vatID) ?? null,
    clistStart: at(start, vatID, 'clistEntries'),
    clistEnd: at(end, vatID, 'clistEntries'),
    importedObjects: at(end, vatID, 'importedObjects'),
    exportedObjects: at(end, vatID, 'exportedObjects'),
    promises: at(end, vatID, 'promises'),
    devices: at(end, vatID, 'devices'),
    heapCountStart: at(start, vatID, 'heapCount'),
    heapCountEnd: at(end, vatID, 'heapCount'),
    snapshotSizeStart: at(start, vatID, 'snapshotSize'),
    snapshotSizeEnd: at(end, vatID, 'snapshotSize'),
    ...none,
  }));
  const stats = Object.keys(row.end.kernelStats).length > 0;
  const kernel = stats ? 'kernel-stats' : 'kernel';
  out.push({
    ...base,
    vatID: null,
    vatName: null,
    clistStart: at(start, kernel, 'clistEntries'),
    clistEnd: at(end, kernel, 'clistEntries'),
    importedObjects: null,
    exportedObjects: null,
    promises: null,
    devices: null,
    heapCountStart: null,
    heapCountEnd: null,
    snapshotSizeStart: null,
    snapshotSizeEnd: null,
    kernelObjects: at(end, kernel, 'kernelObjects'),
    kernelPromises: at(end, kernel, 'kernelPromises'),
    kpUnresolved: at(end, kernel, 'kpUnresolved'),
    kernelSource: stats ? 'kernel-stats' : 'c-lists',
  });
  return out;
}

export const growth: TableDef<GrowthRow> = {
  name: 'growth',
  sqliteName: 'vat_growth',
  reads: GROWTH_READS,
  optIn: true,
  doc: 'one row per vat (and one for the kernel) per benchmark round, else chain block: what `slogulate growth` measures (docs/growth.md)',
  columns: [
    { name: 'unit', type: 'VARCHAR', nullable: false, doc: '`round` or `block`' },
    { name: 'period', type: 'VARCHAR', nullable: false, doc: 'the round or block (`"open vault" round 2`, `block 85`)' },
    { name: 'periodIndex', type: 'BIGINT', nullable: false, doc: 'its place among the periods of its unit, from 1' },
    { name: 'firstCrank', type: 'BIGINT', nullable: true, doc: 'its first crank; null: none' },
    { name: 'lastCrank', type: 'BIGINT', nullable: true, doc: 'its last crank; null: none' },
    { name: 'vatID', type: 'VARCHAR', nullable: true, doc: 'the vat; null for the kernel\'s row' },
    { name: 'vatName', type: 'VARCHAR', nullable: true, doc: "the vat's name, if the slog names it" },
    { name: 'clistStart', type: 'BIGINT', nullable: true, doc: "c-list entries alive at the period's start (the kernel's row: in every vat, from kernel-stats where the slog has them)" },
    { name: 'clistEnd', type: 'BIGINT', nullable: true, doc: 'the same at its end' },
    { name: 'importedObjects', type: 'BIGINT', nullable: true, doc: "of clistEnd, imported objects (`o-`); null in the kernel's row" },
    { name: 'exportedObjects', type: 'BIGINT', nullable: true, doc: 'of clistEnd, exported objects (`o+`)' },
    { name: 'promises', type: 'BIGINT', nullable: true, doc: 'of clistEnd, promises' },
    { name: 'devices', type: 'BIGINT', nullable: true, doc: 'of clistEnd, devices' },
    { name: 'heapCountStart', type: 'BIGINT', nullable: true, doc: "the XS worker's currentHeapCount at the start (its last delivery's metering); null: none yet, or a local worker" },
    { name: 'heapCountEnd', type: 'BIGINT', nullable: true, doc: 'the same at the end' },
    { name: 'snapshotSizeStart', type: 'BIGINT', nullable: true, doc: "its last heap snapshot's uncompressedSize at the start, bytes" },
    { name: 'snapshotSizeEnd', type: 'BIGINT', nullable: true, doc: 'the same at the end' },
    { name: 'kernelObjects', type: 'BIGINT', nullable: true, doc: "the kernel's row: kernel objects at the end (kernelSource says from where)" },
    { name: 'kernelPromises', type: 'BIGINT', nullable: true, doc: "the kernel's row: kernel promises at the end" },
    { name: 'kpUnresolved', type: 'BIGINT', nullable: true, doc: "the kernel's row: unresolved promises at the end" },
    { name: 'kernelSource', type: 'VARCHAR', nullable: true, doc: "the kernel's row: `kernel-stats` (its own entries) or `c-lists` (counted from them)" },
  ],
  sqliteIndexes: [['vatID', 'periodIndex']],
  rows(ctx, emit) {
    const indexes = new Map<string, number>();
    const feed = growthFeed(ctx);
    // Rounds and blocks are both followed; the row says which.
    feed.periods.push((row, start, end, unit) => {
      const index = (indexes.get(unit) ?? 0) + 1;
      indexes.set(unit, index);
      for (const r of rowsOf(ctx, unit, index, row, start, end)) emit(r);
    });
    return {
      entry: (entry, line) => feed.entry(entry, line),
      crank: (crank, _deliveries, abandoned) => feed.crank(crank, abandoned),
      end: () => feed.end(),
    };
  },
};
