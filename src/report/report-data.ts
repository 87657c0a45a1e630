/**
 * What the report's page shows, as one JSON document (inlined in the HTML,
 * read by page-script.ts): for each run a summary, its top cranks with
 * their text, the `stats` tables; the charts (both runs on the same axes
 * beside each other); and, for two runs, the `compare` tables and
 * thresholds. Tables are `stats`' and `compare`'s own (table.ts), as text
 * cells.
 */
import { NO_VAT, type SlogAggregate } from '../analyses/stats/aggregate.js';
import { sectionTables, thresholdTable, verdict } from '../analyses/compare/compare-report.js';
import type { Comparison } from '../analyses/compare/compare.js';
import { statsTables } from '../analyses/stats/stats.js';
import type { Table } from '../analyses/common/table.js';
import type { ChartSeries, ChartUnit, ChartView, ReportTable } from './views.js';
import type { ThresholdResult } from '../analyses/compare/thresholds.js';
import type { RankedCrank, TopKey } from '../analyses/top/top.js';
import type { VatNames } from '../model/vats.js';
import type { Point } from './downsampler.js';
import { STACKED_PARTS, type SeriesData } from './series.js';
import type { GrowthResult } from '../analyses/growth/growth-result.js';
import { growthChart, growthView, type GrowthView } from './growth-view.js';

export type { ChartSeries, ChartUnit, ChartView, ReportTable };

export const REPORT_FORMAT = 'slogulate-report';
export const REPORT_VERSION = 1;

export interface TopRow extends RankedCrank {
  /** Key of the crank's text in SideView.texts. */
  textId?: string;
}

export interface SideView {
  role: 'slog' | 'base' | 'head';
  files: string[];
  /** What was read, as rows of two cells. */
  summary: Array<[string, string]>;
  top: {
    n: number;
    ranked: number;
    hasComputrons: boolean;
    rankings: Array<{ key: TopKey; title: string; cranks: TopRow[] }>;
  };
  /** The ranked cranks' text, by textId. */
  texts: Record<string, string>;
  tables: ReportTable[];
  /** What grows (growth-view.ts), when the run was read with growth. */
  growth?: GrowthView;
}

export interface ReportData {
  format: typeof REPORT_FORMAT;
  version: typeof REPORT_VERSION;
  title: string;
  /** The x axis title, e.g. `first crank of each bucket of 250 cranks`. */
  axis: string;
  /** What a point is. */
  pointNote: string;
  charts: ChartView[];
  /** The kernel's figures per round or block (growth-view.ts), when some run was read with growth and has periods: on its own axis. */
  growthCharts: ChartView[];
  sides: SideView[];
  compare?: {
    verdict?: string;
    notes: string[];
    tables: ReportTable[];
  };
}

/** One run, as collected (side.ts) and read again for its top cranks' text. */
export interface SideInput {
  role: SideView['role'];
  files: string[];
  lines: number;
  badLines: number;
  aggregate: SlogAggregate;
  top: { n: number; ranked: number; hasComputrons: boolean; rankings: Array<{ key: TopKey; title: string; cranks: RankedCrank[] }> };
  texts: Map<RankedCrank, string>;
  series: SeriesData;
  vats: VatNames;
  /** What `slogulate growth` reports of the run, when it was read with growth. */
  growth?: GrowthResult;
}

export interface ReportInput {
  sides: SideInput[];
  /** Cranks per bucket, when bucketed every N cranks (else per the series' axis: round, block). */
  every?: number;
  comparison?: Comparison;
  thresholds?: ThresholdResult[];
}

/** The compare sections that end with a totals row. */
const TOTALS_SECTIONS = new Set(['deliveriesByVat', 'syscallsByType', 'computronsByVat', 'replays']);

/** Rows of a table at most (the largest first); `stats` has them all. */
export const MAX_TABLE_ROWS = 500;
/** Lines of a crank's text at most. */
export const MAX_TEXT_LINES = 1000;
/** Per-vat gauge series on a chart at most (the vats with the largest values). */
export const MAX_VAT_SERIES = 8;

const round = (v: number | null, digits: number): number | null => (v === null ? null : Number(v.toFixed(digits)));

export function limitRows(table: Table, id: string, footer: number, kept: { which: string; by: string } = { which: 'the largest first', by: 'slogulate stats' }): ReportTable {
  const body = table.rows.length - footer;
  if (body <= MAX_TABLE_ROWS) return { ...table, id, footer };
  const note = `${MAX_TABLE_ROWS} of ${body} rows shown (${kept.which}); ${kept.by} has them all`;
  return {
    ...table,
    id,
    footer,
    rows: [...table.rows.slice(0, MAX_TABLE_ROWS), ...table.rows.slice(body)],
    note: table.note ? `${table.note}; ${note}` : note,
  };
}

export function truncateText(text: string): string {
  let end = -1;
  for (let i = 0; i < MAX_TEXT_LINES; i += 1) {
    end = text.indexOf('\n', end + 1);
    if (end < 0) return text;
  }
  if (end === text.length - 1) return text;
  const rest = text.slice(end + 1).split('\n').filter((l) => l.length > 0).length;
  return `${text.slice(0, end + 1)}... ${rest} more line${rest === 1 ? '' : 's'} (slogulate --nonoise --novatstore --timing shows them)\n`;
}

function sideView(side: SideInput): SideView {
  const name = side.files.join(' ');
  const [totals, ...rest] = statsTables(side.aggregate, name);
  const summary: Array<[string, string]> = [
    [side.files.length === 1 ? 'file' : 'files', name],
    ['lines read', `${side.lines}`],
    ['bad lines', side.badLines ? `${side.badLines} (skipped; slogulate names each on stderr)` : '0'],
  ];
  for (const row of totals?.rows ?? []) {
    // The selection's row only when there is one (report --cranks ...).
    if (row[0] === 'slog' || (row[0] === 'selection' && row[1] === 'all cranks')) continue;
    summary.push([row[0] ?? '', row[1] ?? '']);
  }
  // Chain blocks, as the charts have them (each block once, however many times it ran).
  const points = side.series.points;
  if (side.series.axis === 'block' && points.length) {
    const first = points[0] as Point;
    const last = points[points.length - 1] as Point;
    summary.push(['blocks', `${side.series.buckets} (heights ${first.x}-${/^block (\d+)/.exec(last.to)?.[1] ?? last.x})`]);
  }
  const vats = side.aggregate.vats.filter((v) => v.vatID !== NO_VAT);
  const vatList = vats.slice(0, 40).map((v) => `${v.vatID} ${side.vats.label(v.vatID)}`);
  summary.push(['vats with deliveries', `${vats.length}${vatList.length ? `: ${vatList.join(', ')}${vats.length > vatList.length ? ', ...' : ''}` : ''}`]);
  const texts: Record<string, string> = {};
  const ids = new Map<RankedCrank, string>();
  const rankings = side.top.rankings.map((r) => ({
    key: r.key,
    title: r.title,
    cranks: r.cranks.map((row): TopRow => {
      const text = side.texts.get(row);
      if (text === undefined) return { ...row };
      let id = ids.get(row);
      if (id === undefined) {
        id = `c${ids.size}`;
        ids.set(row, id);
        texts[id] = truncateText(text);
      }
      return { ...row, textId: id };
    }),
  }));
  // By title: stats' tables of where the crank time went come among these.
  const tableIDs = new Map([
    ['Syscalls by type', 'syscalls'],
    ['Deliveries by vat', 'deliveriesByVat'],
    ['Deliveries by vat and method', 'deliveriesByVatMethod'],
    ['Delivery cranks by vat', 'vats'],
  ]);
  return {
    role: side.role,
    files: side.files,
    summary,
    top: { n: side.top.n, ranked: side.top.ranked, hasComputrons: side.top.hasComputrons, rankings },
    texts,
    // Only a real totals row (stats' `all`) is drawn as one and stays last when sorting.
    tables: rest.map((t, i) => limitRows(t, `${side.role}-${tableIDs.get(t.title) ?? i}`, t.totals)),
    ...(side.growth ? { growth: limitGrowth(growthView(side.growth, side.role)) } : {}),
  };
}

/** A growth view's tables at most MAX_TABLE_ROWS rows each (a chain's blocks). */
function limitGrowth(view: GrowthView): GrowthView {
  return { ...view, tables: view.tables.map((t) => limitRows(t, t.id, t.footer, { which: 'in their order', by: 'slogulate growth' })) };
}

// ---- charts -----------------------------------------------------------------

interface ChartDef {
  id: string;
  title: string;
  unit: ChartUnit;
  digits: number;
  /** A fixed column, or a per-vat gauge kind (`heap`, `snapshot`), or the kernel gauge. */
  column?: string;
  perVat?: string;
  /** The parts of crank time, stacked (series.ts STACKED_PARTS): one chart per run. */
  parts?: true;
  /** Its title when the series' sums are per crank (series.ts perCrank); absent: not a sum. */
  perCrank?: string;
}

const CHARTS: ChartDef[] = [
  { id: 'crankTime', title: 'Crank time (ms)', perCrank: 'Crank time per crank (ms)', unit: 'ms', digits: 3, column: 'crankTime' },
  { id: 'crankParts', title: 'Crank time by part (ms)', perCrank: 'Crank time by part, per crank (ms)', unit: 'ms', digits: 3, parts: true },
  { id: 'computrons', title: 'Computrons', perCrank: 'Computrons per crank', unit: 'computrons', digits: 1, column: 'computrons' },
  { id: 'deliveries', title: 'Deliveries', perCrank: 'Deliveries per crank', unit: 'count', digits: 3, column: 'deliveries' },
  { id: 'syscalls', title: 'Syscalls', perCrank: 'Syscalls per crank', unit: 'count', digits: 2, column: 'syscalls' },
  { id: 'heap', title: 'XS heap per vat (allocate, bytes)', unit: 'bytes', digits: 0, perVat: 'heap' },
  { id: 'heapCount', title: 'XS heap slots in use per vat (currentHeapCount)', unit: 'count', digits: 0, perVat: 'heapCount' },
  { id: 'snapshot', title: 'Heap snapshot size per vat (uncompressed, bytes)', unit: 'bytes', digits: 0, perVat: 'snapshot' },
  { id: 'kernelHeap', title: 'Kernel heap used after commit (bytes)', unit: 'bytes', digits: 0, column: 'kernelHeap' },
];

/** `cranks 0-249` + `cranks 750-999` make `cranks 0-999`; `block 12: ...` + `block 15: ...` make `blocks 12-15`; anything else `from ... to`. */
export function pointLabel(p: Point): string {
  if (p.from === p.to) return p.from;
  const a = /^cranks? (\d+)(?:-\d+)?$/.exec(p.from);
  const b = /^cranks? (?:\d+-)?(\d+)$/.exec(p.to);
  if (a && b) return `cranks ${a[1]}-${b[1]}`;
  const first = /^block (\d+)\b/.exec(p.from);
  const last = /^block (\d+)\b/.exec(p.to);
  if (first && last) return `blocks ${first[1]}-${last[1]}`;
  return `${p.from} ... ${p.to}`;
}

function columnIndex(series: SeriesData, id: string): number {
  return series.columns.findIndex((c) => c.id === id);
}

/** The largest value a column reaches in a series (-Infinity when none). */
function columnMax(series: SeriesData, index: number): number {
  let max = -Infinity;
  for (const p of series.points) {
    const v = p.columns[index]?.max;
    if (v !== null && v !== undefined && v > max) max = v;
  }
  return max;
}

/**
 * The note of a chart of sums: per crank when the series is (a bucket's sum
 * divided by its cranks, so that a last bucket holding fewer is as high as
 * the others), and a bucket's figure set aside (the bootstrap block's
 * computrons).
 */
function sumNote(def: ChartDef, sides: SideInput[]): string | undefined {
  const notes: string[] = [];
  const series = (sides[0] as SideInput).series;
  if (series.perCrank) {
    const over = def.id === 'crankTime' || def.parts ? 'its finished cranks' : 'its cranks';
    const partial = sides
      .filter((s) => s.series.lastBucketCranks !== undefined)
      .map((s) => `${sides.length > 1 ? `${s.role}'s ` : ''}last bucket, ${s.series.lastBucketCranks} cranks of ${s.series.cranksPerBucket}`);
    notes.push(`Per crank: each bucket's sum divided by ${over}, so that a bucket holding fewer cranks${partial.length ? ` (${partial.join('; ')})` : ''} reads as the others do.`);
  }
  for (const side of sides) {
    const aside = side.series.setAside;
    if (!aside || aside.column !== def.column) continue;
    const who = sides.length > 1 ? `${side.role}: ` : '';
    notes.push(`${who}${aside.label} is left out: its ${Math.round(aside.value).toLocaleString('en-US')} computrons (every vat's setup) would flatten the chart; slogulate stats and blocks count them.`);
  }
  return notes.length ? notes.join(' ') : undefined;
}

function buildCharts(sides: SideInput[]): ChartView[] {
  const xs = [...new Set(sides.flatMap((s) => s.series.points.map((p) => p.x)))].sort((a, b) => a - b);
  const labelOf = new Map<number, string>();
  for (const side of sides) for (const p of side.series.points) if (!labelOf.has(p.x)) labelOf.set(p.x, pointLabel(p));
  const compare = sides.length > 1;
  const charts: ChartView[] = [];
  for (const def of CHARTS) {
    if (def.parts) {
      charts.push(...partCharts(def, sides, xs, labelOf));
      continue;
    }
    const lines: Array<{ side: number; column: number; label: string; vatID?: string }> = [];
    if (def.column !== undefined) {
      sides.forEach((side, s) => {
        const i = columnIndex(side.series, def.column as string);
        if (i >= 0 && columnMax(side.series, i) > -Infinity) {
          lines.push({ side: s, column: i, label: compare ? side.role : def.title.replace(/ \(.*\)$/, '').toLowerCase() });
        }
      });
    } else {
      // The vats with the largest values, on either side.
      const peak = new Map<string, number>();
      for (const side of sides) {
        side.series.columns.forEach((c, i) => {
          if (c.vatID === undefined || !c.id.startsWith(`${def.perVat}:`)) return;
          peak.set(c.vatID, Math.max(peak.get(c.vatID) ?? -Infinity, columnMax(side.series, i)));
        });
      }
      const vats = [...peak]
        .filter(([, max]) => max > -Infinity)
        .sort((a, b) => b[1] - a[1])
        .slice(0, compare ? MAX_VAT_SERIES / 2 : MAX_VAT_SERIES)
        .map(([vatID]) => vatID);
      for (const vatID of vats) {
        sides.forEach((side, s) => {
          const i = columnIndex(side.series, `${def.perVat}:${vatID}`);
          const name = `${vatID} ${side.vats.label(vatID)}`;
          if (i >= 0) lines.push({ side: s, column: i, label: compare ? `${side.role} ${name}` : name, vatID });
        });
      }
    }
    if (!lines.length) continue;
    const series = lines.map(({ side: s, column: i, label, vatID }): ChartSeries => {
      const side = sides[s] as SideInput;
      const byX = new Map(side.series.points.map((p) => [p.x, p]));
      const pick = (f: 'mean' | 'min' | 'max'): Array<number | null> => xs.map((x) => round(byX.get(x)?.columns[i]?.[f] ?? null, def.digits));
      const out: ChartSeries = { label, side: s, ...(vatID === undefined ? {} : { vatID }), mean: pick('mean') };
      if (side.series.bucketsPerPoint > 1) {
        out.min = pick('min');
        out.max = pick('max');
      }
      return out;
    });
    const note = sumNote(def, sides);
    const title = def.perCrank !== undefined && (sides[0] as SideInput).series.perCrank ? def.perCrank : def.title;
    charts.push({ id: def.id, title, unit: def.unit, x: xs, labels: xs.map((x) => labelOf.get(x) ?? String(x)), series, ...(note === undefined ? {} : { note }) });
  }
  return charts;
}

/**
 * The stacked chart of crank time by part: one per run (two runs' stacks
 * cannot share one chart), its lines the parts in STACKED_PARTS order, each
 * a point's mean (a stack of means is the mean of the stacks). None for a
 * run whose cranks have no part time (no crank with both its start and its
 * finish).
 */
function partCharts(def: ChartDef, sides: SideInput[], xs: number[], labelOf: Map<number, string>): ChartView[] {
  const charts: ChartView[] = [];
  sides.forEach((side, s) => {
    const byX = new Map(side.series.points.map((p) => [p.x, p]));
    const series: ChartSeries[] = [];
    let any = false;
    for (const part of STACKED_PARTS) {
      const i = columnIndex(side.series, `part:${part.name}`);
      if (i < 0) continue;
      if (columnMax(side.series, i) > 0) any = true;
      series.push({ label: part.name, side: s, mean: xs.map((x) => round(byX.get(x)?.columns[i]?.mean ?? null, def.digits)) });
    }
    if (!any) return;
    const compare = sides.length > 1;
    const title = side.series.perCrank && def.perCrank !== undefined ? def.perCrank : def.title;
    const note = sumNote(def, [side]);
    charts.push({
      ...(note === undefined ? {} : { note }),
      id: compare ? `${def.id}-${side.role}` : def.id,
      title: compare ? `${title}, ${side.role}` : title,
      unit: def.unit,
      stacked: true,
      x: xs,
      labels: xs.map((x) => labelOf.get(x) ?? String(x)),
      series,
    });
  });
  return charts;
}

// ---- the whole ----------------------------------------------------------------

export function reportData(input: ReportInput): ReportData {
  const { sides } = input;
  const first = sides[0] as SideInput;
  const axisName = first.series.axis;
  const perPoint = Math.max(...sides.map((s) => s.series.bucketsPerPoint));
  const cranks = (n: number): string => `${n} crank${n === 1 ? '' : 's'}`;
  const every = first.series.cranksPerBucket ?? input.every ?? 1;
  const axis = axisName === 'crank' ? `crank number (first crank of each bucket of ${cranks(every)})` : axisName === 'round' ? 'benchmark round' : axisName;
  const one = axisName === 'crank' ? `a bucket of ${cranks(every)}` : `a ${axis}`;
  const many = axisName === 'crank' ? `${perPoint} buckets of ${cranks(every)} (${cranks(perPoint * every)})` : `${perPoint} ${axis}s`;
  let pointNote =
    perPoint > 1 ? `Each point covers ${many}: the line is their mean, the band their minimum to maximum.` : `Each point is ${one}.`;
  // Cranks in no bucket: outside every block (a slog that starts inside one) or round.
  const outside = axisName === 'block' ? 'every block' : axisName === 'round' ? 'every round' : 'every bucket';
  for (const side of sides) {
    const n = side.series.leftOut;
    if (n > 0) pointNote += ` ${sides.length > 1 ? `${side.role}: ` : ''}${cranks(n)} outside ${outside} ${n === 1 ? 'is' : 'are'} not in the charts.`;
  }
  const title = sides.length > 1 ? `slogulate report: ${sides.map((s) => s.files.join(' ')).join(' vs ')}` : `slogulate report: ${first.files.join(' ')}`;
  const data: ReportData = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    title,
    axis,
    pointNote,
    charts: buildCharts(sides),
    growthCharts: [growthChart(sides.map((s) => ({ role: s.role, growth: s.growth })))].filter((c): c is ChartView => c !== undefined),
    sides: sides.map(sideView),
  };
  if (input.comparison) {
    const results = input.thresholds ?? [];
    const tables: ReportTable[] = [];
    if (results.length) tables.push({ ...thresholdTable(results), id: 'compare-thresholds', footer: 0 });
    for (const { section, table } of sectionTables(input.comparison, { changedOnly: false, timeRows: 20 })) {
      // The sections whose last row is their totals (`all`, `all vats`); the others' last row is a vat's, a method's, a percentile's.
      const footer = TOTALS_SECTIONS.has(section.id) && /^all\b/.test(table.rows.at(-1)?.[0] ?? '') ? 1 : 0;
      tables.push(limitRows(table, `compare-${section.id}`, footer));
    }
    const notes = [
      'Counts are deterministic: the same code running the same benchmark gives the same numbers, so any delta is a change in behavior.',
      'Times are wall-clock and noisy: compare them across several runs before trusting a delta.',
    ];
    if (input.comparison.perRound) notes.unshift('Per benchmark round: counts, computrons and total times are divided by each slog\'s round count.');
    const v = verdict(results);
    data.compare = { notes, tables, ...(v === undefined ? {} : { verdict: v }) };
  }
  return data;
}
