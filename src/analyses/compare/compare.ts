/**
 * `slogulate compare BASE HEAD`: what changed between two runs, side by side.
 *
 * Sections, deterministic counts first, then the (noisy) wall-clock times:
 * cranks (all, delivery, routing), deliveries by vat, deliveries by
 * vat+method, syscalls by type, computrons by vat (when either slog has
 * them), delivery times (total, mean, p95) for all deliveries and per
 * vat+method, and crank time by part (page-in, vat, syscall, pipe, snapshot,
 * kernel...: docs/time-split.md) in all and per vat, a part unknown in some
 * cranks summed where known and said so (`unknownIn`). Every row has a `key` in the `--fail-on` syntax
 * (`deliveries,vat=v9,method=makeInvitation`), so a row seen in the report is
 * a threshold one can write. Each metric is declared once (metrics.ts), and
 * both the sections (sections.ts) and the thresholds read it from there.
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
import { VatMatching, VatScopeError, type VatMatch, type VatMatchBy } from '../common/vat-match.js';
import { NO_VAT } from '../stats/aggregate.js';
import type { SideData } from './compare-side.js';
import { isFamily, sideUnknownIn, sideValue, type SectionID } from './metrics.js';
import { compareSections, type CompareRow, type CompareSection } from './sections.js';
import {
  evaluateThreshold,
  limitText,
  metricKey,
  type Metric,
  type MetricLookup,
  type MetricValues,
  type Scope,
  type Threshold,
  type ThresholdResult,
  ThresholdError,
} from './thresholds.js';

export type { CompareRow, CompareSection, SectionID };

export const COMPARE_JSON_FORMAT = 'slogulate-compare';
/**
 * 2: vats matched by name (rows' baseVatID, headVatID, vatMatch; the `vats`
 * list). Added within version 2 (new sections, no field renamed or removed):
 * `replays`; `blocks` and `blockTime` (chain slogs: per busy block);
 * `timeByPart` (crank time by part; rows' and thresholds' `unknownIn`).
 */
export const COMPARE_JSON_VERSION = 2;

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
    /** Crank time by part: the cranks of each side whose figure is unknown, left out of its value; absent when none. */
    unknownIn?: { base: number; head: number };
  }>;
  /** How many thresholds were exceeded (the exit status is 1 when > 0). */
  exceeded: number;
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

/** One side's vats: ID -> name (undefined: none), from every per-vat figure it has. */
function sideVats(side: SideData): Map<string, string | undefined> {
  const vats = new Map<string, string | undefined>();
  const add = (vatID: string | undefined, name: string | undefined): void => {
    // `<no vat>` gathers delivery cranks that name no vat (aggregate.ts): no vat to match or list.
    if (vatID === undefined || vatID === NO_VAT) return;
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

function vatPair(m: VatMatch, vats: VatMatching): VatPair {
  return { key: vats.keyOf(m), ...(m.name === undefined ? {} : { vatName: m.name }), base: m.base ?? null, head: m.head ?? null, matchedBy: m.by };
}

export function compareSides(base: SideData, head: SideData): Comparison {
  const vats = matchVats(base, head);
  const sections = compareSections(base, head, vats);
  return {
    base: summary(base),
    head: summary(head),
    perRound: base.rounds !== undefined || head.rounds !== undefined,
    // The rows' `<no vat>` (a crank that names no vat) is no vat of either slog.
    vats: vats.all().filter((m) => (m.head ?? m.base) !== NO_VAT).map((m) => vatPair(m, vats)),
    sections,
  };
}

// ---- threshold lookups -------------------------------------------------------

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
    const type = isFamily(metric.declaration) ? metric.subtype : undefined;
    const query = { declaration: metric.declaration, ...(type === undefined ? {} : { type }), ...scope };
    const lookup = (side: SideData, vatID: string | undefined): number | undefined => {
      // A vat the matching does not know is looked up on each side as written (an ID or a name).
      if (!match) return sideValue(side, query);
      return vatID === undefined ? undefined : sideValue(side, { ...query, vat: vatID });
    };
    const inBase = lookup(base, match?.base);
    const inHead = lookup(head, match?.head);
    if (inBase === undefined && inHead === undefined) {
      if (metric.declaration.missing) throw new ThresholdError(`${metric.name}: ${metric.declaration.missing}`);
      // An unscoped total exists even when empty: only scopes and family members (syscall types) can miss.
      return undefined;
    }
    if (!metric.declaration.unknownIn) return { base: inBase ?? 0, head: inHead ?? 0 };
    // Crank time by part: the cranks where the part is unknown, which each side's sum leaves out.
    const unknown = (side: SideData, vatID: string | undefined): number =>
      !match ? sideUnknownIn(side, query) : vatID === undefined ? 0 : sideUnknownIn(side, { ...query, vat: vatID });
    return { base: inBase ?? 0, head: inHead ?? 0, unknownIn: { base: unknown(base, match?.base), head: unknown(head, match?.head) } };
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
      ...(r.unknownIn === undefined ? {} : { unknownIn: r.unknownIn }),
    })),
    exceeded: results.filter((r) => r.exceeded).length,
  };
}
