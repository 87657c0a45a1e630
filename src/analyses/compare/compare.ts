/**
 * `slogulate compare BASE HEAD`: what changed between two runs, side by side.
 *
 * Sections, deterministic counts first, then the (noisy) wall-clock times:
 * cranks (all, delivery, routing), deliveries by vat, deliveries by
 * vat+method, syscalls by type, computrons by vat (when either slog has
 * them), and delivery times (total, mean, p95) for all deliveries and per
 * vat+method. Every row has a `key` in the `--fail-on` syntax
 * (`deliveries,vat=v9,method=makeInvitation`), so a row seen in the report is
 * a threshold one can write.
 *
 * Per round (`--round-marks`): counts, computrons and total times are divided
 * by each side's round count; means and percentiles are per delivery already.
 *
 * Vats are matched by name where both slogs name them, by ID otherwise
 * (vat-match.ts): two runs that created their vats in another order still
 * compare bob with bob. Each vat row says how its vat was matched, and the
 * comparison lists every vat's match.
 *
 * The JSON form (`COMPARE_JSON_VERSION`) is documented in docs/compare.md,
 * "The JSON report"; it changes only with a new version number.
 */
import { compareVatIDs, type DeliveryStats, type SlogAggregate } from '../stats/aggregate.js';
import { byText } from '../common/text-order.js';
import { VatMatching, VatScopeError, type Side, type VatMatch, type VatMatchBy } from '../common/vat-match.js';
import type { BlockFigures } from './block-figures.js';
import type { SideData } from './compare-side.js';
import type { DurationStats } from '../common/histogram.js';
import {
  deltaPercent,
  evaluateThreshold,
  limitText,
  metricKey,
  type Metric,
  type MetricLookup,
  type MetricValues,
  type Scope,
  type Threshold,
  type ThresholdResult,
  type TimeStat,
  ThresholdError,
} from './thresholds.js';

export const COMPARE_JSON_FORMAT = 'slogulate-compare';
/**
 * 2: vats matched by name (rows' baseVatID, headVatID, vatMatch; the `vats`
 * list). Added within version 2 (new sections, no field renamed or removed):
 * `replays`; `blocks` and `blockTime` (chain slogs: per busy block).
 */
export const COMPARE_JSON_VERSION = 2;

export type SectionID =
  | 'cranks'
  | 'deliveriesByVat'
  | 'deliveriesByVatMethod'
  | 'syscallsByType'
  | 'computronsByVat'
  | 'replays'
  | 'blocks'
  | 'time'
  | 'blockTime';

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
  /** syscalls: the syscall type; cranks: `delivery` / `routing`. */
  subtype?: string;
  /** time rows: which statistic. */
  stat?: TimeStat;
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
  unit: 'count' | 'computrons' | 'µs';
  rows: CompareRow[];
}

export interface SideSummary {
  slog: string;
  /** The selection in words (`all cranks`, `cranks 7215-7495`). */
  selection: string;
  cranksSeen: number;
  cranksSelected: number;
  /** Round count when comparing per round; null otherwise. */
  rounds: number | null;
  /** Every round read, when comparing per round. */
  roundList?: Array<{ benchmark: string; round: number; start: number; end: number | null; cranks: number }>;
  /** Does the slog report computrons (XS workers)? */
  hasComputrons: boolean;
}

/** One vat of either slog, and how it was matched. */
export interface VatPair {
  /**
   * How rows and `--fail-on` name it: its ID; its name when its IDs differ, or
   * when its ID is another vat's on the other side (`v6@head` if it has no name).
   */
  key: string;
  vatName?: string;
  /** Its ID in each slog; null where the slog does not have it. */
  base: string | null;
  head: string | null;
  matchedBy: VatMatchBy;
}

export interface Comparison {
  base: SideSummary;
  head: SideSummary;
  perRound: boolean;
  /** Every vat, in the head's vat order, and how it was matched. */
  vats: VatPair[];
  sections: CompareSection[];
}

/** The JSON document `compare --format json` prints. */
export interface CompareJson extends Comparison {
  format: typeof COMPARE_JSON_FORMAT;
  version: typeof COMPARE_JSON_VERSION;
  thresholds: Array<{
    expression: string;
    metric: string;
    limit: string;
    base: number;
    head: number;
    delta: number;
    deltaPercent: number | null;
    exceeded: boolean;
  }>;
  /** How many thresholds were exceeded (the exit status is 1 when > 0). */
  exceeded: number;
}

/** A side's divisor: its round count when comparing per round, else 1. */
function divisor(side: SideData): number {
  return side.rounds ? Math.max(1, side.rounds.length) : 1;
}

function summary(side: SideData): SideSummary {
  const agg = side.aggregate;
  const s: SideSummary = {
    slog: side.slog,
    selection: agg.selection,
    cranksSeen: side.cranksSeen,
    cranksSelected: agg.cranks.selected,
    rounds: side.rounds ? side.rounds.length : null,
    hasComputrons: agg.computrons !== undefined,
  };
  if (side.rounds) {
    s.roundList = side.rounds.map((r) => ({ benchmark: r.benchmark, round: r.round, start: r.start, end: r.end ?? null, cranks: r.cranks }));
  }
  return s;
}

function row(key: string, base: number, head: number, fields: Partial<CompareRow> = {}): CompareRow {
  return { key, ...fields, base, head, delta: head - base, deltaPercent: deltaPercent(base, head) };
}

/** One side's vats: ID -> name (undefined: none), from every per-vat figure it has. */
function sideVats(side: SideData): Map<string, string | undefined> {
  const vats = new Map<string, string | undefined>();
  const add = (vatID: string | undefined, name: string | undefined): void => {
    if (vatID === undefined) return;
    if (!vats.has(vatID) || (vats.get(vatID) === undefined && name !== undefined)) vats.set(vatID, name);
  };
  for (const r of side.aggregate.vats) add(r.vatID, r.vatName);
  for (const r of side.aggregate.deliveriesByVat) add(r.vatID, r.vatName);
  for (const r of side.aggregate.deliveriesByVatMethod) add(r.vatID, r.vatName);
  for (const r of side.aggregate.replays) add(r.vatID, r.vatName);
  for (const vatID of side.syscalls.keys()) add(vatID, undefined);
  return vats;
}

/** Which vat of the head is which vat of the base (see vat-match.ts). */
export function matchVats(base: SideData, head: SideData): VatMatching {
  return new VatMatching(sideVats(base), sideVats(head));
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

const byVatThen = (a: { vatID?: string }, b: { vatID?: string }): number => compareVatIDs(a.vatID ?? '', b.vatID ?? '');

/** Pairs base and head rows by key (each side keyed its own way). */
function unionKeys<T>(base: T[], head: T[], baseKey: (t: T) => string, headKey: (t: T) => string): Array<[string, T | undefined, T | undefined]> {
  const map = new Map<string, [T | undefined, T | undefined]>();
  for (const t of base) map.set(baseKey(t), [t, undefined]);
  for (const t of head) {
    const k = headKey(t);
    const pair = map.get(k);
    if (pair) pair[1] = t;
    else map.set(k, [undefined, t]);
  }
  return [...map].map(([k, [b, h]]) => [k, b, h]);
}

/** Row keys of both sides: the matched vat (and the method). */
class Keys {
  constructor(readonly vats: VatMatching) {}
  vat(side: Side, r: { vatID?: string }): VatMatch {
    return this.vats.of(side, r.vatID ?? '');
  }
  /** How rows and `--fail-on` name a vat (vat-match.ts, `keyOf`): one vat's on both sides. */
  key(m: VatMatch): string {
    return this.vats.keyOf(m);
  }
  byVat(side: Side): (r: { vatID?: string }) => string {
    return (r) => this.key(this.vat(side, r));
  }
  byVatMethod(side: Side): (r: DeliveryStats) => string {
    return (r) => `${this.key(this.vat(side, r))}\u0000${r.method ?? ''}`;
  }
  /** The match of a pair of rows. */
  pair(br: { vatID?: string } | undefined, hr: { vatID?: string } | undefined): VatMatch {
    return hr ? this.vat('head', hr) : this.vat('base', br as { vatID?: string });
  }
}

function crankSection(b: SlogAggregate, h: SlogAggregate, bd: number, hd: number): CompareSection {
  const m = (name: string, subtype?: string): Metric => (subtype ? { name, kind: 'cranks', subtype } : { name, kind: 'cranks' });
  const rows = [
    row(metricKey(m('cranks')), b.cranks.selected / bd, h.cranks.selected / hd),
    row(metricKey(m('cranks.delivery', 'delivery')), b.cranks.delivery / bd, h.cranks.delivery / hd, { subtype: 'delivery' }),
    row(metricKey(m('cranks.routing', 'routing')), b.cranks.routing / bd, h.cranks.routing / hd, { subtype: 'routing' }),
  ];
  // Executions a restart abandoned (and ran again): counted apart, not above; shown where a side has some.
  if (b.abandoned.cranks || h.abandoned.cranks) {
    rows.push(row(metricKey(m('cranks.abandoned', 'abandoned')), b.abandoned.cranks / bd, h.abandoned.cranks / hd, { subtype: 'abandoned' }));
  }
  return { id: 'cranks', title: 'Cranks', deterministic: true, unit: 'count', rows };
}

/**
 * Transcript replays (vats paged in), per vat: not deliveries of any crank
 * (SLOG-FORMAT.md, "Replays"), so apart from the rows above: how many
 * deliveries each vat replayed. Their time is in the time section's crank
 * totals, not here.
 */
function replaysByVat(b: SlogAggregate, h: SlogAggregate, bd: number, hd: number, keys: Keys): CompareSection {
  const metric: Metric = { name: 'replays', kind: 'replays' };
  const rows = unionKeys(b.replays, h.replays, keys.byVat('base'), keys.byVat('head'))
    .map(([, br, hr]) => {
      const vat = keys.pair(br, hr);
      return row(metricKey(metric, { vat: keys.key(vat) }), (br?.deliveries ?? 0) / bd, (hr?.deliveries ?? 0) / hd, vatFields(vat));
    })
    .sort(byVatThen);
  const total = (agg: SlogAggregate): number => agg.replays.reduce((n, r) => n + r.deliveries, 0);
  rows.push(row(metricKey(metric), total(b) / bd, total(h) / hd));
  return { id: 'replays', title: 'Replayed deliveries by vat (vats paged in; not counted above)', deterministic: true, unit: 'count', rows };
}

function deliveriesByVat(b: SlogAggregate, h: SlogAggregate, bd: number, hd: number, keys: Keys): CompareSection {
  const metric: Metric = { name: 'deliveries', kind: 'deliveries' };
  const rows = unionKeys(b.deliveriesByVat, h.deliveriesByVat, keys.byVat('base'), keys.byVat('head'))
    .map(([, br, hr]) => {
      const vat = keys.pair(br, hr);
      return row(metricKey(metric, { vat: keys.key(vat) }), (br?.count ?? 0) / bd, (hr?.count ?? 0) / hd, vatFields(vat));
    })
    .sort(byVatThen);
  rows.push(row(metricKey(metric), b.deliveries.count / bd, h.deliveries.count / hd));
  return { id: 'deliveriesByVat', title: 'Deliveries by vat', deterministic: true, unit: 'count', rows };
}

function deliveriesByVatMethod(b: SlogAggregate, h: SlogAggregate, bd: number, hd: number, keys: Keys): CompareSection {
  const metric: Metric = { name: 'deliveries', kind: 'deliveries' };
  const rows = unionKeys(b.deliveriesByVatMethod, h.deliveriesByVatMethod, keys.byVatMethod('base'), keys.byVatMethod('head'))
    .map(([, br, hr]) => {
      const vat = keys.pair(br, hr);
      const method = (hr ?? br)?.method ?? '';
      return row(metricKey(metric, { vat: keys.key(vat), method }), (br?.count ?? 0) / bd, (hr?.count ?? 0) / hd, { ...vatFields(vat), method });
    })
    .sort((x, y) => byVatThen(x, y) || byText(x.method ?? '', y.method ?? ''));
  return { id: 'deliveriesByVatMethod', title: 'Deliveries by vat and method', deterministic: true, unit: 'count', rows };
}

function syscallsByType(b: SlogAggregate, h: SlogAggregate, bd: number, hd: number): CompareSection {
  const all = (s: { count: number; unanswered: number } | undefined): number => (s ? s.count + s.unanswered : 0);
  const byType = (s: { type: string }): string => s.type;
  const rows = unionKeys(b.syscallsByType, h.syscallsByType, byType, byType)
    .map(([type, bs, hs]) => row(`syscalls.${type}`, all(bs) / bd, all(hs) / hd, { subtype: type }))
    .sort((x, y) => Math.max(y.base, y.head) - Math.max(x.base, x.head) || byText(x.subtype ?? '', y.subtype ?? ''));
  rows.push(row('syscalls', all(b.syscalls) / bd, all(h.syscalls) / hd));
  return { id: 'syscallsByType', title: 'Syscalls by type', deterministic: true, unit: 'count', rows };
}

function computronsByVat(b: SlogAggregate, h: SlogAggregate, bd: number, hd: number, keys: Keys): CompareSection {
  const metric: Metric = { name: 'computrons', kind: 'computrons' };
  const rows = unionKeys(
    b.deliveriesByVat.filter((r) => r.computrons !== undefined),
    h.deliveriesByVat.filter((r) => r.computrons !== undefined),
    keys.byVat('base'),
    keys.byVat('head'),
  )
    .map(([, br, hr]) => {
      const vat = keys.pair(br, hr);
      return row(metricKey(metric, { vat: keys.key(vat) }), (br?.computrons ?? 0) / bd, (hr?.computrons ?? 0) / hd, vatFields(vat));
    })
    .sort(byVatThen);
  rows.push(row(metricKey(metric), (b.computrons ?? 0) / bd, (h.computrons ?? 0) / hd));
  return { id: 'computronsByVat', title: 'Computrons by vat', deterministic: true, unit: 'computrons', rows };
}

/** The time statistics the report shows for each vat+method. */
export const REPORTED_TIME_STATS: readonly TimeStat[] = ['total', 'mean', 'p95'];

function statValue(stats: DurationStats | undefined, stat: TimeStat, div: number): number {
  if (!stats) return 0;
  return stat === 'total' ? stats.total / div : stats[stat];
}

function timeSection(b: SlogAggregate, h: SlogAggregate, bd: number, hd: number, keys: Keys): CompareSection {
  const rows: CompareRow[] = [];
  for (const stat of REPORTED_TIME_STATS) {
    const metric: Metric = { name: `time.${stat}`, kind: 'time', stat };
    rows.push(row(metricKey(metric), statValue(b.deliveries, stat, bd), statValue(h.deliveries, stat, hd), { stat }));
  }
  const pairs = unionKeys(b.deliveriesByVatMethod, h.deliveriesByVatMethod, keys.byVatMethod('base'), keys.byVatMethod('head'))
    .map(([, br, hr]) => ({ br, hr, vat: keys.pair(br, hr), method: (hr ?? br)?.method ?? '' }))
    .sort(
      (x, y) =>
        Math.max((y.br?.total ?? 0) / bd, (y.hr?.total ?? 0) / hd) - Math.max((x.br?.total ?? 0) / bd, (x.hr?.total ?? 0) / hd) ||
        byVatThen({ vatID: x.vat.head ?? x.vat.base }, { vatID: y.vat.head ?? y.vat.base }) ||
        byText(x.method, y.method),
    );
  for (const { br, hr, vat, method } of pairs) {
    for (const stat of REPORTED_TIME_STATS) {
      const metric: Metric = { name: `time.${stat}`, kind: 'time', stat };
      rows.push(
        row(metricKey(metric, { vat: keys.key(vat), method }), statValue(br, stat, bd), statValue(hr, stat, hd), {
          ...vatFields(vat),
          method,
          stat,
        }),
      );
    }
  }
  return { id: 'time', title: 'Delivery times (wall clock: noisy)', deterministic: false, unit: 'µs', rows };
}

/**
 * Per busy chain block (block-figures.ts), where either slog has chain
 * blocks: how many, and their computrons (deterministic), then the time
 * SwingSet worked on each (noisy). Not divided by rounds: per block already.
 */
function blockSections(base: SideData, head: SideData): { counts: CompareSection; time: CompareSection } | undefined {
  const b = base.blocks;
  const h = head.blocks;
  if (!b && !h) return undefined;
  const value = (f: BlockFigures | undefined, pick: (f: BlockFigures) => number): number => (f ? pick(f) : 0);
  const r = (name: string, pick: (f: BlockFigures) => number, fields: Partial<CompareRow>): CompareRow => row(name, value(b, pick), value(h, pick), fields);
  return {
    counts: {
      id: 'blocks',
      title: 'Per busy block (chain blocks that ran cranks)',
      deterministic: true,
      unit: 'computrons',
      rows: [
        r('blocks.busy', (f) => f.busy, { subtype: 'busy' }),
        r('blocks.computrons.mean', (f) => f.computrons.mean, { subtype: 'computrons', stat: 'mean' }),
        r('blocks.computrons.p95', (f) => f.computrons.p95, { subtype: 'computrons', stat: 'p95' }),
      ],
    },
    time: {
      id: 'blockTime',
      title: 'End-block time per busy block (wall clock: noisy)',
      deterministic: false,
      unit: 'µs',
      rows: [r('blocks.time.mean', (f) => f.time.mean, { subtype: 'time', stat: 'mean' }), r('blocks.time.p95', (f) => f.time.p95, { subtype: 'time', stat: 'p95' })],
    },
  };
}

function vatPair(m: VatMatch, vats: VatMatching): VatPair {
  return { key: vats.keyOf(m), ...(m.name === undefined ? {} : { vatName: m.name }), base: m.base ?? null, head: m.head ?? null, matchedBy: m.by };
}

export function compareSides(base: SideData, head: SideData): Comparison {
  const b = base.aggregate;
  const h = head.aggregate;
  const bd = divisor(base);
  const hd = divisor(head);
  const vats = matchVats(base, head);
  const keys = new Keys(vats);
  const sections = [
    crankSection(b, h, bd, hd),
    deliveriesByVat(b, h, bd, hd, keys),
    deliveriesByVatMethod(b, h, bd, hd, keys),
    syscallsByType(b, h, bd, hd),
  ];
  if (b.computrons !== undefined || h.computrons !== undefined) sections.push(computronsByVat(b, h, bd, hd, keys));
  // Only where a replay replayed something: every vat replays an empty transcript when it is created.
  if ([...b.replays, ...h.replays].some((r) => r.deliveries > 0)) sections.push(replaysByVat(b, h, bd, hd, keys));
  const blocks = blockSections(base, head);
  if (blocks) sections.push(blocks.counts);
  sections.push(timeSection(b, h, bd, hd, keys));
  if (blocks) sections.push(blocks.time);
  return {
    base: summary(base),
    head: summary(head),
    perRound: base.rounds !== undefined || head.rounds !== undefined,
    vats: vats.all().map((m) => vatPair(m, vats)),
    sections,
  };
}

// ---- threshold lookups -------------------------------------------------------

/** Does a row's vat match a `vat=` scope (an ID or a name)? */
const vatMatches = (r: { vatID?: string; vatName?: string }, vat: string | undefined): boolean =>
  vat === undefined || r.vatID === vat || r.vatName === vat;
const methodMatches = (r: { method?: string }, method: string | undefined): boolean => method === undefined || r.method === method;

/** One side's value of a metric; undefined when the scope matches nothing on this side. */
function sideValue(side: SideData, metric: Metric, scope: Scope): number | undefined {
  const agg = side.aggregate;
  const div = divisor(side);
  const { vat, method } = scope;
  const scoped = vat !== undefined || method !== undefined;
  switch (metric.kind) {
    case 'cranks': {
      if (vat === undefined) {
        const n =
          metric.subtype === 'delivery'
            ? agg.cranks.delivery
            : metric.subtype === 'routing'
              ? agg.cranks.routing
              : metric.subtype === 'abandoned'
                ? agg.abandoned.cranks
                : agg.cranks.selected;
        return n / div;
      }
      const rows = agg.vats.filter((r) => vatMatches(r, vat));
      return rows.length ? rows.reduce((n, r) => n + r.cranks, 0) / div : undefined;
    }
    case 'deliveries':
    case 'computrons': {
      const pick = (r: DeliveryStats): number => (metric.kind === 'deliveries' ? r.count : (r.computrons ?? 0));
      if (!scoped) return pick(agg.deliveries) / div;
      const rows =
        method === undefined
          ? agg.deliveriesByVat.filter((r) => vatMatches(r, vat))
          : agg.deliveriesByVatMethod.filter((r) => vatMatches(r, vat) && methodMatches(r, method));
      return rows.length ? rows.reduce((n, r) => n + pick(r), 0) / div : undefined;
    }
    case 'syscalls': {
      const type = metric.subtype;
      if (!scoped) {
        const s = type === undefined ? agg.syscalls : agg.syscallsByType.find((r) => r.type === type);
        return s ? (s.count + s.unanswered) / div : undefined;
      }
      let matched = false;
      let n = 0;
      for (const [vatID, methods] of side.syscalls) {
        if (!vatMatches({ vatID, vatName: agg.vats.find((r) => r.vatID === vatID)?.vatName }, vat)) continue;
        for (const [m, types] of methods) {
          if (!methodMatches({ method: m }, method)) continue;
          for (const [t, count] of types) {
            if (type !== undefined && t !== type) continue;
            matched = true;
            n += count;
          }
        }
      }
      return matched ? n / div : undefined;
    }
    case 'replays': {
      const rows = agg.replays.filter((r) => vatMatches(r, vat));
      if (scoped && !rows.length) return undefined;
      return rows.reduce((n, r) => n + r.deliveries, 0) / div;
    }
    case 'blocks': {
      const f = side.blocks;
      if (!f) return undefined;
      if (metric.subtype === 'busy') return f.busy;
      const stats = metric.subtype === 'computrons' ? f.computrons : f.time;
      return metric.stat === 'p95' ? stats.p95 : stats.mean;
    }
    case 'time': {
      const stat = metric.stat ?? 'total';
      let stats: DurationStats | undefined;
      if (!scoped) stats = agg.deliveries;
      else if (method === undefined) stats = agg.deliveriesByVat.find((r) => vatMatches(r, vat));
      else if (vat === undefined) stats = side.methodTimes.get(method);
      else stats = agg.deliveriesByVatMethod.find((r) => vatMatches(r, vat) && methodMatches(r, method));
      return stats ? statValue(stats, stat, div) : undefined;
    }
  }
}

/**
 * Values for thresholds; a metric found on one side only is 0 on the other.
 * A `vat=` scope names a matched vat (its key, name or an ID, see
 * vat-match.ts): each side is looked up under its own ID for it.
 */
export function comparisonLookup(base: SideData, head: SideData): MetricLookup {
  const vats = matchVats(base, head);
  return (metric: Metric, scope: Scope): MetricValues | undefined => {
    let match: VatMatch | undefined;
    if (scope.vat !== undefined) {
      try {
        match = vats.scoped(scope.vat);
      } catch (err) {
        if (err instanceof VatScopeError) throw new ThresholdError(err.message);
        throw err;
      }
    }
    const lookup = (side: SideData, vatID: string | undefined): number | undefined => {
      if (!match) return sideValue(side, metric, scope);
      return vatID === undefined ? undefined : sideValue(side, metric, { ...scope, vat: vatID });
    };
    const b = lookup(base, match?.base);
    const h = lookup(head, match?.head);
    if (b === undefined && h === undefined) {
      if (metric.kind === 'blocks') throw new ThresholdError(`${metric.name}: neither slog has chain blocks`);
      // An unscoped total exists even when empty: only scopes and syscall types can miss.
      return undefined;
    }
    return { base: b ?? 0, head: h ?? 0 };
  };
}

export function evaluateThresholds(thresholds: Threshold[], base: SideData, head: SideData): ThresholdResult[] {
  const lookup = comparisonLookup(base, head);
  return thresholds.map((t) => evaluateThreshold(t, lookup));
}

export function compareJson(comparison: Comparison, results: ThresholdResult[]): CompareJson {
  return {
    format: COMPARE_JSON_FORMAT,
    version: COMPARE_JSON_VERSION,
    ...comparison,
    thresholds: results.map((r) => ({
      expression: r.threshold.text,
      metric: metricKey(r.threshold.metric, r.threshold.scope),
      limit: limitText(r.threshold.limit),
      base: r.base,
      head: r.head,
      delta: r.delta,
      deltaPercent: r.deltaPercent,
      exceeded: r.exceeded,
    })),
    exceeded: results.filter((r) => r.exceeded).length,
  };
}
