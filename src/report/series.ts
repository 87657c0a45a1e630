/**
 * The report's time series of one run, in one streaming pass: per bucket
 * (a Bucketing strategy: every N cranks, per round, later per block), the
 * crank time, computrons, deliveries and syscalls of its cranks, and the
 * last value by the bucket's end of each gauge: every vat's XS heap
 * (`allocate`, the bytes the heap holds, and `currentHeapCount`, its slots
 * in use, from a deliver-result's usage report, dr[2]), its heap snapshot
 * size (`heap-snapshot-save.uncompressedSize`), and the kernel's heap after
 * a block's commit (`cosmic-swingset-after-commit-stats.memoryUsage.heapUsed`).
 *
 * Memory: the buckets go through a Downsampler (a bounded number of points,
 * each with min, max and mean), so it is bounded by the point count times
 * the column count (gauges: one column per vat), never by the slog's size.
 *
 * Counts leave replayed entries out (SLOG-FORMAT.md, Replays); crank time is
 * crank-finish minus crank-start of finished cranks (both kinds), in ms.
 */
import type { CrankSink } from '../model/assembler.js';
import type { Crank } from '../model/crank.js';
import type { DeliverResultEntry, SlogEntry } from '../scan/entry-types.js';
import { READ_NOTHING, type Reads } from '../scan/reads.js';
import type { BucketKey, Bucketing } from './bucketing.js';
import { Downsampler, type Point } from './downsampler.js';

/** Points per series at most: enough for a chart as wide as a screen. */
export const MAX_POINTS = 1000;

/** `sum`: added up over a bucket's cranks; `gauge`: the last value seen by the bucket's end (carried over). */
export type ColumnKind = 'sum' | 'gauge';

export interface SeriesColumn {
  /** `crankTime`, `heap:v9`, ... */
  id: string;
  kind: ColumnKind;
  /** The vat of a per-vat gauge. */
  vatID?: string;
}

/** The fixed columns, in this order (indices 0..4); per-vat gauges follow as they appear. */
export const FIXED_COLUMNS: readonly SeriesColumn[] = [
  { id: 'cranks', kind: 'sum' },
  { id: 'crankTime', kind: 'sum' },
  { id: 'computrons', kind: 'sum' },
  { id: 'deliveries', kind: 'sum' },
  { id: 'syscalls', kind: 'sum' },
];
const CRANKS = 0;
const CRANK_TIME = 1;
const COMPUTRONS = 2;
const DELIVERIES = 3;
const SYSCALLS = 4;

export interface SeriesData {
  /** What x counts: `crank`, `round`, `block`. */
  axis: string;
  columns: SeriesColumn[];
  /** At most maxPoints; each column's figures in `columns` order. */
  points: Point[];
  /** Buckets made, and how many each point covers (a power of two; the last point may cover fewer). */
  buckets: number;
  bucketsPerPoint: number;
  /** Cranks in no bucket (outside every round), or whose bucket came back after another one. */
  leftOut: number;
}

interface OpenBucket {
  key: BucketKey;
  firstCrank: number;
  lastCrank: number;
  /** Sums by column index (undefined: nothing added, e.g. no computrons). */
  sums: Array<number | undefined>;
}

function usageOf(entry: DeliverResultEntry): Record<string, unknown> | undefined {
  const usage = Array.isArray(entry.dr) ? entry.dr[2] : undefined;
  return usage !== null && typeof usage === 'object' ? (usage as Record<string, unknown>) : undefined;
}

const finiteNumber = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** What the series read of crank entries: deliveries and their usage reports (computrons, heap), which vat. */
export const SERIES_READS: Reads = {
  ...READ_NOTHING,
  deliver: ['replay'],
  'deliver-result': ['vatID', 'replay', 'dr'],
};

export class SeriesCollector implements CrankSink {
  private readonly columns: SeriesColumn[] = FIXED_COLUMNS.map((c) => ({ ...c }));
  private readonly index = new Map<string, number>(FIXED_COLUMNS.map((c, i) => [c.id, i]));
  /** Last value of each gauge column, by column index. */
  private readonly gauges = new Map<number, number>();
  private readonly sampler: Downsampler;
  private open: OpenBucket | undefined;
  private lastX = -Infinity;
  private leftOut = 0;

  constructor(
    private readonly bucketing: Bucketing,
    maxPoints = MAX_POINTS,
  ) {
    this.sampler = new Downsampler(maxPoints);
  }

  beginFile(name: string): void {
    this.bucketing.beginFile?.(name);
  }

  entry(entry: SlogEntry, line: number): void {
    this.bucketing.entry(entry, line);
    this.gaugeSample(entry);
  }

  crank(crank: Crank): void {
    const key = this.bucketing.bucketOf(crank);
    if (this.open && this.open.key !== key) this.close();
    // Gauges count wherever the crank lies: a vat's heap is what it is.
    let deliveries = 0;
    // Live syscalls: the crank model counts them (a crank that spilled no longer holds them all).
    const syscalls = crank.timing.syscallCount;
    let computrons: number | undefined;
    for (const item of crank.items) {
      if (item.kind === 'syscall') continue;
      const entry = item.entry;
      if (entry.type === 'deliver') {
        if ((entry as { replay?: boolean }).replay !== true) deliveries += 1;
      } else if (entry.type === 'deliver-result') {
        const result = entry as DeliverResultEntry;
        if (result.replay === true) continue;
        const usage = usageOf(result);
        if (!usage) continue;
        const compute = finiteNumber(usage.compute);
        if (compute !== undefined) computrons = (computrons ?? 0) + compute;
        const vatID = result.vatID ?? crank.vatID;
        if (vatID === undefined) continue;
        const allocate = finiteNumber(usage.allocate);
        if (allocate !== undefined) this.gauges.set(this.gaugeColumn('heap', vatID), allocate);
        const slots = finiteNumber(usage.currentHeapCount);
        if (slots !== undefined) this.gauges.set(this.gaugeColumn('heapCount', vatID), slots);
      } else {
        this.gaugeSample(entry);
      }
    }
    if (!key) {
      this.leftOut += 1;
      return;
    }
    if (!this.open) {
      if (!(key.x > this.lastX)) {
        this.leftOut += 1;
        return;
      }
      this.open = { key, firstCrank: crank.crankNum, lastCrank: crank.crankNum, sums: [] };
    }
    const open = this.open;
    open.lastCrank = crank.crankNum;
    const sums = open.sums;
    sums[CRANKS] = (sums[CRANKS] ?? 0) + 1;
    if (crank.finish && Number.isFinite(crank.timing.total)) sums[CRANK_TIME] = (sums[CRANK_TIME] ?? 0) + crank.timing.total * 1000;
    if (computrons !== undefined) sums[COMPUTRONS] = (sums[COMPUTRONS] ?? 0) + computrons;
    sums[DELIVERIES] = (sums[DELIVERIES] ?? 0) + deliveries;
    sums[SYSCALLS] = (sums[SYSCALLS] ?? 0) + syscalls;
  }

  /** Closes the last bucket: call once the whole slog was read. */
  finish(): SeriesData {
    this.close();
    return {
      axis: this.bucketing.axis,
      columns: this.columns.map((c) => ({ ...c })),
      points: this.sampler.points(),
      buckets: this.sampler.buckets,
      bucketsPerPoint: this.sampler.bucketsPerPoint,
      leftOut: this.leftOut,
    };
  }

  private gaugeSample(entry: SlogEntry): void {
    if (entry.type === 'heap-snapshot-save') {
      const size = finiteNumber(entry.uncompressedSize);
      if (size !== undefined && typeof entry.vatID === 'string') this.gauges.set(this.gaugeColumn('snapshot', entry.vatID), size);
    } else if (entry.type === 'cosmic-swingset-after-commit-stats') {
      const memory = entry.memoryUsage;
      const used = memory !== null && typeof memory === 'object' ? finiteNumber((memory as Record<string, unknown>).heapUsed) : undefined;
      if (used !== undefined) this.gauges.set(this.gaugeColumn('kernelHeap'), used);
    }
  }

  private gaugeColumn(kind: string, vatID?: string): number {
    const id = vatID === undefined ? kind : `${kind}:${vatID}`;
    let i = this.index.get(id);
    if (i === undefined) {
      i = this.columns.length;
      this.columns.push(vatID === undefined ? { id, kind: 'gauge' } : { id, kind: 'gauge', vatID });
      this.index.set(id, i);
    }
    return i;
  }

  private close(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    const values = open.sums;
    for (const [i, v] of this.gauges) values[i] = v;
    const range = open.firstCrank === open.lastCrank ? `crank ${open.firstCrank}` : `cranks ${open.firstCrank}-${open.lastCrank}`;
    const label = open.key.name === undefined ? range : `${open.key.name}: ${range}`;
    this.sampler.add({ x: open.key.x, label, values });
    this.lastX = open.key.x;
  }
}
