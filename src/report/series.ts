/**
 * The report's time series of one run, in one streaming pass: per bucket
 * (a Bucketing strategy: every N cranks, per round, per chain block), the
 * crank time, computrons, deliveries and syscalls of its cranks, and the
 * last value by the bucket's end of each gauge: every vat's XS heap
 * (`allocate`, the bytes the heap holds, and `currentHeapCount`, its slots
 * in use, from a deliver-result's usage report, dr[2]) and its heap snapshot
 * size (`heap-snapshot-save.uncompressedSize`); and the kernel's heap after
 * the last commit within the bucket
 * (`cosmic-swingset-after-commit-stats.memoryUsage.heapUsed`).
 *
 * Several strategies may be given at once (per block, else every N cranks):
 * whether a slog has blocks is known only once it was read, so each makes
 * its own series (a track) from the same cranks, and the first that applies
 * to the slog is the one shown (`finish`; `finishAll` gives them all, for
 * two runs that must share one).
 *
 * Memory: the buckets go through a Downsampler (a bounded number of points,
 * each with min, max and mean), so it is bounded by the point count times
 * the column count (gauges: one column per vat) times the tracks, never by
 * the slog's size.
 *
 * A strategy whose buckets hold a set number of cranks (every N cranks:
 * `perCrank`) has its sums divided by the bucket's cranks (crank time and
 * its parts by its finished cranks): the last bucket, which may hold fewer,
 * is then as high as the others. Other buckets (a block, a round) keep their
 * sums. The chain's bootstrap block's computrons (the vats' setup, hundreds
 * of times a busy block's) are set aside (`setAside`), not charted.
 *
 * Counts leave replayed entries out (SLOG-FORMAT.md, Replays); crank time is
 * crank-finish minus crank-start of finished cranks (both kinds), in ms; and
 * so is each part of it (`part:vat`, ...: the crank model's split,
 * docs/time-split.md), summed over the cranks that have parts.
 * A bucket without cranks (a block in which none ran) counts 0 of each.
 */
import type { CrankSink } from '../model/assembler.js';
import type { Crank } from '../model/crank.js';
import type { DeliverResultEntry, SlogEntry } from '../scan/entry-types.js';
import { READ_NOTHING, type Reads } from '../scan/reads.js';
import type { BucketKey, Bucketing } from './bucketing.js';
import { Downsampler, type Point } from './downsampler.js';
import { PARTS, partMicros, type PartSpec } from '../model/parts.js';
import { snapshotOf } from '../model/snapshots.js';

/** Points per series at most: enough for a chart as wide as a screen. */
export const MAX_POINTS = 1000;

/**
 * `sum`: added up over a bucket's cranks; `gauge`: the last value seen by the
 * bucket's end (carried over: a vat's heap is what it was at its last
 * delivery); `sample`: the last value seen within the bucket (none: no value,
 * as the kernel's heap of a block that did not commit).
 */
export type ColumnKind = 'sum' | 'gauge' | 'sample';

export interface SeriesColumn {
  /** `crankTime`, `heap:v9`, ... */
  id: string;
  kind: ColumnKind;
  /** The vat of a per-vat gauge. */
  vatID?: string;
}

/**
 * The parts of crank time that add up to it (model/parts.ts: all but those
 * within another), each a column `part:NAME` of ms summed over a bucket's
 * cranks that have parts: the report's stacked chart.
 */
export const STACKED_PARTS: readonly PartSpec[] = PARTS.filter((p) => p.within === undefined);

/** The fixed columns, in this order (indices 0..4, then the parts); per-vat gauges follow as they appear. */
export const FIXED_COLUMNS: readonly SeriesColumn[] = [
  { id: 'cranks', kind: 'sum' },
  { id: 'crankTime', kind: 'sum' },
  { id: 'computrons', kind: 'sum' },
  { id: 'deliveries', kind: 'sum' },
  { id: 'syscalls', kind: 'sum' },
  ...STACKED_PARTS.map((p): SeriesColumn => ({ id: `part:${p.name}`, kind: 'sum' })),
];
const CRANKS = 0;
const CRANK_TIME = 1;
const COMPUTRONS = 2;
const DELIVERIES = 3;
const SYSCALLS = 4;
/** The first part column's index; the others follow in STACKED_PARTS order. */
const PART0 = 5;

export interface SeriesData {
  /** What x counts: `crank`, `round`, `block`. */
  axis: string;
  /** Does the slog have what the strategy cuts by (false: a per-block series of a slog without blocks)? */
  applies: boolean;
  columns: SeriesColumn[];
  /** At most maxPoints; each column's figures in `columns` order. */
  points: Point[];
  /** Buckets made, and how many each point covers (a power of two; the last point may cover fewer). */
  buckets: number;
  bucketsPerPoint: number;
  /** Cranks in no bucket (outside every round or block), or whose bucket came back after another one. */
  leftOut: number;
  /** False when the collector stopped feeding it (another strategy settled before it): its points end early. */
  complete: boolean;
  /** Sums shown per crank (each bucket's sum over its cranks); else per bucket. */
  perCrank: boolean;
  /** Cranks per bucket, when cut every N cranks. */
  cranksPerBucket?: number;
  /** The cranks of the last bucket, when fewer than cranksPerBucket. */
  lastBucketCranks?: number;
  /** A bucket's figure left out of its column (the bootstrap block's computrons): its label and value. */
  setAside?: { column: string; label: string; value: number };
}

interface OpenBucket {
  key: BucketKey;
  /** Undefined until a crank is in it (a bucket an entry opened). */
  firstCrank: number | undefined;
  /** Its finished cranks (with a crank time). */
  timed: number;
  lastCrank: number | undefined;
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

/** One strategy's series. */
class Track {
  readonly sampler: Downsampler;
  open: OpenBucket | undefined;
  lastX = -Infinity;
  leftOut = 0;
  /** Sample columns' last value since this track's last bucket closed. */
  readonly samples = new Map<number, number>();
  /** Stopped: a strategy before it settled (Bucketing.settled). */
  dropped = false;
  /** Cranks of the last bucket closed. */
  lastCranks = 0;
  setAside: SeriesData['setAside'];
  constructor(
    readonly bucketing: Bucketing,
    maxPoints: number,
  ) {
    this.sampler = new Downsampler(maxPoints);
  }
}

/**
 * The first series that applies (to every run, when given several runs'
 * series); else the last that is complete in every run (two runs of very
 * different lengths: the smallest N both still have); else the last: an
 * index into each run's list.
 */
export function chooseSeries(runs: ReadonlyArray<readonly SeriesData[]>): number {
  const count = Math.min(...runs.map((r) => r.length));
  for (let i = 0; i < count; i += 1) if (runs.every((r) => r[i]?.applies)) return i;
  for (let i = count - 1; i >= 0; i -= 1) if (runs.every((r) => r[i]?.complete)) return i;
  return count - 1;
}

export class SeriesCollector implements CrankSink {
  private readonly columns: SeriesColumn[] = FIXED_COLUMNS.map((c) => ({ ...c }));
  private readonly index = new Map<string, number>(FIXED_COLUMNS.map((c, i) => [c.id, i]));
  /** Last value of each gauge column, by column index. */
  private readonly gauges = new Map<number, number>();
  private readonly tracks: Track[];
  /** Each track's bucket of the crank being counted (reused). */
  private readonly buckets: Array<OpenBucket | undefined> = [];
  /** Did any crank report computrons (else buckets without cranks leave the column empty too)? */
  private sawComputrons = false;

  /** One strategy, or several to choose from once the slog was read (the first that applies). */
  constructor(bucketing: Bucketing | readonly Bucketing[], maxPoints = MAX_POINTS) {
    const list = Array.isArray(bucketing) ? (bucketing as readonly Bucketing[]) : [bucketing as Bucketing];
    if (!list.length) throw new RangeError('a series needs a bucketing');
    this.tracks = list.map((b) => new Track(b, maxPoints));
  }

  beginFile(name: string): void {
    for (const track of this.tracks) track.bucketing.beginFile?.(name);
  }

  entry(entry: SlogEntry, line: number): void {
    for (const track of this.tracks) {
      if (track.dropped) continue;
      const key = track.bucketing.entry(entry, line);
      if (key) this.place(track, key);
    }
    this.gaugeSample(entry);
  }

  crank(crank: Crank): void {
    const tracks = this.tracks;
    // Each track's bucket first: a new one closes the one before, with the gauges as they were before this crank.
    const buckets = this.buckets;
    for (let t = 0; t < tracks.length; t += 1) {
      const track = tracks[t] as Track;
      if (track.dropped) {
        buckets[t] = undefined;
        continue;
      }
      const key = track.bucketing.bucketOf(crank);
      buckets[t] = key ? this.place(track, key) : this.leave(track);
    }
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
    if (computrons !== undefined) this.sawComputrons = true;
    const crankTime = crank.finish && Number.isFinite(crank.timing.total) ? crank.timing.total * 1000 : undefined;
    const parts = crank.parts;
    for (let t = 0; t < tracks.length; t += 1) {
      const open = buckets[t];
      if (!open) {
        if (!(tracks[t] as Track).dropped) (tracks[t] as Track).leftOut += 1;
        continue;
      }
      open.lastCrank = crank.crankNum;
      open.firstCrank ??= crank.crankNum;
      if (crankTime !== undefined) open.timed += 1;
      const sums = open.sums;
      sums[CRANKS] = (sums[CRANKS] ?? 0) + 1;
      if (crankTime !== undefined) sums[CRANK_TIME] = (sums[CRANK_TIME] ?? 0) + crankTime;
      if (computrons !== undefined) sums[COMPUTRONS] = (sums[COMPUTRONS] ?? 0) + computrons;
      sums[DELIVERIES] = (sums[DELIVERIES] ?? 0) + deliveries;
      sums[SYSCALLS] = (sums[SYSCALLS] ?? 0) + syscalls;
      if (parts) {
        for (let k = 0; k < STACKED_PARTS.length; k += 1) {
          // An unknown part (vat, pipe) is 0 here: its time is in the unknown part.
          sums[PART0 + k] = (sums[PART0 + k] ?? 0) + (partMicros(parts, STACKED_PARTS[k] as PartSpec) ?? 0) / 1000;
        }
      }
    }
    this.dropSettled();
  }

  /** The strategies after one that settled will not be chosen: stop them. */
  private dropSettled(): void {
    const tracks = this.tracks;
    for (let t = 0; t < tracks.length - 1; t += 1) {
      const track = tracks[t] as Track;
      if (track.dropped || track.bucketing.settled?.() !== true) continue;
      for (let u = t + 1; u < tracks.length; u += 1) {
        const later = tracks[u] as Track;
        if (later.dropped) continue;
        later.dropped = true;
        later.open = undefined;
        later.samples.clear();
      }
      return;
    }
  }

  /** Closes the last buckets and gives the series of the first strategy that applies (else the last): call once the whole slog was read. */
  finish(): SeriesData {
    const all = this.finishAll();
    return all[chooseSeries([all])] as SeriesData;
  }

  /** Closes the last buckets and gives every strategy's series, in the order given: call once (or `finish`). */
  finishAll(): SeriesData[] {
    return this.tracks.map((track) => {
      this.close(track);
      const points = track.sampler.points();
      if (!this.sawComputrons) for (const p of points) if (p.columns[COMPUTRONS]) p.columns[COMPUTRONS] = { min: null, max: null, mean: null };
      const b = track.bucketing;
      const data: SeriesData = {
        axis: b.axis,
        applies: !track.dropped && (b.applies?.() ?? true),
        columns: this.columns.map((c) => ({ ...c })),
        points,
        buckets: track.sampler.buckets,
        bucketsPerPoint: track.sampler.bucketsPerPoint,
        leftOut: track.leftOut,
        complete: !track.dropped,
        perCrank: b.perCrank === true,
      };
      if (b.cranksPerBucket !== undefined) {
        data.cranksPerBucket = b.cranksPerBucket;
        if (track.lastCranks > 0 && track.lastCranks < b.cranksPerBucket) data.lastBucketCranks = track.lastCranks;
      }
      if (track.setAside && this.sawComputrons) data.setAside = track.setAside;
      return data;
    });
  }

  /** The bucket of `key` in `track`, opened if new (the one before closed); undefined when its x is behind (left out). */
  private place(track: Track, key: BucketKey): OpenBucket | undefined {
    const open = track.open;
    if (open && open.key.x === key.x) {
      open.key = key;
      return open;
    }
    if (!(key.x > (open ? open.key.x : track.lastX))) return undefined;
    if (open) this.close(track);
    // What was sampled outside every bucket (before the first) is no bucket's.
    else track.samples.clear();
    const opened: OpenBucket = { key, firstCrank: undefined, timed: 0, lastCrank: undefined, sums: [] };
    track.open = opened;
    return opened;
  }

  /** A crank outside every bucket: it ends the open one. */
  private leave(track: Track): undefined {
    if (track.open) this.close(track);
    return undefined;
  }

  private gaugeSample(entry: SlogEntry): void {
    if (entry.type === 'heap-snapshot-save') {
      const save = snapshotOf(entry);
      if (save?.uncompressedSize !== undefined && save.vatID !== undefined) this.gauges.set(this.gaugeColumn('snapshot', save.vatID), save.uncompressedSize);
    } else if (entry.type === 'cosmic-swingset-after-commit-stats') {
      const memory = entry.memoryUsage;
      const used = memory !== null && typeof memory === 'object' ? finiteNumber((memory as Record<string, unknown>).heapUsed) : undefined;
      if (used !== undefined) {
        const i = this.gaugeColumn('kernelHeap', undefined, 'sample');
        for (const track of this.tracks) track.samples.set(i, used);
      }
    }
  }

  private gaugeColumn(kind: string, vatID?: string, columnKind: ColumnKind = 'gauge'): number {
    const id = vatID === undefined ? kind : `${kind}:${vatID}`;
    let i = this.index.get(id);
    if (i === undefined) {
      i = this.columns.length;
      this.columns.push(vatID === undefined ? { id, kind: columnKind } : { id, kind: columnKind, vatID });
      this.index.set(id, i);
    }
    return i;
  }

  private close(track: Track): void {
    const open = track.open;
    if (!open) return;
    track.open = undefined;
    const values = open.sums;
    if (values[CRANKS] === undefined) {
      // No crank ran in it (a quiet block): nothing of each.
      values[CRANKS] = 0;
      values[CRANK_TIME] = 0;
      values[COMPUTRONS] = 0;
      values[DELIVERIES] = 0;
      values[SYSCALLS] = 0;
    }
    // No crank with parts in it: none of each part.
    for (let k = 0; k < STACKED_PARTS.length; k += 1) values[PART0 + k] ??= 0;
    const cranks = values[CRANKS] as number;
    track.lastCranks = cranks;
    if (track.bucketing.perCrank === true) perCrank(values, cranks, open.timed);
    for (const [i, v] of this.gauges) values[i] = v;
    for (const [i, v] of track.samples) values[i] = v;
    track.samples.clear();
    const first = open.firstCrank;
    const last = open.lastCrank;
    const range = first === undefined ? 'no cranks' : first === last ? `crank ${first}` : `cranks ${first}-${last}`;
    const label = open.key.name === undefined ? range : `${open.key.name}: ${range}`;
    if (open.key.bootstrap && values[COMPUTRONS] !== undefined) {
      track.setAside = { column: 'computrons', label, value: values[COMPUTRONS] };
      values[COMPUTRONS] = undefined;
    }
    track.sampler.add({ x: open.key.x, label, values });
    track.lastX = open.key.x;
  }
}

/** A bucket's sums as per-crank means: crank time and its parts over its finished cranks, the others over all its cranks (the count stays a count). */
function perCrank(values: Array<number | undefined>, cranks: number, timed: number): void {
  for (let i = CRANK_TIME; i < PART0 + STACKED_PARTS.length; i += 1) {
    const v = values[i];
    if (v === undefined) continue;
    const over = i === CRANK_TIME || i >= PART0 ? timed : cranks;
    values[i] = over > 0 ? v / over : undefined;
  }
}
