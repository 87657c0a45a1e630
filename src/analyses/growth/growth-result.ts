/**
 * What `growth` reports (and prints as JSON): per figure its value at the
 * start of the first period and at the end of the last, the change, and
 * the least-squares slope per period; each vat's c-list alive at the end by
 * kind; the promises never resolved, by decider and by method; the figures
 * that grew.
 */
import type { VatNames } from '../../model/vats.js';
import { CLIST_KINDS, type ClistKind } from './clist-kinds.js';
import type { GrowthCollector } from './growth.js';
import { KERNEL_GAUGES } from './kernel-stats.js';
import { figureKey, type PeriodRow, type PeriodUnit } from './periods.js';

/** The version of `growth --json`; changes only with a new number. */
export const GROWTH_JSON_VERSION = 1;

export interface FigureChange {
  figure: string;
  /** At the start of the first period (null: no periods, or the figure appeared later: then its first value at a period's end). */
  start: number | null;
  end: number | null;
  change: number | null;
  /** Least-squares slope per period (null: under two points). */
  perPeriod: number | null;
}

export interface VatGrowth {
  vatID: string;
  name: string | null;
  /** A `terminate` named it; its cleanup completed (its c-list is gone). */
  terminated: boolean;
  cleanedUp: boolean;
  alive: Record<ClistKind, number> & { total: number };
  /** Drops of entries the slog never showed added (made before the slog). */
  droppedUnknown: number;
  figures: FigureChange[];
}

export interface GrowthFlag {
  subject: string;
  name: string | null;
  figure: string;
  start: number;
  end: number;
  change: number;
  perPeriod: number | null;
}

export interface CountBy {
  key: string;
  name: string | null;
  count: number;
}

export interface GrowthResult {
  version: number;
  slog: string;
  cranks: number;
  firstCrank: number | null;
  lastCrank: number | null;
  /** What the periods are (null: none: the slog has no round marks or blocks, and --every was not given). */
  unit: PeriodUnit | null;
  periods: PeriodRow[];
  kernel: {
    /** Where the kernel's objects and promises come from: its own `kernel-stats` entries, or the c-lists. */
    source: 'kernel-stats' | 'c-list model';
    kernelStatsEntries: number;
    /** The kernel's gauges from `kernel-stats` (empty when it has none). */
    kernelStats: FigureChange[];
    /** The same counted from the c-lists: entries, distinct objects and promises held, unresolved promises. */
    model: FigureChange[];
  };
  vats: VatGrowth[];
  growing: GrowthFlag[];
  unresolved: { total: number; byDecider: CountBy[]; byMethod: CountBy[] };
}

const VAT_FIGURES = [...CLIST_KINDS, 'clistEntries', 'heapCount', 'allocate', 'snapshotSize'] as const;
const MODEL_FIGURES = ['clistEntries', 'kernelObjects', 'kernelPromises', 'kpUnresolved'] as const;

/** Vat IDs by number (v2 before v10). */
export function compareVatIDs(a: string, b: string): number {
  const na = Number(a.replace(/^v/, ''));
  const nb = Number(b.replace(/^v/, ''));
  return Number.isFinite(na) && Number.isFinite(nb) && na !== nb ? na - nb : a < b ? -1 : a > b ? 1 : 0;
}

/** The collector's figures and series as the report's. */
export function growthResult(collector: GrowthCollector, slog: string, names: VatNames = collector.vats): GrowthResult {
  const log = collector.log;
  const now = collector.figures();
  const change = (subject: string, figure: string): FigureChange | undefined => {
    const key = figureKey(subject, figure);
    const series = log?.series.get(key);
    const end = now.get(key);
    if (end === undefined && !series) return undefined;
    if (!series || series.first === undefined) return { figure, start: null, end: end ?? null, change: null, perPeriod: null };
    const last = series.last ?? end ?? null;
    return { figure, start: series.first, end: last, change: last === null ? null : last - series.first, perPeriod: series.slope ?? null };
  };
  const present = (c: FigureChange | undefined): c is FigureChange => c !== undefined;
  const vatIDs = new Set([...collector.clists.vats.keys(), ...collector.heaps.byVat.keys()]);
  const vats: VatGrowth[] = [...vatIDs].sort(compareVatIDs).map((vatID) => {
    const vat = collector.clists.vats.get(vatID);
    const counts = vat?.counts ?? { importedObjects: 0, exportedObjects: 0, promises: 0, devices: 0 };
    return {
      vatID,
      name: names.lookup(vatID) ?? null,
      terminated: vat?.terminated ?? false,
      cleanedUp: vat?.cleanedUp ?? false,
      alive: { ...counts, total: vat?.size ?? 0 },
      droppedUnknown: vat?.droppedUnknown ?? 0,
      figures: VAT_FIGURES.map((f) => change(vatID, f)).filter(present),
    };
  });
  const kernelStats = KERNEL_GAUGES.map((g) => change('kernel-stats', g)).filter(present);
  const model = MODEL_FIGURES.map((f) => change('kernel', f)).filter(present);
  const growing: GrowthFlag[] = [];
  const flag = (subject: string, name: string | null, c: FigureChange): void => {
    if (c.start !== null && c.end !== null && c.change !== null && c.change > 0) growing.push({ subject, name, figure: c.figure, start: c.start, end: c.end, change: c.change, perPeriod: c.perPeriod });
  };
  if (log) {
    for (const c of kernelStats.length ? kernelStats : model) flag(kernelStats.length ? 'kernel-stats' : 'kernel', null, c);
    for (const v of vats) for (const c of v.figures) if (c.figure === 'clistEntries' || c.figure === 'heapCount' || c.figure === 'snapshotSize') flag(v.vatID, v.name, c);
  }
  return {
    version: GROWTH_JSON_VERSION,
    slog,
    cranks: collector.cranks,
    firstCrank: collector.firstCrank ?? null,
    lastCrank: collector.lastCrank ?? null,
    unit: log?.unit ?? null,
    periods: log?.rows ?? [],
    kernel: { source: collector.kernelStats.entries > 0 ? 'kernel-stats' : 'c-list model', kernelStatsEntries: collector.kernelStats.entries, kernelStats, model },
    vats,
    growing,
    unresolved: unresolvedCounts(collector, names),
  };
}

/** The promises never resolved, by decider vat and by the method whose result they are. */
function unresolvedCounts(collector: GrowthCollector, names: VatNames): GrowthResult['unresolved'] {
  const byDecider = new Map<string, number>();
  const byMethod = new Map<string, number>();
  for (const [, p] of collector.promises.all()) {
    const decider = p.decider ?? 'the kernel';
    byDecider.set(decider, (byDecider.get(decider) ?? 0) + 1);
    const method = p.method ?? `(no result: ${p.how})`;
    byMethod.set(method, (byMethod.get(method) ?? 0) + 1);
  }
  const sorted = (m: Map<string, number>, named: boolean): CountBy[] =>
    [...m]
      .map(([key, count]) => ({ key, name: named ? (names.lookup(key) ?? null) : null, count }))
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { total: collector.promises.size, byDecider: sorted(byDecider, true), byMethod: sorted(byMethod, false) };
}
