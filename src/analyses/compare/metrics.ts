/**
 * Every metric `slogulate compare` knows, each declared once: its name as
 * `--fail-on` spells it, how to read it from one side, its unit and the
 * report sections that show it. The report's sections (sections.ts) and the
 * `--fail-on` thresholds (thresholds.ts, compare.ts) both read metrics
 * through these declarations only.
 *
 * A side's figure of a metric is either the whole selection's (`whole`) or
 * broken down into parts (per vat, per vat+method, per syscall type...): a
 * `vat=` / `method=` scope is answered by the smallest breakdown that has the
 * fields it names, and a section lists one row per part of the breakdown it
 * shows.
 *
 *     {
 *       name: 'deliveries',
 *       unit: 'count',
 *       sections: ['deliveriesByVat', 'deliveriesByVatMethod'],
 *       perRound: true,
 *       whole: (side) => side.aggregate.deliveries.count,
 *       parts: {
 *         vat: (side) => vatParts(side.aggregate.deliveriesByVat, (r) => r.count),
 *         vatMethod: (side) => vatMethodParts(side.aggregate.deliveriesByVatMethod, (r) => r.count),
 *       },
 *     }
 */
import type { DurationStats } from '../common/histogram.js';
import { PARTS, type PartSpec } from '../../model/parts.js';
import type { DeliveryStats } from '../stats/aggregate.js';
import type { FigureChange, GrowthResult } from '../growth/growth-result.js';
import type { BlockFigures } from './block-figures.js';
import type { CrankPartFigures, SideData } from './compare-side.js';

/** The report's sections (sections.ts declares each; a metric names those that show it). */
export type SectionID =
  | 'cranks'
  | 'deliveriesByVat'
  | 'deliveriesByVatMethod'
  | 'syscallsByType'
  | 'computronsByVat'
  | 'replays'
  | 'blocks'
  | 'growth'
  | 'time'
  | 'timeByPart'
  | 'blockTime';

/** What a metric's values are: counts, computrons, or µs (formatted as such in the report). */
export type Unit = 'count' | 'computrons' | 'µs';

/** Statistics of delivery times (µs) a `time.STAT` metric can name. */
export const TIME_STATS = ['total', 'mean', 'p50', 'p90', 'p95', 'p99', 'max'] as const;
export type TimeStat = (typeof TIME_STATS)[number];

/** The delivery-time statistics the report shows (the others are for `--fail-on` only). */
const REPORTED_TIME_STATS: readonly TimeStat[] = ['total', 'mean', 'p95'];

/** One figure of one side: of one vat, vat+method, method or syscall type (the fields it has say which). */
export interface Part {
  vatID?: string;
  vatName?: string;
  method?: string;
  /** A syscall type (a `syscalls.TYPE` metric). */
  type?: string;
  /**
   * The figure. Undefined where the group is there without one (a vat whose
   * deliveries reported no computrons): it has no report row, and counts as 0
   * for a threshold that names it.
   */
  value: number | undefined;
  /** Cranks of the group whose figure `value` leaves out because it is unknown there (crank time by part). */
  unknownIn?: number;
}

/** How a metric's figures are broken down, named by the fields its parts have. */
export type Breakdown = 'vat' | 'method' | 'type' | 'vatMethod' | 'vatMethodType';

/** The fields of each breakdown's parts, smallest breakdown first (the order in which one is chosen for a scope). */
export const BREAKDOWN_FIELDS: ReadonlyArray<[Breakdown, ReadonlyArray<'vat' | 'method' | 'type'>]> = [
  ['vat', ['vat']],
  ['method', ['method']],
  ['type', ['type']],
  ['vatMethod', ['vat', 'method']],
  ['vatMethodType', ['vat', 'method', 'type']],
];

export interface MetricDeclaration {
  /**
   * As `--fail-on` spells it, and as its rows' keys begin: `cranks.delivery`,
   * `time.p95`. A name ending in `.TYPE` is a family (`syscalls.TYPE`: one
   * metric per syscall type, `syscalls.send`...), read through its `type`
   * breakdown.
   */
  name: string;
  /** Other spellings `--fail-on` takes for it (`time` for `time.total`). */
  aliases?: readonly string[];
  unit: Unit;
  /** The report sections that show it (sections.ts); empty: `--fail-on` only. */
  sections: readonly SectionID[];
  /** How its section's table names its rows of the whole side (`delivery`, `busy blocks`); a family's rows show their type. */
  label?: string;
  /** The fields every row of it has in the JSON report (and its parsed threshold): what it measures within its kind. */
  row?: { subtype?: string; stat?: TimeStat };
  /** Divided by each side's round count per round (`--round-marks`): counts and totals, not means, percentiles or per-block figures. */
  perRound: boolean;
  /** A statistic of one group of deliveries (a mean, a percentile): a scope picks the first group it names, never a sum of several. */
  statistic?: boolean;
  /** The figure of the side's whole selection; undefined: the side has none (a slog without chain blocks). */
  whole?: (side: SideData) => number | undefined;
  /** Its figures broken down (for `vat=` and `method=` scopes, and the sections' per-vat rows). */
  parts?: Partial<Record<Breakdown, (side: SideData) => Part[]>>;
  /** Why a `vat=` scope cannot apply, where no breakdown has vats (default: `NAME takes no vat=`). */
  noVat?: string;
  /** Why a `method=` scope cannot apply, where no breakdown has methods (default: `NAME takes no method=`). */
  noMethod?: string;
  /** Said when neither side has it at all (instead of `matches nothing in either slog`). */
  missing?: string;
  /** Its row is shown only where one side's figure is not 0. */
  rowIfAny?: boolean;
  /** Its rows of a breakdown's parts (a vat's) are shown only where one side's figure is not 0. */
  partRowsIfAny?: boolean;
  /**
   * The cranks of the side's whole selection whose figure `whole` leaves out
   * because it is unknown there (a part of crank time, docs/time-split.md);
   * its parts say theirs in `Part.unknownIn`. Absent: never unknown.
   */
  unknownIn?: (side: SideData) => number;
}

/** A side's divisor for per-round metrics: its round count when comparing per round, else 1. */
export function divisor(side: SideData): number {
  return side.rounds ? Math.max(1, side.rounds.length) : 1;
}

/** Per-vat parts of per-vat rows. */
function vatParts<R extends { vatID?: string; vatName?: string }>(rows: readonly R[], value: (r: R) => number | undefined): Part[] {
  return rows.map((r) => ({ vatID: r.vatID ?? '', vatName: r.vatName, value: value(r) }));
}

/** Per-vat+method parts of per-vat+method rows. */
function vatMethodParts(rows: readonly DeliveryStats[], value: (r: DeliveryStats) => number | undefined): Part[] {
  return rows.map((r) => ({ vatID: r.vatID ?? '', vatName: r.vatName, method: r.method ?? '', value: value(r) }));
}

// ---- cranks ---------------------------------------------------------------------

/** Delivery cranks per vat (a vat's cranks are all delivery cranks). */
const cranksByVat = (side: SideData): Part[] => vatParts(side.aggregate.vats, (r) => r.cranks);

/** `cranks` (all), or `cranks.KIND`: a count of the selection's cranks, per vat (`parts`) or not (`noVat` says why). */
function crankCount(kind: 'delivery' | 'routing' | 'abandoned' | undefined, count: (side: SideData) => number, byVat: Pick<MetricDeclaration, 'parts' | 'noVat' | 'rowIfAny'>): MetricDeclaration {
  const name = kind === undefined ? 'cranks' : `cranks.${kind}`;
  return {
    name,
    unit: 'count',
    sections: ['cranks'],
    label: kind ?? 'all',
    ...(kind === undefined ? {} : { row: { subtype: kind } }),
    perRound: true,
    whole: count,
    noMethod: `${name} cannot be scoped by method (use deliveries)`,
    ...byVat,
  };
}

const CRANKS: MetricDeclaration[] = [
  crankCount(undefined, (side) => side.aggregate.cranks.selected, { parts: { vat: cranksByVat } }),
  crankCount('delivery', (side) => side.aggregate.cranks.delivery, { parts: { vat: cranksByVat } }),
  crankCount('routing', (side) => side.aggregate.cranks.routing, { noVat: 'routing cranks have no vat' }),
  // Executions a restart abandoned (and ran again): counted apart, for the whole slog only (aggregate.ts); a row where a side has some.
  crankCount('abandoned', (side) => side.aggregate.abandoned.cranks, { noVat: 'cranks.abandoned is not counted per vat: it takes no vat=', rowIfAny: true }),
];

// ---- deliveries, syscalls, replays, computrons ---------------------------------

/** Syscalls with or without a result. */
const syscallCount = (s: { count: number; unanswered: number }): number => s.count + s.unanswered;

/** Every selected syscall by vat, method and type (compare-side.ts's scoped counts). */
function syscallParts(side: SideData): Part[] {
  const parts: Part[] = [];
  for (const [vatID, methods] of side.syscalls) {
    const vatName = side.aggregate.vats.find((r) => r.vatID === vatID)?.vatName;
    for (const [method, types] of methods) for (const [type, count] of types) parts.push({ vatID, vatName, method, type, value: count });
  }
  return parts;
}

const DELIVERIES: MetricDeclaration = {
  name: 'deliveries',
  unit: 'count',
  sections: ['deliveriesByVat', 'deliveriesByVatMethod'],
  perRound: true,
  whole: (side) => side.aggregate.deliveries.count,
  parts: {
    vat: (side) => vatParts(side.aggregate.deliveriesByVat, (r) => r.count),
    vatMethod: (side) => vatMethodParts(side.aggregate.deliveriesByVatMethod, (r) => r.count),
  },
};

const SYSCALLS: MetricDeclaration[] = [
  {
    name: 'syscalls',
    unit: 'count',
    sections: ['syscallsByType'],
    label: 'all',
    perRound: true,
    whole: (side) => syscallCount(side.aggregate.syscalls),
    parts: { vatMethodType: syscallParts },
  },
  {
    name: 'syscalls.TYPE',
    unit: 'count',
    sections: ['syscallsByType'],
    perRound: true,
    parts: {
      type: (side) => side.aggregate.syscallsByType.map((s) => ({ type: s.type, value: syscallCount(s) })),
      vatMethodType: syscallParts,
    },
  },
];

/**
 * Transcript replays (vats paged in), per vat: not deliveries of any crank
 * (SLOG-FORMAT.md, "Replays"): how many deliveries each vat replayed. Their
 * time is in the crank times, not here.
 */
const REPLAYS: MetricDeclaration = {
  name: 'replays',
  unit: 'count',
  sections: ['replays'],
  perRound: true,
  whole: (side) => side.aggregate.replays.reduce((n, r) => n + r.deliveries, 0),
  parts: { vat: (side) => vatParts(side.aggregate.replays, (r) => r.deliveries) },
  noMethod: 'replays cannot be scoped by method (vat= only)',
};

const COMPUTRONS: MetricDeclaration = {
  name: 'computrons',
  unit: 'computrons',
  sections: ['computronsByVat'],
  perRound: true,
  whole: (side) => side.aggregate.computrons ?? 0,
  parts: {
    vat: (side) => vatParts(side.aggregate.deliveriesByVat, (r) => r.computrons),
    vatMethod: (side) => vatMethodParts(side.aggregate.deliveriesByVatMethod, (r) => r.computrons),
  },
};

// ---- delivery times ---------------------------------------------------------------

/** `time.STAT`: a statistic of the delivery times (deliver to deliver-result), µs. */
function deliveryTime(stat: TimeStat): MetricDeclaration {
  const value = (s: DurationStats): number => s[stat];
  return {
    name: `time.${stat}`,
    ...(stat === 'total' ? { aliases: ['time'] } : {}),
    unit: 'µs',
    sections: REPORTED_TIME_STATS.includes(stat) ? ['time'] : [],
    row: { stat },
    // A total per round; a mean or percentile is per delivery already.
    perRound: stat === 'total',
    statistic: true,
    whole: (side) => value(side.aggregate.deliveries),
    parts: {
      vat: (side) => vatParts(side.aggregate.deliveriesByVat, value),
      // Across every vat: percentiles cannot be summed from the vats'.
      method: (side) => [...side.methodTimes].map(([method, s]) => ({ method, value: value(s) })),
      vatMethod: (side) => vatMethodParts(side.aggregate.deliveriesByVatMethod, value),
    },
  };
}

// ---- crank time by part ------------------------------------------------------------

/** A part's canonical name in a metric: camelCase, as every metric is spelt (`page-in` -> `pageIn`). */
export const partMetricName = (part: string): string => `time.${part.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())}`;

/** Per-vat parts of crank-part figures: `value` and `unknownIn` of each vat's figures. */
function vatPartFigures(side: SideData, value: (f: CrankPartFigures) => number, unknownIn: (f: CrankPartFigures) => number): Part[] {
  const names = new Map(side.aggregate.vats.map((r) => [r.vatID, r.vatName]));
  return [...side.partsByVat].map(([vatID, f]) => {
    const vatName = names.get(vatID);
    return { vatID, ...(vatName === undefined ? {} : { vatName }), value: value(f), unknownIn: unknownIn(f) };
  });
}

const byPartRefused = (name: string): string => `${name} is crank time by part, per crank: it cannot be scoped by method (vat= only)`;

/**
 * `time.crank`: the selected cranks' time, crank-start to crank-finish, µs
 * (every crank with both; the rest, `withoutParts`, are unknown).
 */
const CRANK_TIME: MetricDeclaration = {
  name: 'time.crank',
  unit: 'µs',
  sections: ['timeByPart'],
  label: 'crank total',
  row: { subtype: 'crank' },
  perRound: true,
  whole: (side) => side.parts.tally.totalMicros,
  unknownIn: (side) => side.parts.tally.withoutParts,
  parts: { vat: (side) => vatPartFigures(side, (f) => f.tally.totalMicros, (f) => f.tally.withoutParts) },
  noMethod: byPartRefused('time.crank'),
};

/** Cranks where a part is unknown: its own unknowns (gc: a bringOutYourDead's unusable list), and every crank without parts. */
function partUnknownIn(part: PartSpec, f: CrankPartFigures): number {
  return (part.name === 'gc' ? f.gcUnknownIn : f.tally.part(part.name).unknownIn) + f.tally.withoutParts;
}

/** `time.PART` (`time.vat`, `time.pageIn`...): one part of the selected cranks' time, summed where it is known, µs. */
function crankPart(part: PartSpec): MetricDeclaration {
  const name = partMetricName(part.name);
  return {
    name,
    ...(name === `time.${part.name}` ? {} : { aliases: [`time.${part.name}`] }),
    unit: 'µs',
    sections: ['timeByPart'],
    label: part.within === undefined ? part.name : `${part.name} (of ${part.within})`,
    row: { subtype: part.name },
    perRound: true,
    partRowsIfAny: true,
    whole: (side) => side.parts.tally.part(part.name).micros,
    unknownIn: (side) => partUnknownIn(part, side.parts),
    parts: { vat: (side) => vatPartFigures(side, (f) => f.tally.part(part.name).micros, (f) => partUnknownIn(part, f)) },
    noMethod: byPartRefused(name),
  };
}

const CRANK_PARTS: MetricDeclaration[] = [CRANK_TIME, ...PARTS.map(crankPart)];

// ---- per busy chain block ------------------------------------------------------------

/** `blocks.*`: per busy chain block (block-figures.ts); per block already, so not divided by rounds. */
function perBlock(name: string, section: SectionID, row: MetricDeclaration['row'] & { subtype: string }, label: string, unit: Unit, pick: (f: BlockFigures) => number): MetricDeclaration {
  const refused = `${name} is per block: it cannot be scoped by vat or method (use --cranks, --vat or --blocks)`;
  return {
    name,
    unit,
    sections: [section],
    label,
    row,
    perRound: false,
    whole: (side) => (side.blocks ? pick(side.blocks) : undefined),
    noVat: refused,
    noMethod: refused,
    missing: 'neither slog has chain blocks',
  };
}

const BLOCKS: MetricDeclaration[] = [
  perBlock('blocks.busy', 'blocks', { subtype: 'busy' }, 'busy blocks', 'count', (f) => f.busy),
  perBlock('blocks.computrons.mean', 'blocks', { subtype: 'computrons', stat: 'mean' }, 'computrons mean', 'computrons', (f) => f.computrons.mean),
  perBlock('blocks.computrons.p95', 'blocks', { subtype: 'computrons', stat: 'p95' }, 'computrons p95', 'computrons', (f) => f.computrons.p95),
  perBlock('blocks.time.mean', 'blockTime', { subtype: 'time', stat: 'mean' }, 'time mean', 'µs', (f) => f.time.mean),
  perBlock('blocks.time.p95', 'blockTime', { subtype: 'time', stat: 'p95' }, 'time p95', 'µs', (f) => f.time.p95),
];

// ---- growth ---------------------------------------------------------------------------

/** The kernel's figures `growth.*` reads, in the order of `slogulate growth`'s kernel table. */
export const GROWTH_FIGURES = ['clistEntries', 'kernelObjects', 'kernelPromises', 'kpUnresolved'] as const;

/**
 * The kernel row of a figure as `slogulate growth` reports it: from the
 * kernel's own kernel-stats entries where the slog has them, else counted
 * from the c-lists (growth-result.ts); undefined: the side was read without
 * growth, or has no such figure.
 */
export function growthKernelFigure(growth: GrowthResult | undefined, figure: string): FigureChange | undefined {
  if (!growth) return undefined;
  const rows = growth.kernel.kernelStats.length ? growth.kernel.kernelStats : growth.kernel.model;
  return rows.find((c) => c.figure === figure);
}

/**
 * `growth.FIGURE`: the kernel's figure's least-squares slope per period
 * (benchmark round where the slog marks rounds, else chain block), as
 * `slogulate growth` prints it; the whole slog, whatever the selection.
 * Undefined for a side without periods (or with one point only).
 */
function growthSlope(figure: (typeof GROWTH_FIGURES)[number]): MetricDeclaration {
  const name = `growth.${figure}`;
  const refused = `${name} is the kernel's, per round or block: it cannot be scoped by vat or method`;
  return {
    name,
    unit: 'count',
    sections: ['growth'],
    label: figure,
    row: { subtype: figure },
    // Per period already (a slope), not divided by the round count.
    perRound: false,
    whole: (side) => growthKernelFigure(side.growth, figure)?.perPeriod ?? undefined,
    noVat: refused,
    noMethod: refused,
    missing: 'neither slog has benchmark rounds or chain blocks to measure growth over',
  };
}

const GROWTH: MetricDeclaration[] = GROWTH_FIGURES.map(growthSlope);

/**
 * Every metric, in the order docs/compare.md and the `--fail-on` grammar list
 * them; within a section, its rows come in this order.
 */
export const METRIC_DECLARATIONS: readonly MetricDeclaration[] = [
  ...CRANKS,
  DELIVERIES,
  ...SYSCALLS,
  REPLAYS,
  COMPUTRONS,
  ...TIME_STATS.map(deliveryTime),
  ...CRANK_PARTS,
  ...BLOCKS,
  ...GROWTH,
];

/** The `.TYPE` of a family's name. */
const FAMILY = '.TYPE';

export const isFamily = (d: MetricDeclaration): boolean => d.name.endsWith(FAMILY);

/** A family's metric for one type: `syscalls.TYPE` and `send` give `syscalls.send`. */
export const familyMember = (d: MetricDeclaration, type: string): string => `${d.name.slice(0, -FAMILY.length)}.${type}`;

/** A metric's declaration by name (or alias), and for a family member its type; undefined: no such metric. */
export function declarationNamed(name: string): { declaration: MetricDeclaration; type?: string } | undefined {
  const exact = METRIC_DECLARATIONS.find((d) => !isFamily(d) && (d.name === name || d.aliases?.includes(name)));
  if (exact) return { declaration: exact };
  for (const d of METRIC_DECLARATIONS) {
    if (!isFamily(d)) continue;
    const prefix = familyMember(d, '');
    if (name.startsWith(prefix) && name.length > prefix.length) return { declaration: d, type: name.slice(prefix.length) };
  }
  return undefined;
}

/** The breakdown that answers a scope naming these fields: the smallest the metric has that has them all. */
export function breakdownFor(d: MetricDeclaration, fields: { vat: boolean; method: boolean; type: boolean }): Breakdown | undefined {
  const has = (f: ReadonlyArray<string>): boolean => (!fields.vat || f.includes('vat')) && (!fields.method || f.includes('method')) && (!fields.type || f.includes('type'));
  return BREAKDOWN_FIELDS.find(([b, f]) => d.parts?.[b] !== undefined && has(f))?.[0];
}

/** Can a `vat=` / `method=` scope apply to the metric (some breakdown has the field)? */
export const takesScope = (d: MetricDeclaration, field: 'vat' | 'method'): boolean =>
  BREAKDOWN_FIELDS.some(([b, f]) => d.parts?.[b] !== undefined && f.includes(field));

/** Which metric, and which of one side's parts, a threshold looks at. */
export interface SideQuery {
  declaration: MetricDeclaration;
  /** A family member's type (`send` of `syscalls.send`). */
  type?: string;
  /** A vat ID (`v9`) or name, as a vat is named on this side. */
  vat?: string;
  method?: string;
}

/** Does a part belong to the query's scope (its vat named by ID or name)? */
function inScope(p: Part, q: SideQuery): boolean {
  return (
    (q.vat === undefined || p.vatID === q.vat || p.vatName === q.vat) &&
    (q.method === undefined || p.method === q.method) &&
    (q.type === undefined || p.type === q.type)
  );
}

/**
 * How many cranks of one side a metric's value in a scope leaves out because
 * the figure is unknown there (crank time by part); 0 for other metrics.
 */
export function sideUnknownIn(side: SideData, q: SideQuery): number {
  const d = q.declaration;
  if (!d.unknownIn) return 0;
  if (q.vat === undefined) return d.unknownIn(side);
  return (d.parts?.vat?.(side) ?? []).filter((p) => inScope(p, q)).reduce((n, p) => n + (p.unknownIn ?? 0), 0);
}

/**
 * One side's value of a metric in a scope (per round where the metric is);
 * undefined when the side has nothing the scope names. Parts in scope add up,
 * but a statistic takes the first.
 */
export function sideValue(side: SideData, q: SideQuery): number | undefined {
  const d = q.declaration;
  let value: number | undefined;
  const fields = { vat: q.vat !== undefined, method: q.method !== undefined, type: q.type !== undefined };
  if (!fields.vat && !fields.method && !fields.type) {
    value = d.whole?.(side);
  } else {
    const breakdown = breakdownFor(d, fields);
    // The parser refuses a scope no breakdown has.
    const parts = breakdown === undefined ? [] : (d.parts?.[breakdown]?.(side) ?? []).filter((p) => inScope(p, q));
    if (!parts.length) return undefined;
    value = d.statistic ? ((parts[0] as Part).value ?? 0) : parts.reduce((n, p) => n + (p.value ?? 0), 0);
  }
  if (value === undefined) return undefined;
  return d.perRound ? value / divisor(side) : value;
}
