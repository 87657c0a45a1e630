/**
 * One side of `slogulate compare` (the base or the head slog), collected in
 * one streaming pass: the `SlogAggregator` (issue 3's aggregate), plus what
 * a scoped threshold needs beyond it (syscalls by vat, method and type;
 * delivery times by method across vats), and crank time by part (in all and
 * per vat), optionally only inside the benchmark's rounds (`RoundFilter`).
 *
 *     // run/analyses.ts: feeds `side.sink` one pass over the slog, and hands back `side.result()`
 *     const { data } = await compareSideOf({ inputs: ['base.slog'], side: { slog: 'base.slog', selection, vatNames, rounds } });
 *
 * Memory: bounded by the number of vats, methods and syscall types (and the
 * distinct whole-µs delivery times per method), never by the slog's size.
 */
import type { CrankSink } from '../../model/assembler.js';
import type { ExecutionSink } from '../../model/executions.js';
import type { Crank, DeliveryTimes } from '../../model/crank.js';
import { isReplay, syscallName, type CrankItem } from '../../model/crank.js';
import type { DeliverEntry, DeliverResultEntry, SlogEntry } from '../../scan/entry-types.js';
import { AGGREGATE_READS, NO_VAT, SlogAggregator, type SlogAggregate } from '../stats/aggregate.js';
import { BusyBlocks, type BlockFigures } from './block-figures.js';
import { deliveryMethod } from '../common/delivery-method.js';
import { MicrosHistogram, type DurationStats } from '../common/histogram.js';
import { PartsTally } from '../common/parts-tally.js';
import { RoundFilter, type Round, type Rounds } from '../common/rounds.js';
import { SelectedCranks } from '../common/selected-cranks.js';
import { CrankSelection, type SelectionSpec } from '../common/selection.js';
import { GROWTH_READS, GrowthCollector } from '../growth/growth.js';
import { growthResult, type GrowthResult } from '../growth/growth-result.js';
import { mergeReads } from '../../scan/reads.js';

/** The method key of syscalls made before any delivery of their crank. */
export const NO_METHOD = '<none>';

export interface SideConfig {
  /** The slog's name as shown (and in round-mark errors). */
  slog: string;
  selection?: SelectionSpec;
  vatNames?: ReadonlyMap<string, string>;
  /** Count only cranks inside benchmark rounds (`--round-marks`). */
  rounds?: Rounds;
  /** Read round marks from the slog's console entries (false when they came from a console log). */
  marksInSlog?: boolean;
  /**
   * Follow growth (analyses/growth/) in the same pass: the `growth.*`
   * metrics. Its reader must read GROWTH_READS too (COMPARE_GROWTH_READS).
   */
  growth?: boolean;
}

export interface SideData {
  slog: string;
  aggregate: SlogAggregate;
  /** Every crank of the slog, in a round or not, selected or not. */
  cranksSeen: number;
  /** The rounds, when comparing per round. */
  rounds?: Round[];
  /** vatID -> method -> syscall type -> count (syscalls with or without a result). */
  syscalls: Map<string, Map<string, Map<string, number>>>;
  /** method -> delivery times (µs) across every vat. */
  methodTimes: Map<string, DurationStats>;
  /** Per busy chain block (block-figures.ts); absent for a slog without chain blocks. */
  blocks?: BlockFigures;
  /** Crank time by part (docs/time-split.md) of every selected crank, routing cranks too (all kernel time). */
  parts: CrankPartFigures;
  /** The same per vat: the delivery cranks of each vat. */
  partsByVat: Map<string, CrankPartFigures>;
  /**
   * What `slogulate growth` reports of the whole slog (every crank, whatever
   * the selection and rounds: a c-list is the sum of all that came before);
   * absent unless the side was read with `growth`.
   */
  growth?: GrowthResult;
}

/** Crank time by part of a group of cranks. */
export interface CrankPartFigures {
  tally: PartsTally;
  /**
   * Cranks where a bringOutYourDead delivery's GC time is unknown (its worker
   * list is unusable): the tally takes their gc for absent, as in a crank
   * without a bringOutYourDead.
   */
  gcUnknownIn: number;
}

/**
 * The crank has parts and a bringOutYourDead delivery whose GC time is
 * unknown. A loop, not `some` with a closure: it runs for every crank of
 * both sides (Array.prototype.some and its calls were 64M instructions of
 * `compare` on big-local-1200).
 */
function gcUnknown(crank: Crank): boolean {
  if (crank.parts === undefined) return false;
  const times = crank.deliveryTimes;
  for (let i = 0; i < times.length; i += 1) {
    const d = times[i] as DeliveryTimes;
    if (d.dispatch === 'bringOutYourDead' && d.gcMicros === undefined) return true;
  }
  return false;
}

/** Adds one crank's parts to a group's figures; `gcUnknownIn` counts it when its GC time is unknown (gcUnknown). */
function addParts(figures: CrankPartFigures, crank: Crank, unknownGc: boolean): void {
  figures.tally.add(crank.parts);
  if (unknownGc) figures.gcUnknownIn += 1;
}

/** Crank time by part of the selected cranks: in all, and per vat (delivery cranks with a vat). */
class PartFigures {
  readonly all: CrankPartFigures = { tally: new PartsTally(), gcUnknownIn: 0 };
  readonly byVat = new Map<string, CrankPartFigures>();

  add(crank: Crank): void {
    const unknownGc = gcUnknown(crank);
    addParts(this.all, crank, unknownGc);
    if (crank.crankType === 'routing' || crank.vatID === undefined) return;
    let vat = this.byVat.get(crank.vatID);
    if (!vat) {
      vat = { tally: new PartsTally(), gcUnknownIn: 0 };
      this.byVat.set(crank.vatID, vat);
    }
    addParts(vat, crank, unknownGc);
  }
}

/** A crank's syscalls folded at its spills: method -> syscall type -> count, and the method its last spill ended in. */
interface SpilledCounts {
  methods: Map<string, Map<string, number>>;
  method: string;
}

/** Adds one to `type` under `method`. */
function countSyscall(methods: Map<string, Map<string, number>>, method: string, type: string): void {
  let types = methods.get(method);
  if (!types) {
    types = new Map();
    methods.set(method, types);
  }
  types.set(type, (types.get(type) ?? 0) + 1);
}

/** Counts syscalls by vat+method+type and times deliveries by method, for selected cranks. */
class ScopedCounts {
  readonly syscalls = new Map<string, Map<string, Map<string, number>>>();
  readonly methodTimes = new Map<string, MicrosHistogram>();
  private readonly spilled = new WeakMap<Crank, SpilledCounts>();

  /** The open crank spills (model/assembler.ts): its held syscalls are counted apart, by the method they ran under. */
  fold(crank: Crank): void {
    let folded = this.spilled.get(crank);
    if (!folded) {
      folded = { methods: new Map(), method: NO_METHOD };
      this.spilled.set(crank, folded);
    }
    const items = crank.items;
    // The items a spill saw before are the crank's other entries: the method goes on from where that spill left it.
    for (let i = crank.spilled ?? 0; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      if (isReplay(item)) continue;
      if (item.kind === 'syscall') countSyscall(folded.methods, folded.method, syscallName(item));
      else if (item.entry.type === 'deliver') folded.method = deliveryMethod(item.entry as DeliverEntry);
    }
  }

  add(crank: Crank): void {
    if (crank.crankType === 'routing') return;
    const vatID = crank.vatID ?? NO_VAT;
    let methods = this.syscalls.get(vatID);
    if (!methods) {
      methods = new Map();
      this.syscalls.set(vatID, methods);
    }
    const folded = crank.spilled === undefined ? undefined : this.spilled.get(crank);
    if (folded) {
      for (const [method, types] of folded.methods) for (const [type, n] of types) {
        let mine = methods.get(method);
        if (!mine) {
          mine = new Map();
          methods.set(method, mine);
        }
        mine.set(type, (mine.get(type) ?? 0) + n);
      }
    }
    let method = NO_METHOD;
    let pending: DeliverEntry | undefined;
    for (const item of crank.items) {
      // A vat paged in: its replayed transcript is not this crank's work.
      if (isReplay(item)) continue;
      if (item.kind === 'syscall') {
        let types = methods.get(method);
        if (!types) {
          types = new Map();
          methods.set(method, types);
        }
        const type = syscallName(item);
        types.set(type, (types.get(type) ?? 0) + 1);
        continue;
      }
      const entry: SlogEntry = item.entry;
      if (entry.type === 'deliver') {
        pending = entry as DeliverEntry;
        method = deliveryMethod(pending);
      } else if (entry.type === 'deliver-result' && pending) {
        // Same pairing and time as the aggregate's per-vat+method times.
        const micros = (((entry as DeliverResultEntry).time ?? NaN) - (pending.time ?? NaN)) * 1_000_000;
        let times = this.methodTimes.get(method);
        if (!times) {
          times = new MicrosHistogram();
          this.methodTimes.set(method, times);
        }
        times.addMicros(micros);
        pending = undefined;
      }
    }
  }
}

/** Hands every entry and crank to each of several sinks (each of them spills: the aggregator, the scoped counts' front, the blocks). */
class Tee implements CrankSink {
  constructor(private readonly sinks: CrankSink[]) {}
  entry(entry: SlogEntry, line: number): void {
    for (const s of this.sinks) s.entry(entry, line);
  }
  crank(crank: Crank): void {
    for (const s of this.sinks) s.crank(crank);
  }
  spill(crank: Crank): void {
    for (const s of this.sinks) s.spill?.(crank);
  }
}

/** Round marks read from a benchmark's console log (all known before the slog), marked on growth's own rounds. */
function markRounds(into: Rounds, from: Rounds): void {
  for (const r of from.all) {
    into.noteMark({ benchmark: r.benchmark, round: r.round, edge: 'start', crank: r.start }, 'the console log');
    if (r.end !== undefined) into.noteMark({ benchmark: r.benchmark, round: r.round, edge: 'end', crank: r.end }, 'the console log');
  }
}

/** What one side of `compare` reads: the aggregate's fields (syscall names and delivery methods included). */
export const COMPARE_READS = AGGREGATE_READS;

/** The same, and what growth reads (a side read with `growth`). */
export const COMPARE_GROWTH_READS = mergeReads(AGGREGATE_READS, GROWTH_READS);

export class CompareSide {
  /** Feed this to a pass (run/analyses.ts). */
  readonly sink: ExecutionSink;
  private readonly aggregator: SlogAggregator;
  private readonly scoped = new ScopedCounts();
  private readonly parts = new PartFigures();
  private readonly blocks: BusyBlocks;
  /** Sees every entry and crank, before the selection and the rounds. */
  private readonly growth: GrowthCollector | undefined;
  private growthResult: GrowthResult | undefined;
  private cranksSeen = 0;

  constructor(private readonly config: SideConfig) {
    this.aggregator = new SlogAggregator({ selection: config.selection, vatNames: config.vatNames });
    const scopedFront = new SelectedCranks({
      selection: config.selection,
      vatNames: config.vatNames,
      onCrank: (crank) => {
        this.scoped.add(crank);
        this.parts.add(crank);
      },
      onSpill: (crank) => this.scoped.fold(crank),
    });
    // After the aggregator in the tee: its vat names are learned before a block's crank is matched.
    const selection = new CrankSelection(config.selection ?? {}, this.aggregator.vats);
    this.blocks = new BusyBlocks((crank) => selection.matches(crank));
    const both = new Tee([this.aggregator, scopedFront, this.blocks]);
    const front = config.rounds ? new RoundFilter(config.rounds, both, config.slog, config.marksInSlog ?? true) : both;
    // Round marks out of place are the RoundFilter's to refuse (--round-marks); growth skips them, as the export does.
    const growth = config.growth ? new GrowthCollector({ slogName: config.slog, vatNames: config.vatNames, skipBadMarks: true }) : undefined;
    if (growth && config.rounds && config.marksInSlog === false) markRounds(growth.rounds, config.rounds);
    this.growth = growth;
    this.sink = {
      entry: (entry, line) => {
        growth?.entry(entry, line);
        front.entry(entry, line);
      },
      crank: (crank) => {
        this.cranksSeen += 1;
        growth?.crank(crank);
        front.crank(crank);
      },
      spill: (crank) => {
        growth?.spill(crank);
        front.spill?.(crank);
      },
      // Executions a restart abandoned: counted apart by the aggregate (whatever the rounds); they ran in their block.
      abandoned: (crank) => {
        growth?.abandoned(crank);
        this.aggregator.abandoned(crank);
        this.blocks.abandoned(crank);
      },
    };
  }

  result(): SideData {
    const methodTimes = new Map<string, DurationStats>();
    for (const [method, times] of this.scoped.methodTimes) methodTimes.set(method, times.stats());
    const data: SideData = {
      slog: this.config.slog,
      aggregate: this.aggregator.result(),
      cranksSeen: this.cranksSeen,
      syscalls: this.scoped.syscalls,
      methodTimes,
      parts: this.parts.all,
      partsByVat: this.parts.byVat,
    };
    if (this.config.rounds) data.rounds = this.config.rounds.all;
    const blocks = this.blocks.result();
    if (blocks) data.blocks = blocks;
    if (this.growth) {
      // The open round or block ends with the slog (once: result() may be asked again).
      this.growthResult ??= (this.growth.end(), growthResult(this.growth, this.config.slog));
      data.growth = this.growthResult;
    }
    return data;
  }
}
