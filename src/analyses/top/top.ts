/**
 * Top-N rankings of delivery cranks (`slogulate top`): by total time, local
 * time, syscall time, syscall fraction, syscall count and computrons, and by
 * a part of the time split (vat, pipe, snapshot, page-in, kernel, gc:
 * model/parts.ts), in one pass and memory bounded by N per ranking.
 *
 * What is ranked: every selected delivery crank the slog holds whole, from
 * its start to its finish (routing cranks, a crank the slog ends inside and
 * one it begins inside have nothing comparable: the last holds only the
 * syscalls made after the slog began, and its header no figures). Cranks are ranked
 * by the figures their `--timing` header prints (whole µs, percentages with
 * two decimals), so a ranking agrees with sorting those header lines; equal
 * figures keep crank order. Each ranked crank carries its exact `--timing`
 * header, made when the crank went by, exactly as the text render prints it,
 * and the lines `top` prints: that header with what the crank did (its first
 * delivery's method or kind), and the `--parts` header likewise.
 *
 * A part ranks the cranks where it is above 0: one where it is unknown (vat
 * and pipe where a worker's list is unusable), absent (gc without a
 * bringOutYourDead) or 0 is left out of that ranking.
 */
import type { Annotations } from '../../model/annotations.js';
import { emptyAnnotations } from '../../model/annotations.js';
import type { CrankSink } from '../../model/assembler.js';
import type { Crank, CrankParts } from '../../model/crank.js';
import { isDelivery } from '../../model/crank.js';
import { partMicros, partNamed, type PartSpec } from '../../model/parts.js';
import type { DeliverEntry, SlogEntry } from '../../scan/entry-types.js';
import { withFields } from '../../scan/reads.js';
import { RenderContext } from '../../render/context.js';
import { crankHeader, crankHeaderWith, crankVatName, splitText, timingText } from '../../render/crank-text.js';
import { fixed0, round2 } from '../../render/format.js';
import { defaultRenderOptions } from '../../render/options.js';
import { DELIVERY_METHOD_READS, deliveryMethod } from '../common/delivery-method.js';
import { SelectedCranks, SPAN_READS } from '../common/selected-cranks.js';
import type { SelectionSpec } from '../common/selection.js';
import { TopN } from '../common/top-n.js';

/** The parts of the time split a ranking can sort by (model/parts.ts names). */
export type TopPartKey = 'vat' | 'pipe' | 'snapshot' | 'page-in' | 'kernel' | 'gc';

/** What a ranking sorts by (the `--by` values). */
export type TopKey = 'total' | 'local' | 'syscall' | 'syscall-fraction' | 'syscall-count' | 'computrons' | TopPartKey;

/** The rankings made when none is asked for, in the order their sections print. */
export const DEFAULT_TOP_KEYS: readonly TopKey[] = ['total', 'local', 'syscall', 'syscall-fraction', 'syscall-count', 'computrons'];

/** The parts' keys, in the split's print order. */
export const TOP_PART_KEYS: readonly TopPartKey[] = ['page-in', 'vat', 'pipe', 'snapshot', 'kernel', 'gc'];

/** Every key. */
export const TOP_KEYS: readonly TopKey[] = [...DEFAULT_TOP_KEYS, ...TOP_PART_KEYS];

/** Is it a part of the time split (ranked by it, listed by the `--parts` header)? */
export function isPartKey(key: TopKey): key is TopPartKey {
  return (TOP_PART_KEYS as readonly string[]).includes(key);
}

/** Each part key's part. */
const PART_OF: ReadonlyMap<TopKey, PartSpec> = new Map(TOP_PART_KEYS.map((k) => [k, partNamed(k) as PartSpec]));

/** Section titles: `Top 5 of 138 delivery cranks by <title>:`. */
export const TOP_TITLES: Readonly<Record<TopKey, string>> = {
  total: 'total time',
  local: 'local time (outside syscalls)',
  syscall: 'time in syscalls',
  'syscall-fraction': 'fraction of time in syscalls',
  'syscall-count': 'number of syscalls',
  computrons: 'computrons',
  'page-in': 'page-in time (bringing the vat online: worker start, snapshot load, replay)',
  vat: 'vat time (the worker running vat code)',
  pipe: 'pipe time (messages between kernel and worker)',
  snapshot: 'heap snapshot time (saving the heap, restarting the worker)',
  kernel: 'kernel time (routing, c-lists, queues, commit)',
  gc: 'GC time (bringOutYourDead)',
};

/** One ranked crank: the figures of its `--timing` header, and the header itself. */
export interface RankedCrank {
  crankNum: number;
  vatID?: string;
  /** The name its header shows. */
  vatName: string;
  /** Its annotation label, if any. */
  label?: string;
  /** Whole µs, as printed. */
  totalMicros: number;
  localMicros: number;
  syscallMicros: number;
  /** Percent of total, two decimals, as printed. */
  localPercent: number;
  syscallPercent: number;
  syscallCount: number;
  /** Absent when the crank's worker reports none. */
  computrons?: number;
  /**
   * What it did: its first delivery's method (a message) or kind (`notify`,
   * `bringOutYourDead`...), then `+kind` for each other kind of delivery it
   * made (`transfer+bringOutYourDead`); absent when the slog has no delivery of it.
   */
  method?: string;
  /** Where its time went, whole µs (docs/time-split.md); absent for a crank without its crank-start. */
  parts?: CrankParts;
  /** Its `--timing` header, as the text render prints it: `// crank 7324: v51 vaultFactory [total:21673µs local:...] 286 syscalls` */
  header: string;
  /** `top`'s line: that header with the method after the vat's name, `// crank 7324: v51 vaultFactory makeVault [total:...] 286 syscalls`. */
  line: string;
  /** Likewise with the split (the `--parts` figures, here also where they add nothing to `--timing`'s), as the rankings by a part print it. */
  partsLine: string;
}

export interface Ranking {
  key: TopKey;
  title: string;
  /** Best first; at most N. Cranks without a value for the key (no computrons) are not ranked. */
  cranks: RankedCrank[];
}

export interface TopResult {
  /** The selection in words. */
  selection: string;
  /** Finished selected delivery cranks the slog holds whole: what was ranked. */
  ranked: number;
  /** Did any ranked crank report computrons? */
  hasComputrons: boolean;
  n: number;
  rankings: Ranking[];
}

export interface TopConfig {
  /** Rankings to make, in this order; undefined: every key the slog has data for. */
  keys?: readonly TopKey[];
  /** How many cranks per ranking. */
  n: number;
  selection?: SelectionSpec;
  /** Vat names and crank labels for the headers. */
  annotations?: Annotations;
  /**
   * Told when a crank first makes a ranking, with the row made for it (one
   * per crank; a later crank may push it out again). The report keeps where
   * each ranked crank lies in the slog, in a WeakMap on the row.
   */
  onRanked?: (row: RankedCrank, crank: Crank) => void;
  /**
   * Only the rankings' text is printed (no JSON, which has every ranked
   * crank's parts): unless a ranking is by a part, no crank's time split
   * is made (CrankSink.partsUnread), and the rows have none.
   */
  textOnly?: boolean;
}

/** A crank's figures, as its `--timing` header prints them, and its parts. */
type Figures = Pick<
  RankedCrank,
  'totalMicros' | 'localMicros' | 'syscallMicros' | 'localPercent' | 'syscallPercent' | 'syscallCount' | 'computrons' | 'parts'
>;

/** A part's µs, when the crank has it and it is above 0 (else the crank is not ranked by it). */
function partFigure(row: Figures, key: TopKey): number | undefined {
  const value = row.parts === undefined ? undefined : partMicros(row.parts, PART_OF.get(key) as PartSpec);
  return value !== undefined && value > 0 ? value : undefined;
}

/** The figure a key ranks by (undefined: the crank is not ranked by it). A key of no case here is a part (TopPartKey). */
function figure(row: Figures, key: TopKey): number | undefined {
  let value: number | undefined;
  switch (key) {
    case 'total':
      value = row.totalMicros;
      break;
    case 'local':
      value = row.localMicros;
      break;
    case 'syscall':
      value = row.syscallMicros;
      break;
    case 'syscall-fraction':
      value = row.syscallPercent;
      break;
    case 'syscall-count':
      value = row.syscallCount;
      break;
    case 'computrons':
      value = row.computrons;
      break;
    default:
      return partFigure(row, key);
  }
  return value !== undefined && Number.isFinite(value) ? value : undefined;
}

/** RankedCrank.method: the first delivery's method or kind, then the kinds of the others (not `message`: their methods are not read). */
function whatItDid(crank: Crank): string | undefined {
  if (crank.deliver === undefined) return undefined;
  let text = deliveryMethod(crank.deliver);
  const seen = [crank.deliver.kind];
  // The kinds of the deliveries that got their results after the first, in order, as the time split lists
  // them (crank.deliveryTimes' dispatch): read from the entries, so that a crank without its split has them.
  let open: DeliverEntry | undefined;
  let finished = 0;
  for (const item of crank.items) {
    if (item.kind !== 'entry') continue;
    const entry = item.entry;
    if (entry.type === 'deliver') {
      if (entry.replay !== true) open = entry as DeliverEntry;
    } else if (entry.type === 'deliver-result' && entry.replay !== true && open !== undefined) {
      finished += 1;
      const kind = open.kind ?? 'unknown';
      open = undefined;
      if (finished === 1 || kind === 'message' || kind === 'unknown' || seen.includes(kind)) continue;
      seen.push(kind);
      text += `+${kind}`;
    }
  }
  return text;
}

interface Candidate {
  value: number;
  row: RankedCrank;
  /** Arrival order: the last tie-break. */
  seq: number;
}

const candidateOrder = (a: Candidate, b: Candidate): number =>
  b.value - a.value || a.row.crankNum - b.row.crankNum || a.seq - b.seq;

/**
 * Whole µs as `micros()` prints them: Number(x.toFixed(0)), without the
 * string. toFixed(0) takes the nearest integer to the exact x (the larger
 * in size on a tie, the sign put back: -0.4 gives -0, -0 gives 0), which
 * Math.round of |x| is while |x| < 2^53 (above, x is an integer already).
 */
export const wholeMicros = (seconds: number): number => {
  const x = seconds * 1_000_000;
  if (x < 0) return x > -TWO_53 ? -Math.round(-x) : Number(fixed0(x));
  // + 0: -0 gives 0, as "0" does.
  return x < TWO_53 || x !== x ? Math.round(x) + 0 : Number(fixed0(x));
};
const TWO_53 = 2 ** 53;
/** A percentage with two decimals as `percent()` prints it: Number((f * 100).toFixed(2)), without the string (round2). */
export const percent2 = (fraction: number): number => round2(fraction * 100);

/** What `top` reads of crank entries: the crank model's timings, the spans, and a delivery's method (what the crank did). */
export const TOP_READS = withFields(SPAN_READS, { deliver: DELIVERY_METHOD_READS });

export class TopCollector implements CrankSink {
  private readonly front: SelectedCranks;
  private readonly ctx: RenderContext;
  private readonly tops = new Map<TopKey, TopN<Candidate>>();
  private ranked = 0;
  private hasComputrons = false;
  /** The rankings read a crank's sums (`timing`), none of its syscalls: the crank model holds none (model/assembler.ts). */
  readonly syscallsUnread = true;
  /** Text ranked by no part prints no split (TopConfig.textOnly). */
  readonly partsUnread: boolean;
  /** What a crank would rank as, to ask each list whether it would take it (one, reused). */
  private readonly probe: Candidate = { value: 0, row: { crankNum: 0 } as RankedCrank, seq: 0 };

  constructor(private readonly config: TopConfig) {
    this.partsUnread = config.textOnly === true && !(config.keys ?? DEFAULT_TOP_KEYS).some(isPartKey);
    const annotations = config.annotations ?? emptyAnnotations();
    this.front = new SelectedCranks({
      selection: config.selection,
      vatNames: annotations.vatNames,
      onCrank: (crank) => this.add(crank),
      // The rankings read the crank's timings and header, none of its syscalls.
      onSpill: () => undefined,
    });
    this.ctx = new RenderContext({ ...defaultRenderOptions(), timing: true }, annotations, this.front.vats);
    for (const key of config.keys ?? DEFAULT_TOP_KEYS) this.tops.set(key, new TopN(config.n, candidateOrder));
  }

  entry(entry: SlogEntry): void {
    this.front.entry(entry);
  }

  crank(crank: Crank): void {
    this.front.crank(crank);
  }

  /** The open crank spills its syscalls (model/assembler.ts): only the front keeps their times. */
  spill(crank: Crank): void {
    this.front.spill?.(crank);
  }

  private add(crank: Crank): void {
    if (!isDelivery(crank) || !crank.finish || crank.opening === 'before-slog') return;
    this.ranked += 1;
    const seq = this.ranked;
    const { total, syscall, syscallCount, computrons } = crank.timing;
    if (computrons !== undefined) this.hasComputrons = true;
    const figures: Figures = {
      totalMicros: wholeMicros(total),
      localMicros: wholeMicros(total - syscall),
      syscallMicros: wholeMicros(syscall),
      // Made only for a crank that makes a list (row()): no ranking reads it.
      localPercent: NaN,
      syscallPercent: percent2(syscall / total),
      syscallCount,
    };
    if (computrons !== undefined) figures.computrons = computrons;
    if (crank.parts !== undefined) figures.parts = crank.parts;
    let row: RankedCrank | undefined;
    const probe = this.probe;
    probe.row.crankNum = crank.crankNum;
    probe.seq = seq;
    for (const [key, top] of this.tops) {
      const value = figure(figures, key);
      if (value === undefined) continue;
      probe.value = value;
      if (!top.admits(probe)) continue;
      row ??= this.row(crank, figures);
      top.offer({ value, row, seq });
    }
  }

  private row(crank: Crank, figures: Figures): RankedCrank {
    const { total, syscall } = crank.timing;
    figures.localPercent = percent2((total - syscall) / total);
    const method = whatItDid(crank);
    const row: RankedCrank = {
      crankNum: crank.crankNum,
      ...(crank.vatID === undefined ? {} : { vatID: crank.vatID }),
      vatName: crankVatName(this.ctx, crank),
      ...figures,
      ...(method === undefined ? {} : { method }),
      header: crankHeader(this.ctx, crank),
      line: crankHeaderWith(this.ctx, crank, timingText, method),
      partsLine: crankHeaderWith(this.ctx, crank, splitText, method),
    };
    const label = this.ctx.annotations.crankLabels.get(crank.crankNum);
    if (label !== undefined) row.label = label;
    this.config.onRanked?.(row, crank);
    return row;
  }

  /** The vat names learned so far (annotations first). */
  get vats(): SelectedCranks['vats'] {
    return this.front.vats;
  }

  /** Cranks seen and selected (all kinds), for "matches nothing" messages. */
  get cranksSelected(): number {
    return this.front.cranksSelected;
  }

  result(): TopResult {
    const keys = this.config.keys ?? DEFAULT_TOP_KEYS.filter((k) => k !== 'computrons' || this.hasComputrons);
    return {
      selection: this.front.selection.describe(),
      ranked: this.ranked,
      hasComputrons: this.hasComputrons,
      n: this.config.n,
      rankings: keys.map((key) => ({
        key,
        title: TOP_TITLES[key],
        cranks: (this.tops.get(key) as TopN<Candidate>).list().map((c) => c.row),
      })),
    };
  }
}
