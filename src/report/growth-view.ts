/**
 * The report's section on what grows (`report --growth`, or a `--fail-on
 * growth.*`): for each run, what `slogulate growth` prints of it (what grew,
 * in the benchmark report's shape; the kernel's figures, from its own
 * kernel-stats where the slog has them, else counted from the c-lists, with
 * their change and slope per round or block, as `stats --growth` prints
 * them; the c-lists by vat, the heaps, the promises never resolved, the
 * kernel by period), and one chart of the kernel's figures at the end of
 * each round or block.
 *
 * The chart has its own x axis (the rounds or blocks growth measures over,
 * whatever the other charts' buckets are), so it is not zoomed with them.
 */
import type { GrowthResult } from '../analyses/growth/growth-result.js';
import { flagText, growthTables, perName, periodsText } from '../analyses/growth/growth-text.js';
import type { PeriodRow } from '../analyses/growth/periods.js';
import { Downsampler, type Point } from './downsampler.js';
import { MAX_POINTS } from './series.js';
import type { ChartSeries, ChartView, ReportTable } from './views.js';

export interface GrowthView {
  /** What the figures are measured over: `170 blocks (block 1 to block 170)`, or that the run has no periods. */
  periods: string;
  /** The run has rounds or blocks (else only what is alive at the end: no change, no slope). */
  hasPeriods: boolean;
  /** A period's name: `block`, `round`, `group of cranks`. */
  per: string;
  /** What grew, in the benchmark report's shape (`clistEntries 2924 -> 3081, +157, +52.3 per round`); empty: nothing. */
  growing: string[];
  /** `growth`'s tables, in its order. */
  tables: ReportTable[];
}

/** The kernel's figures the chart draws, in `growth`'s order. */
const FIGURES = ['clistEntries', 'kernelObjects', 'kernelPromises', 'kpUnresolved'] as const;

/** One run's growth as the page shows it; table ids start with `role`. */
export function growthView(result: GrowthResult, role: string): GrowthView {
  const per = perName(result);
  return {
    periods: periodsText(result),
    hasPeriods: result.unit !== null && result.periods.length > 0,
    per,
    growing: result.growing.map((f) => flagText(f, per)),
    tables: growthTables(result).map(({ id, table }) => ({ ...table, id: `${role}-growth-${id}`, footer: 0 })),
  };
}

/** Where the kernel's figures of a run come from: its own kernel-stats where it has them, else the c-lists (as `growth`'s flags and `compare`'s rows). */
const sourceOf = (result: GrowthResult): 'kernelStats' | 'kernel' => (result.kernel.kernelStats.length ? 'kernelStats' : 'kernel');

/** A period's place on the chart's x axis: a block's height, a round's number, a group's first crank. */
function periodX(result: GrowthResult, row: PeriodRow, i: number): number {
  if (result.unit === 'block') return Number(/^block (\d+)$/.exec(row.label)?.[1] ?? NaN);
  if (result.unit === 'cranks') return row.firstCrank ?? NaN;
  return i + 1;
}

/** Each run's x values, or undefined when some run's do not grow (then periods are counted: 1, 2, ...). */
function xsOf(results: readonly GrowthResult[]): number[][] | undefined {
  const all = results.map((r) => r.periods.map((row, i) => periodX(r, row, i)));
  const growing = all.every((xs) => xs.every((x, i) => Number.isFinite(x) && (i === 0 || x > (xs[i - 1] as number))));
  return growing ? all : undefined;
}

const AXIS: Record<string, string> = { block: 'block', round: 'benchmark round', cranks: 'first crank of each group of cranks' };

/**
 * The chart of the kernel's figures at the end of each period, one line
 * per figure (and per run, the base dashed); undefined when no run has
 * periods. Over MAX_POINTS periods, neighbours are merged (the mean drawn,
 * the minimum to maximum as a band), as the other charts' buckets are.
 */
export function growthChart(sides: ReadonlyArray<{ role: string; growth: GrowthResult | undefined }>): ChartView | undefined {
  const runs = sides.map((s, side) => ({ ...s, side })).filter((s): s is { role: string; growth: GrowthResult; side: number } => s.growth !== undefined && s.growth.unit !== null && s.growth.periods.length > 0);
  if (runs.length === 0) return undefined;
  const units = new Set(runs.map((r) => r.growth.unit));
  const xs = units.size === 1 ? xsOf(runs.map((r) => r.growth)) : undefined;
  const unit = units.size === 1 ? (runs[0] as (typeof runs)[number]).growth.unit ?? 'period' : 'period';
  const points = runs.map((run, k) => {
    const sampler = new Downsampler(MAX_POINTS);
    const source = sourceOf(run.growth);
    run.growth.periods.forEach((row, i) => {
      sampler.add({ x: xs ? (xs[k]?.[i] as number) : i + 1, label: row.label, values: FIGURES.map((f) => row.end[source][f]) });
    });
    return { run, points: sampler.points(), merged: sampler.bucketsPerPoint > 1 };
  });
  const allX = [...new Set(points.flatMap((p) => p.points.map((q) => q.x)))].sort((a, b) => a - b);
  const labelOf = new Map<number, string>();
  for (const p of points) for (const q of p.points) if (!labelOf.has(q.x)) labelOf.set(q.x, q.from === q.to ? q.from : `${q.from} ... ${q.to}`);
  const compare = sides.length > 1;
  const series: ChartSeries[] = [];
  FIGURES.forEach((figure, f) => {
    for (const { run, points: pts, merged } of points) {
      const byX = new Map<number, Point>(pts.map((q) => [q.x, q]));
      const pick = (which: 'mean' | 'min' | 'max'): Array<number | null> => allX.map((x) => byX.get(x)?.columns[f]?.[which] ?? null);
      const mean = pick('mean');
      if (mean.every((v) => v === null)) continue;
      series.push({ label: compare ? `${run.role} ${figure}` : figure, side: run.side, key: figure, mean, ...(merged ? { min: pick('min'), max: pick('max') } : {}) });
    }
  });
  const from = (r: GrowthResult): string => (r.kernel.source === 'kernel-stats' ? "from the kernel's own kernel-stats entries" : 'counted from the c-lists (no kernel-stats entries)');
  const source = compare ? runs.map((r) => `${r.role}: ${from(r.growth)}`).join('; ') : from((runs[0] as (typeof runs)[number]).growth);
  const per = unit === 'cranks' ? 'group of cranks' : unit;
  return {
    id: 'growth',
    title: `The kernel's c-list entries, objects and promises at the end of each ${per}`,
    unit: 'count',
    axis: xs ? (AXIS[unit] ?? unit) : 'period',
    note: `${source.charAt(0).toUpperCase()}${source.slice(1)}. Each vat's c-list and heap: the tables below, and slogulate growth.`,
    x: allX,
    labels: allX.map((x) => labelOf.get(x) ?? String(x)),
    series,
  };
}
