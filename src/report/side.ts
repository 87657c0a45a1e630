/**
 * Everything the report shows of one run (one slog, possibly in several
 * files), collected in one streaming pass: `stats`'s aggregate (or, beside a
 * second run, `compare`'s side data, which holds it), `top`'s rankings, the
 * time series, and where in its file each ranked crank lies (so that its
 * text can be read again: crank-texts.ts); when asked, what grows
 * (analyses/growth/: the c-lists, the kernel's objects and promises, the
 * heaps, per round or block), of every crank whatever the selection, as
 * `slogulate growth` and `compare --growth` count it.
 *
 * Memory: each part is bounded on its own (see aggregate.ts, top.ts,
 * series.ts); the places of ranked cranks are kept in a WeakMap on their
 * ranking rows, so a crank pushed out of every ranking takes its place with it.
 */
import type { Annotations } from '../model/annotations.js';
import type { ExecutionSink } from '../model/executions.js';
import type { Crank } from '../model/crank.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { mergeReads, type Reads } from '../scan/reads.js';
import type { VatNames } from '../model/vats.js';
import { AGGREGATE_READS, SlogAggregator, type SlogAggregate } from '../analyses/stats/aggregate.js';
import { CompareSide, type SideData } from '../analyses/compare/compare-side.js';
import type { Rounds } from '../analyses/common/rounds.js';
import { CrankSelection, isSelecting, type SelectionSpec } from '../analyses/common/selection.js';
import { TOP_READS, TopCollector, type RankedCrank, type TopResult } from '../analyses/top/top.js';
import { GROWTH_READS, GrowthCollector } from '../analyses/growth/growth.js';
import { growthResult, type GrowthResult } from '../analyses/growth/growth-result.js';
import type { Bucketing } from './bucketing.js';
import type { CrankPlace } from './crank-texts.js';
import { chooseSeries, SERIES_READS, SeriesCollector, type SeriesData } from './series.js';

/** What one run of the report reads: the aggregate's (compare's too), top's and the series' fields. */
export const REPORT_READS: Reads = mergeReads(mergeReads(AGGREGATE_READS, TOP_READS), SERIES_READS);

/** The same, and what growth reads (a run read with `growth`). */
export const REPORT_GROWTH_READS: Reads = mergeReads(REPORT_READS, GROWTH_READS);

export interface ReportSideConfig {
  /** The slog's files, read in this order as one slog. */
  files: string[];
  annotations: Annotations;
  /** How the series cut the run; several: the first that applies to the slog (per block, else every N cranks). */
  bucketing: Bucketing | readonly Bucketing[];
  /** Cranks per top ranking. */
  topN: number;
  maxPoints?: number;
  /** Collect what `compare` needs (beside another run), per round when `rounds` is given. */
  compare?: { rounds?: Rounds };
  /** Only these cranks in the figures, rankings and charts (the aggregate still counts every crank seen and the slog's span). */
  selection?: SelectionSpec;
  /** Follow growth too (the pass must read REPORT_GROWTH_READS). */
  growth?: boolean;
}

export interface SideCollected {
  files: string[];
  aggregate: SlogAggregate;
  top: TopResult;
  /** The series shown: the first of `seriesAll` that applies. */
  series: SeriesData;
  /** Every bucketing's series, in the order given (two runs choose one they share: chooseSeries). */
  seriesAll: SeriesData[];
  /** Where each ranked crank lies. */
  places: Map<RankedCrank, CrankPlace>;
  /** The vat names learned (annotations first). */
  vats: VatNames;
  /** With `compare`: the compare side's data (with `growth`, its `growth` too: the `growth.*` thresholds read it). */
  compareData?: SideData;
  /** With `growth`: what `slogulate growth` reports of the run. */
  growth?: GrowthResult;
}

export class ReportSide implements ExecutionSink {
  private readonly top: TopCollector;
  private readonly series: SeriesCollector;
  private readonly aggregator: SlogAggregator | undefined;
  private readonly compareSide: CompareSide | undefined;
  private readonly statsSink: ExecutionSink;
  /** Sees every entry and crank, before the selection (a c-list is the sum of all that came before). */
  private readonly growth: GrowthCollector | undefined;
  private readonly placeOf = new WeakMap<RankedCrank, CrankPlace>();
  /** The charts' cranks (undefined: every crank); names from the rankings' vat names, which see every entry. */
  private readonly selection: CrankSelection | undefined;

  constructor(private readonly config: ReportSideConfig) {
    const vatNames = config.annotations.vatNames;
    const selecting = config.selection !== undefined && isSelecting(config.selection);
    this.top = new TopCollector({
      n: config.topN,
      annotations: config.annotations,
      ...(selecting ? { selection: config.selection } : {}),
      onRanked: (row, crank) =>
        this.placeOf.set(row, { file: crank.source, firstLine: crank.firstLine, lastLine: crank.lastLine, again: crank.again, opening: crank.opening }),
    });
    this.series = new SeriesCollector(config.bucketing, config.maxPoints);
    this.selection = selecting ? new CrankSelection(config.selection as SelectionSpec, this.top.vats) : undefined;
    if (config.compare) {
      this.compareSide = new CompareSide({
        slog: config.files.join(' '),
        vatNames,
        ...(config.compare.rounds ? { rounds: config.compare.rounds } : {}),
        ...(selecting ? { selection: config.selection } : {}),
        marksInSlog: true,
      });
      this.statsSink = this.compareSide.sink;
    } else {
      this.aggregator = new SlogAggregator({ vatNames, ...(selecting ? { selection: config.selection } : {}) });
      this.statsSink = this.aggregator;
    }
    // As compare's side follows it (compare-side.ts): misplaced round marks are --round-marks' to refuse, growth skips them.
    this.growth = config.growth ? new GrowthCollector({ slogName: config.files.join(' '), vatNames, skipBadMarks: true }) : undefined;
  }

  /** Call before reading each file. */
  beginFile(file: string): void {
    this.series.beginFile(file);
  }

  entry(entry: SlogEntry, line: number): void {
    this.growth?.entry(entry, line);
    this.statsSink.entry(entry, line);
    this.top.entry(entry);
    this.series.entry(entry, line);
  }

  /** An execution a restart abandoned: counted apart by the aggregate, not in the series or rankings. */
  abandoned(crank: Crank): void {
    this.growth?.abandoned(crank);
    this.statsSink.abandoned?.(crank);
  }

  crank(crank: Crank): void {
    this.growth?.crank(crank);
    this.statsSink.crank(crank);
    this.top.crank(crank);
    if (this.selection === undefined || this.selection.matches(crank)) this.series.crank(crank);
  }

  /** The open crank spills its syscalls (model/assembler.ts): the series counts them from the crank's timing. */
  spill(crank: Crank): void {
    this.growth?.spill(crank);
    this.statsSink.spill?.(crank);
    this.top.spill(crank);
  }

  /** Call once, after the last file. */
  result(): SideCollected {
    const top = this.top.result();
    const places = new Map<RankedCrank, CrankPlace>();
    for (const ranking of top.rankings) {
      for (const row of ranking.cranks) {
        const place = this.placeOf.get(row);
        if (place) places.set(row, place);
      }
    }
    const compareData = this.compareSide?.result();
    const aggregate = compareData ? compareData.aggregate : (this.aggregator as SlogAggregator).result();
    const seriesAll = this.series.finishAll();
    const series = seriesAll[chooseSeries([seriesAll])] as SeriesData;
    const out: SideCollected = { files: this.config.files, aggregate, top, series, seriesAll, places, vats: this.top.vats };
    if (this.growth) {
      // The open round or block ends with the slog.
      this.growth.end();
      // Named as the rankings name vats (annotations first, then what the slog says).
      out.growth = growthResult(this.growth, this.config.files.join(' '), this.top.vats);
      if (compareData) compareData.growth = out.growth;
    }
    if (compareData) out.compareData = compareData;
    return out;
  }
}
