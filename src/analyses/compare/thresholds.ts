/**
 * Regression thresholds for `slogulate compare --fail-on EXPR`:
 *
 *     EXPR   := METRIC [",vat=" VAT] [",method=" METHOD] ":" LIMIT
 *     LIMIT  := "+" NUMBER ["%"] | "max=" ["-"] NUMBER
 *
 * exactly (docs/compare.md): no spaces around the parts, and the limit's `+`
 * is required (`cranks:5` and `cranks: +0` are refused).
 *
 * `computrons:+5%` fails when the head's computrons exceed the base's by more
 * than 5%; `syscalls:+0` when the head makes any syscall more; `+N` allows an
 * increase of N (in the metric's unit: a count, computrons, or µs for times).
 * Exactly at the limit passes; only going over it fails. A percentage limit on
 * a metric whose base is 0 fails as soon as the head is above 0.
 *
 * `max=N` bounds the head's own value, whatever the base's:
 * `growth.clistEntries:max=0` fails when the head's c-list grows per round.
 *
 * This module parses expressions and evaluates them against base and head
 * values; where the values come from is `MetricLookup` (see compare.ts).
 * The metrics, and the scopes each takes, are declared in metrics.ts.
 */
import { editDistance } from '../common/edit-distance.js';
import { PARTS } from '../../model/parts.js';
import { declarationNamed, familyMember, isFamily, METRIC_DECLARATIONS, partMetricName, takesScope, TIME_STATS, type MetricDeclaration, type TimeStat } from './metrics.js';

export type { TimeStat };

/**
 * Every spelling of a metric `--fail-on` takes (`syscalls.TYPE`: any syscall
 * type), in the order docs/compare.md lists them (a test holds the docs, the
 * grammar and this together).
 */
export const METRICS: readonly string[] = METRIC_DECLARATIONS.flatMap((d) => [...(d.aliases ?? []), d.name]);

/** A metric as a threshold names it. */
export interface Metric {
  /** The canonical name: `cranks.delivery`, `syscalls.send`, `time.p95`, `computrons`... */
  name: string;
  /** Its first part: `cranks`, `syscalls`, `time`, `blocks`... */
  kind: string;
  /** cranks: `delivery`, `routing`, `abandoned` (absent: all); syscalls: the syscall type (absent: all); blocks: `busy`, `computrons`, `time`. */
  subtype?: string;
  /** time and blocks: which statistic. */
  stat?: TimeStat;
  declaration: MetricDeclaration;
}

export interface Scope {
  /** A vat ID (`v9`), a vat name, or an ID on one side (`v9@head`; see vat-match.ts). */
  vat?: string;
  /** A delivery method (`makeInvitation`), or a delivery kind (`notify`, `bringOutYourDead`...). */
  method?: string;
}

export interface Limit {
  /** How much the head may exceed the base: a number, or a percentage of the base; `absolute`: the most the head may be. */
  amount: number;
  percent: boolean;
  /** `max=N`: the head's value may be at most `amount`, whatever the base's. */
  absolute?: boolean;
}

export interface Threshold {
  /** The expression as given. */
  text: string;
  metric: Metric;
  scope: Scope;
  limit: Limit;
}

export class ThresholdError extends Error {}

/** The parts of crank time as metrics, `time.pageIn (or time.page-in)` where a part has another spelling. */
const PART_METRICS = PARTS.map((p) => {
  const name = partMetricName(p.name);
  return name === `time.${p.name}` ? name : `${name} (or time.${p.name})`;
});

/** Shown with every malformed expression. */
export const THRESHOLD_GRAMMAR = [
  'expected METRIC[,vat=VAT][,method=METHOD]:LIMIT',
  '  METRIC: cranks, cranks.delivery, cranks.routing, cranks.abandoned (executions a restart abandoned), deliveries,',
  '          syscalls, syscalls.TYPE (send, vatstoreGet...), replays (deliveries replayed by vats paged in),',
  '          blocks.busy, blocks.computrons.mean, blocks.computrons.p95, blocks.time.mean, blocks.time.p95',
  '          (chain slogs: per block that ran cranks; time: end-block time, µs),',
  `          computrons, time (= time.total), ${TIME_STATS.map((s) => `time.${s}`).join(', ')} (delivery times, µs),`,
  `          time.crank, ${PART_METRICS.slice(0, 4).join(', ')},`,
  `          ${PART_METRICS.slice(4).join(', ')} (crank time by part, µs)`,
  '          growth.clistEntries, growth.kernelObjects, growth.kernelPromises, growth.kpUnresolved (the kernel\'s, per round or block)',
  '  LIMIT:  +N (the head may exceed the base by N) or +N% (by N percent of the base); the + is required, no spaces;',
  '          max=N: the head may be at most N, whatever the base (N may be negative)',
  "  e.g. 'computrons:+5%'  'syscalls:+0'  'time.p95:+20%'  'deliveries,vat=v9,method=makeInvitation:+0'  'growth.clistEntries:max=0'",
].join('\n');

/**
 * Metric names close to a word that is none: within two edits of it, or of
 * its kind (`crank` -> every `cranks.*`; `time.p42` -> every `time.*`), a
 * family's member for a misspelt kind (`syscall.send` -> `syscalls.send`).
 */
export function closeMetricNames(text: string): string[] {
  const kind = (name: string): string => name.split('.')[0] as string;
  const rest = text.slice(kind(text).length + 1);
  const close: Array<{ name: string; edits: number }> = [];
  for (const declaration of METRIC_DECLARATIONS) {
    for (const spelling of [...(declaration.aliases ?? []), declaration.name]) {
      const sameKind = editDistance(kind(text).toLowerCase(), kind(spelling).toLowerCase()) <= 1;
      const name = isFamily(declaration) && sameKind && rest ? familyMember(declaration, rest) : spelling;
      const edits = editDistance(text.toLowerCase(), name.toLowerCase());
      if ((edits <= 2 || sameKind) && name !== text && !close.some((c) => c.name === name)) close.push({ name, edits });
    }
  }
  // Misspellings first, closest first; then the rest of the kind, in the order of the declarations.
  const rank = (edits: number): number => Math.min(edits, 3);
  return close.sort((a, b) => rank(a.edits) - rank(b.edits)).map((c) => c.name);
}

function metricFrom(text: string): Metric {
  const named = declarationNamed(text);
  if (!named) {
    if (!text) throw new ThresholdError('no metric');
    const close = closeMetricNames(text).slice(0, 8);
    const hint = close.length ? ` (did you mean ${close.length > 1 ? `${close.slice(0, -1).join(', ')} or ${close.at(-1)}` : close[0]}?)` : '';
    throw new ThresholdError(`unknown metric "${text}"${hint}`);
  }
  const { declaration: d, type } = named;
  const name = type === undefined ? d.name : text;
  const row = type === undefined ? (d.row ?? {}) : { subtype: type };
  return { name, kind: name.split('.')[0] as string, ...row, declaration: d };
}

const NUMBER = '(\\d+(?:\\.\\d+)?|\\.\\d+)';
/** `+N` or `+N%`, nothing else. */
const LIMIT = new RegExp(`^\\+${NUMBER}(%?)$`);
/** `max=N`: a bound on the head's own value. */
const MAX_LIMIT = new RegExp(`^max=(-?)${NUMBER}$`);

function limitFrom(text: string): Limit {
  const m = LIMIT.exec(text);
  if (m) return { amount: Number(m[1]), percent: m[2] === '%' };
  const max = MAX_LIMIT.exec(text);
  if (max) return { amount: Number(`${max[1]}${max[2]}`) || 0, percent: false, absolute: true };
  if (!text) throw new ThresholdError('no limit after ":"');
  if (text.startsWith('max')) throw new ThresholdError(`bad limit "${text}" (write max=N: the most the head may be, a number)`);
  if (text !== text.trim()) throw new ThresholdError(`space around the limit "${text}" (write it as +N or +N%, right after the ":")`);
  if (/^-/.test(text)) throw new ThresholdError(`limit "${text}" is negative (a limit is how much the head may exceed the base)`);
  if (new RegExp(`^${NUMBER}%?$`).test(text)) throw new ThresholdError(`limit "${text}" needs a "+" (+${text}: how much the head may exceed the base)`);
  throw new ThresholdError(`bad limit "${text}"`);
}

/** Refuses a part of the expression with spaces before or after it (the grammar has none). */
function unspaced(text: string, what: string): string {
  if (text !== text.trim()) throw new ThresholdError(`space around ${what} "${text}" (the expression has no spaces around its parts)`);
  return text;
}

/** Parses one `--fail-on` expression; throws ThresholdError (the message does not include the grammar). */
export function parseThreshold(text: string): Threshold {
  const colon = text.lastIndexOf(':');
  if (colon < 0) throw new ThresholdError('no ":" before the limit');
  const limit = limitFrom(text.slice(colon + 1));
  const [metricText = '', ...scopeParts] = text.slice(0, colon).split(',');
  const metric = metricFrom(unspaced(metricText, 'the metric'));
  const scope: Scope = {};
  for (const raw of scopeParts) {
    const part = unspaced(raw, 'the scope');
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : part.slice(eq + 1);
    if (key !== 'vat' && key !== 'method') throw new ThresholdError(`unknown scope "${part}" (vat=VAT or method=METHOD)`);
    if (!value) throw new ThresholdError(`empty ${key}= scope`);
    unspaced(value, `the ${key}=`);
    if (scope[key] !== undefined) throw new ThresholdError(`${key}= given twice`);
    scope[key] = value;
  }
  const d = metric.declaration;
  if (scope.method !== undefined && !takesScope(d, 'method')) throw new ThresholdError(d.noMethod ?? `${metric.name} takes no method=`);
  if (scope.vat !== undefined && !takesScope(d, 'vat')) throw new ThresholdError(d.noVat ?? `${metric.name} takes no vat=`);
  return { text, metric, scope, limit };
}

/** A threshold's scope and metric, written back in the expression syntax (without the limit). */
export function metricKey(metric: { name: string }, scope: Scope = {}): string {
  let key = metric.name;
  if (scope.vat !== undefined) key += `,vat=${scope.vat}`;
  if (scope.method !== undefined) key += `,method=${scope.method}`;
  return key;
}

export function limitText(limit: Limit): string {
  if (limit.absolute) return `max=${limit.amount}`;
  return `+${limit.amount}${limit.percent ? '%' : ''}`;
}

/** The base and head values of a metric (per round when comparing rounds). */
export interface MetricValues {
  base: number;
  head: number;
  /** Crank time by part: the cranks of each side the values leave out because the figure is unknown there (absent: none). */
  unknownIn?: { base: number; head: number };
}

/** Finds a metric's values; undefined when the scope matches nothing in either slog. */
export type MetricLookup = (metric: Metric, scope: Scope) => MetricValues | undefined;

export interface ThresholdResult {
  threshold: Threshold;
  base: number;
  head: number;
  delta: number;
  /** delta / base as a percentage; null when the base is 0 (and the head is not). */
  deltaPercent: number | null;
  exceeded: boolean;
  /** The cranks of each side whose figure is unknown, left out of its value (a partial sum); absent: none. */
  unknownIn?: { base: number; head: number };
}

/** delta / base in percent; 0 when both are 0, null when only the base is. */
export function deltaPercent(base: number, head: number): number | null {
  if (base === 0) return head === 0 ? 0 : null;
  return ((head - base) / base) * 100;
}

/**
 * Is `head` over the limit? `+N`: head - base > N. `+N%`: head - base > N% of
 * base, computed as (head - base) * 100 > N * base so that a value exactly at
 * the limit is not pushed over it by a division. `max=N`: head > N.
 */
export function exceeds(base: number, head: number, limit: Limit): boolean {
  if (limit.absolute) return head > limit.amount;
  const delta = head - base;
  return limit.percent ? delta * 100 > limit.amount * base : delta > limit.amount;
}

export function evaluateThreshold(threshold: Threshold, lookup: MetricLookup): ThresholdResult {
  const values = lookup(threshold.metric, threshold.scope);
  if (!values) {
    throw new ThresholdError(`${metricKey(threshold.metric, threshold.scope)} matches nothing in either slog`);
  }
  const { base, head, unknownIn } = values;
  return {
    threshold,
    base,
    head,
    delta: head - base,
    deltaPercent: deltaPercent(base, head),
    exceeded: exceeds(base, head, threshold.limit),
    ...(unknownIn !== undefined && (unknownIn.base > 0 || unknownIn.head > 0) ? { unknownIn } : {}),
  };
}
