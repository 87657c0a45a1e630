/**
 * The sections of the `slogulate compare` report, each declared once (its
 * rows, their order, its table's columns), and the one builder that makes a
 * section's rows from the metrics that declare it (metrics.ts). Every row's
 * `key` is its metric and scope in the `--fail-on` syntax, and its values are
 * what that threshold reads.
 *
 * A section lists, in the order of its `rows`, either each metric's figure
 * of the whole side (`whole`), or one row per part of a breakdown (per vat,
 * per vat+method, per syscall type) for each metric, parts of both sides
 * paired by their vat's match (vat-match.ts).
 */
import { compareVatIDs } from '../stats/aggregate.js';
import { byText } from '../common/text-order.js';
import type { VatMatch, VatMatchBy, VatMatching } from '../common/vat-match.js';
import type { SideData } from './compare-side.js';
import { deltaPercent, metricKey } from './thresholds.js';
import { divisor, familyMember, METRIC_DECLARATIONS, type Breakdown, type MetricDeclaration, type SectionID, type TimeStat, type Unit } from './metrics.js';

export interface CompareRow {
  /** The row as a `--fail-on` metric: `syscalls.send`, `time.p95,vat=v9,method=foo`. */
  key: string;
  /** The vat's ID: the head's, or the base's when only the base has the vat. */
  vatID?: string;
  vatName?: string;
  /** The vat's ID in the base and in the head (absent on a side without the vat). */
  baseVatID?: string;
  headVatID?: string;
  /** How the vat's base and head were paired: by its name (both slogs name it), or by its ID. */
  vatMatch?: VatMatchBy;
  method?: string;
  /** syscalls: the syscall type; cranks: `delivery` / `routing` / `abandoned`; blocks: `busy` / `computrons` / `time`; time by part: the part (`vat`, `page-in`...) or `crank`. */
  subtype?: string;
  /** time and block rows: which statistic. */
  stat?: TimeStat;
  /**
   * Crank time by part: how many cranks of each side the figure leaves out
   * because it is unknown there (a worker list that is unusable, a crank
   * without its start or finish); absent when none on either side.
   */
  unknownIn?: { base: number; head: number };
  base: number;
  head: number;
  delta: number;
  /** delta / base in percent; 0 when both are 0; null when only the base is 0. */
  deltaPercent: number | null;
}

export interface CompareSection {
  id: SectionID;
  title: string;
  /** Counts are deterministic (the same run gives the same numbers); times are not. */
  deterministic: boolean;
  unit: Unit;
  rows: CompareRow[];
}

/** A breakdown's part of both sides: its vat match, method or type, and each metric's values. */
export interface Entry {
  match?: VatMatch;
  method?: string;
  type?: string;
  /** By metric name: the base's and head's values (per round where the metric is), and the cranks each leaves out as unknown. */
  values: Map<string, SideValues>;
}

/** A metric's values of both sides in one row. */
interface SideValues {
  base: number;
  head: number;
  unknownIn: { base: number; head: number };
}

/** The order of a section's entries. */
export type EntryOrder = (a: Entry, b: Entry) => number;

/** A column of the report's table that names a row (before base, head, delta, delta%). */
export interface NameColumn {
  header: string;
  /**
   * `vat`: the row's vat (`v7 bob`, `v7→v6 bob`); `method`; `stat`; `metric`:
   * the metric's label (a family member's type).
   */
  shows: 'vat' | 'method' | 'stat' | 'metric';
  /** `vat`: the text in rows of the whole side (`all vats`). */
  whole?: string;
}

export interface SectionDeclaration {
  id: SectionID;
  title: string;
  /** Counts are deterministic (the same run gives the same numbers); times are not. */
  deterministic: boolean;
  unit: Unit;
  /** Its rows, in order: the metrics' figures of the whole side, or one row per part of a breakdown. */
  rows: ReadonlyArray<'whole' | Breakdown>;
  /** The order of the parts' rows (as found: the base's, then those only in the head). */
  order?: EntryOrder;
  /** Shown only when this holds (a slog has computrons, blocks...); always when absent. */
  shown?: (base: SideData, head: SideData) => boolean;
  /** The report table's columns that name a row. */
  columns: readonly NameColumn[];
  /** Per round, the table's title says `per round` (its figures are all divided by the round count). */
  titlePerRound?: boolean;
  /** Under the table. */
  note?: string;
  /** Under the table per round (instead of `note`). */
  perRoundNote?: string;
  /** Sections of noisy times: what its entries (one group of rows each, `--time-rows` of them shown) are, and by what they are ordered. */
  entries?: { noun: string; by: string };
}

/** The vat's ID: the head's, else the base's. */
const vatIDOf = (e: Entry): string => e.match?.head ?? e.match?.base ?? '';

/** 0 for a vat of the base only, else 1: of two vats of one ID (bob in the base, erin in the head), the base's comes first. */
const baseOnlyFirst = (e: Entry): number => (e.match !== undefined && e.match.head === undefined ? 0 : 1);
const byVat: EntryOrder = (a, b) => compareVatIDs(vatIDOf(a), vatIDOf(b)) || baseOnlyFirst(a) - baseOnlyFirst(b);
const byMethod: EntryOrder = (a, b) => byText(a.method, b.method);
const byType: EntryOrder = (a, b) => byText(a.type, b.type);
/** Largest first, by the larger of a metric's two values. */
const largest = (metric: string): EntryOrder => {
  const size = (e: Entry): number => {
    const v = e.values.get(metric);
    return v ? Math.max(v.base, v.head) : 0;
  };
  return (a, b) => size(b) - size(a);
};
const then =
  (...orders: EntryOrder[]): EntryOrder =>
  (a, b) => {
    for (const order of orders) {
      const c = order(a, b);
      if (c) return c;
    }
    return 0;
  };

const VAT: NameColumn = { header: 'vat', shows: 'vat', whole: 'all vats' };
const METHOD: NameColumn = { header: 'method', shows: 'method' };
const hasBlocks = (base: SideData, head: SideData): boolean => base.blocks !== undefined || head.blocks !== undefined;
/** What a side's growth is measured over (`round`, `block`); undefined: no periods. */
const growthUnit = (side: SideData): string | undefined => side.growth?.unit ?? undefined;

/** Every section, in report order: the deterministic counts first, then the (noisy) times. */
export const SECTIONS: readonly SectionDeclaration[] = [
  { id: 'cranks', title: 'Cranks', deterministic: true, unit: 'count', rows: ['whole'], columns: [{ header: 'cranks', shows: 'metric' }], titlePerRound: true },
  {
    id: 'deliveriesByVat',
    title: 'Deliveries by vat',
    deterministic: true,
    unit: 'count',
    rows: ['vat', 'whole'],
    order: byVat,
    columns: [VAT],
    titlePerRound: true,
  },
  {
    id: 'deliveriesByVatMethod',
    title: 'Deliveries by vat and method',
    deterministic: true,
    unit: 'count',
    rows: ['vatMethod'],
    order: then(byVat, byMethod),
    columns: [VAT, METHOD],
    titlePerRound: true,
  },
  {
    id: 'syscallsByType',
    title: 'Syscalls by type',
    deterministic: true,
    unit: 'count',
    rows: ['type', 'whole'],
    order: then(largest('syscalls.TYPE'), byType),
    columns: [{ header: 'syscall', shows: 'metric' }],
    titlePerRound: true,
  },
  {
    id: 'computronsByVat',
    title: 'Computrons by vat',
    deterministic: true,
    unit: 'computrons',
    rows: ['vat', 'whole'],
    order: byVat,
    shown: (base, head) => base.aggregate.computrons !== undefined || head.aggregate.computrons !== undefined,
    columns: [VAT],
    titlePerRound: true,
  },
  {
    id: 'replays',
    title: 'Replayed deliveries by vat (vats paged in; not counted above)',
    deterministic: true,
    unit: 'count',
    rows: ['vat', 'whole'],
    order: byVat,
    // Only where a replay replayed something: every vat replays an empty transcript when it is created.
    shown: (base, head) => [...base.aggregate.replays, ...head.aggregate.replays].some((r) => r.deliveries > 0),
    columns: [VAT],
    titlePerRound: true,
  },
  {
    id: 'blocks',
    title: 'Per busy block (chain blocks that ran cranks)',
    deterministic: true,
    unit: 'computrons',
    rows: ['whole'],
    shown: hasBlocks,
    columns: [{ header: 'per busy block', shows: 'metric' }],
    perRoundNote: 'per block, not per round',
  },
  {
    id: 'growth',
    title: 'Growth per round or block (the kernel: slogulate growth)',
    deterministic: true,
    unit: 'count',
    rows: ['whole'],
    shown: (base, head) => growthUnit(base) !== undefined || growthUnit(head) !== undefined,
    columns: [{ header: 'growth', shows: 'metric' }],
    note: 'change per round where a slog marks benchmark rounds, else per block: the least-squares slope slogulate growth prints (docs/growth.md), of the whole slog',
  },
  {
    id: 'time',
    title: 'Delivery times (wall clock: noisy)',
    deterministic: false,
    unit: 'µs',
    rows: ['whole', 'vatMethod'],
    order: then(largest('time.total'), byVat, byMethod),
    columns: [{ ...VAT, whole: 'all deliveries' }, METHOD, { header: 'stat', shows: 'stat' }],
    perRoundNote: 'total is per round; mean and p95 are per delivery',
  },
  {
    id: 'timeByPart',
    title: 'Crank time by part (wall clock: noisy)',
    deterministic: false,
    unit: 'µs',
    rows: ['whole', 'vat'],
    order: then(largest('time.crank'), byVat),
    columns: [{ ...VAT, whole: 'all cranks' }, { header: 'part', shows: 'metric' }],
    note: 'crank-start to crank-finish, split as docs/time-split.md says; all cranks include routing cranks (kernel time); a vat shows its parts that are not 0',
    perRoundNote: 'per round; crank-start to crank-finish, split as docs/time-split.md says; all cranks include routing cranks (kernel time)',
    entries: { noun: 'vats', by: 'crank time' },
  },
  {
    id: 'blockTime',
    title: 'End-block time per busy block (wall clock: noisy)',
    deterministic: false,
    unit: 'µs',
    rows: ['whole'],
    shown: hasBlocks,
    columns: [{ header: 'per busy block', shows: 'metric' }],
    note: 'end-block-start to end-block-finish',
  },
];

function row(key: string, base: number, head: number, fields: Partial<CompareRow> = {}): CompareRow {
  return { key, ...fields, base, head, delta: head - base, deltaPercent: deltaPercent(base, head) };
}

/** A vat row's vat fields. */
function vatFields(m: VatMatch): Partial<CompareRow> {
  return {
    vatID: m.head ?? m.base,
    ...(m.name === undefined ? {} : { vatName: m.name }),
    ...(m.base === undefined ? {} : { baseVatID: m.base }),
    ...(m.head === undefined ? {} : { headVatID: m.head }),
    vatMatch: m.by,
  };
}

/** Both sides, and the vats matched between them. */
interface Sides {
  base: SideData;
  head: SideData;
  vats: VatMatching;
}

/** A metric's figure on a side as the report shows it: per round where the metric is; 0 where the side has none. */
function shownValue(metric: MetricDeclaration, side: SideData, value: number | undefined): number {
  return (value ?? 0) / (metric.perRound ? divisor(side) : 1);
}

/** A row's `unknownIn`, where a side leaves out some cranks. */
function unknownFields(unknownIn: { base: number; head: number }): Partial<CompareRow> {
  return unknownIn.base > 0 || unknownIn.head > 0 ? { unknownIn } : {};
}

/** One row per metric, of the whole sides. */
function wholeRows(metrics: readonly MetricDeclaration[], { base, head }: Sides): CompareRow[] {
  const rows: CompareRow[] = [];
  for (const metric of metrics) {
    if (!metric.whole) continue;
    const baseValue = shownValue(metric, base, metric.whole(base));
    const headValue = shownValue(metric, head, metric.whole(head));
    if (metric.rowIfAny && baseValue === 0 && headValue === 0) continue;
    const unknownIn = { base: metric.unknownIn?.(base) ?? 0, head: metric.unknownIn?.(head) ?? 0 };
    rows.push(row(metric.name, baseValue, headValue, { ...metric.row, ...unknownFields(unknownIn) }));
  }
  return rows;
}

/**
 * The parts of one breakdown of the metrics on both sides, paired into
 * entries by their vat (as rows name it, vat-match.ts), method and type: the
 * base's first, in their order, then those only in the head.
 */
function entries(metrics: readonly MetricDeclaration[], by: Breakdown, sides: Sides): Entry[] {
  const found = new Map<string, Entry>();
  for (const metric of metrics) {
    for (const side of ['base', 'head'] as const) {
      for (const part of metric.parts?.[by]?.(sides[side]) ?? []) {
        // A group without this figure (a vat whose deliveries reported no computrons) has no row.
        if (part.value === undefined) continue;
        const match = part.vatID === undefined ? undefined : sides.vats.of(side, part.vatID);
        const key = [match ? sides.vats.keyOf(match) : '', part.method ?? '', part.type ?? ''].join('\u0000');
        let entry = found.get(key);
        if (!entry) {
          entry = { ...(part.method === undefined ? {} : { method: part.method }), ...(part.type === undefined ? {} : { type: part.type }), values: new Map() };
          found.set(key, entry);
        }
        // The same vat on both sides: the head's match, as the row shows it.
        if (match && (side === 'head' || !entry.match)) entry.match = match;
        const values = entry.values.get(metric.name) ?? { base: 0, head: 0, unknownIn: { base: 0, head: 0 } };
        values[side] = shownValue(metric, sides[side], part.value);
        values.unknownIn[side] = part.unknownIn ?? 0;
        entry.values.set(metric.name, values);
      }
    }
  }
  return [...found.values()];
}

/** For each entry of a breakdown (in the section's order), one row per metric: `deliveries,vat=v9,method=foo`, `syscalls.send`. */
function partRows(metrics: readonly MetricDeclaration[], by: Breakdown, order: EntryOrder | undefined, sides: Sides): CompareRow[] {
  const broken = metrics.filter((metric) => metric.parts?.[by] !== undefined);
  const sorted = entries(broken, by, sides);
  if (order) sorted.sort(order);
  const rows: CompareRow[] = [];
  for (const entry of sorted) {
    const vat = entry.match ? sides.vats.keyOf(entry.match) : undefined;
    for (const metric of broken) {
      const values = entry.values.get(metric.name) ?? { base: 0, head: 0, unknownIn: { base: 0, head: 0 } };
      if (metric.partRowsIfAny && values.base === 0 && values.head === 0 && values.unknownIn.base === 0 && values.unknownIn.head === 0) continue;
      const name = entry.type === undefined ? metric.name : familyMember(metric, entry.type);
      const fields: Partial<CompareRow> = {
        ...(entry.match ? vatFields(entry.match) : {}),
        ...(entry.method === undefined ? {} : { method: entry.method }),
        ...(entry.type === undefined ? metric.row : { subtype: entry.type }),
        ...unknownFields(values.unknownIn),
      };
      rows.push(row(metricKey({ name }, { vat, method: entry.method }), values.base, values.head, fields));
    }
  }
  return rows;
}

/** A section's rows: each of its `rows` in turn, for every metric shown in it. */
function section(declared: SectionDeclaration, sides: Sides): CompareSection {
  const metrics = METRIC_DECLARATIONS.filter((metric) => metric.sections.includes(declared.id));
  const rows = declared.rows.flatMap((by) => (by === 'whole' ? wholeRows(metrics, sides) : partRows(metrics, by, declared.order, sides)));
  return { id: declared.id, title: declared.title, deterministic: declared.deterministic, unit: declared.unit, rows };
}

/** The sections shown for these two sides, in report order. */
export function compareSections(base: SideData, head: SideData, vats: VatMatching): CompareSection[] {
  const sides = { base, head, vats };
  return SECTIONS.filter((declared) => declared.shown?.(base, head) ?? true).map((declared) => section(declared, sides));
}

/** The declaration of a section. */
export function sectionDeclaration(id: SectionID): SectionDeclaration {
  return SECTIONS.find((declared) => declared.id === id) as SectionDeclaration;
}
