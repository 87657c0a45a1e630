/**
 * Whole-slog aggregates in one streaming pass: crank counts, the wall span,
 * syscalls by type, deliveries by vat and by vat+method, per-vat crank counts
 * and computrons. `slogulate stats` prints them; `slogulate compare` diffs two.
 *
 * Usage (one pass, memory bounded by the number of keys: syscall types, vats,
 * vat+method pairs, and the distinct whole-µs durations of each): `statsOf`
 * (run/analyses.ts) runs the pass with a SlogAggregator as its sink, each
 * crank counted once after a restart (model/executions.ts), and returns its
 * result:
 *
 *     const { aggregate } = await statsOf({ inputs: [file], selection: spec, annotations });
 *
 * The aggregator is a complete CrankSink: it learns vat names from every entry
 * and crank itself (no `observe` hook needed), and only selected cranks count.
 *
 * Definitions (every time in the result is in MICROSECONDS):
 * - a syscall's time is its syscall-result's time minus its syscall's (as in
 *   the `--timing` text); a syscall without a result is counted in
 *   `unanswered` and left out of the times; a total of syscall times adds
 *   up each crank's first, then the cranks' (so that a crank of many
 *   syscalls, which spills them as it goes, model/assembler.ts, adds up to
 *   the same bits);
 * - a delivery is one `deliver` entry and its `deliver-result` (a crank can hold
 *   more than one: a message then a bringOutYourDead before a heap snapshot);
 *   its time is deliver-result.time - deliver.time, its computrons the
 *   deliver-result's `dr[2].compute`; a deliver without a result (the slog
 *   ended inside it) is left out;
 * - a delivery's method: see `deliveryMethod` (message method, else the
 *   delivery kind: `notify`, `startVat`, `bringOutYourDead`, `dropExports`...);
 * - per-vat crank counts classify each delivery crank by its first delivery:
 *   `deliver` (a message), `notify`, or `other` (startVat, bringOutYourDead,
 *   dropExports, ...); the crank time is crank-finish minus crank-start, as in
 *   `slogulate top`;
 * - where the crank time went (docs/time-split.md): each selected crank's
 *   parts (`crank.parts`, whole µs) summed, over all cranks, per vat and for
 *   routing cranks (crank-parts.ts); heap snapshots per vat (snapshot-tally.ts,
 *   counted as replays are); GC per vat (gc-tally.ts); page-ins per vat
 *   beside the replays (replays.ts); the stalls, when the pass feeds
 *   `observe` (stall-list.ts: over the whole slog, whatever the selection).
 */
import type { CrankSink, ModelPlace } from '../../model/assembler.js';
import type { Crank, CrankItem, SyscallPair } from '../../model/crank.js';
import { isDelivery, isReplay, syscallName } from '../../model/crank.js';
import { vatOf } from '../../scan/entry-types.js';
import { ReplayTally, type ReplayStats } from './replays.js';
import type { DeliverEntry, DeliverResultEntry, LineFacts, SlogEntry } from '../../scan/entry-types.js';
import { DELIVERY_METHOD_READS, deliveryClass, deliveryMethod } from '../common/delivery-method.js';
import { mergeReads, type Reads } from '../../scan/reads.js';
import { MicrosHistogram, type DurationStats } from '../common/histogram.js';
import { SelectedCranks, SPAN_READS, type TimeSpan } from '../common/selected-cranks.js';
import type { SelectionSpec } from '../common/selection.js';
import { byText } from '../common/text-order.js';
import { TriggerTally, type TriggerStats } from './triggers.js';
import { CrankPartsTally, partsStats, type CrankPartsStats, type VatCrankPartsStats } from './crank-parts.js';
import { SnapshotTally, type SnapshotStats } from './snapshot-tally.js';
import { GcTally, type GcStats } from './gc-tally.js';
import { StallList, type StallStats } from './stall-list.js';

export type { DurationStats } from '../common/histogram.js';
export type { TimeSpan } from '../common/selected-cranks.js';
export type { TriggerStats } from './triggers.js';
export type { CrankPartsStats, PartRow, VatCrankPartsStats } from './crank-parts.js';
export type { SnapshotStats } from './snapshot-tally.js';
export type { GcStats } from './gc-tally.js';
export type { StallStats } from './stall-list.js';

/** The vat key used for a delivery crank whose vat the slog does not say. */
export { NO_VAT } from '../../model/vats.js';
import { NO_VAT } from '../../model/vats.js';

export interface CrankCounts {
  /** Every crank in the slog, selected or not. */
  seen: number;
  /** Cranks the selection kept; the rest of the aggregate counts only these. */
  selected: number;
  delivery: number;
  routing: number;
  /** Selected cranks the slog ends inside (no crank-finish); also counted in delivery/routing. */
  unfinished: number;
}

/** One syscall type (`send`, `vatstoreGet`, ...), or all of them (`type: '*'`). */
export interface SyscallStats extends DurationStats {
  type: string;
  /** Syscalls of this type without a syscall-result (not in count or times). */
  unanswered: number;
}

/** Deliveries of one vat (method undefined), one vat+method, or all (vatID undefined). */
export interface DeliveryStats extends DurationStats {
  vatID?: string;
  /** The vat's name (annotations win, then create-vat names), if it has one. */
  vatName?: string;
  method?: string;
  /** This row's total / the total time of all selected deliveries (0..1). */
  share: number;
  /** Sum of the deliveries' computrons; absent when none of them reported any. */
  computrons?: number;
}

/** The cranks of one vat. */
export interface VatCrankStats {
  vatID: string;
  vatName?: string;
  /** Delivery cranks whose first delivery is a message / a notify / anything else. */
  deliver: number;
  notify: number;
  other: number;
  cranks: number;
  /** Sum of the finished cranks' total times, µs. */
  crankTime: number;
  /** Sum of the computrons of the vat's deliveries; absent when none reported any. */
  computrons?: number;
}

export interface SlogAggregate {
  /** The selection in words: `all cranks`, `cranks 7215-7495 and vat v46`. */
  selection: string;
  cranks: CrankCounts;
  /** From the slog's first entry time to its last (whatever the selection). */
  slogSpan?: TimeSpan;
  /** From the first selected crank's start to the last selected crank's last entry. */
  selectedSpan?: TimeSpan;
  /** Times of finished selected delivery cranks (crank-finish - crank-start). */
  deliveryCranks: DurationStats;
  /** Times of finished selected routing cranks. */
  routingCranks: DurationStats;
  /** Every syscall of the selected cranks (`type: '*'`). */
  syscalls: SyscallStats;
  /** One row per syscall type, by total time (largest first), then name. */
  syscallsByType: SyscallStats[];
  /** Every delivery of the selected cranks (share 1). */
  deliveries: DeliveryStats;
  /** One row per vat, by total time (largest first), then vat. */
  deliveriesByVat: DeliveryStats[];
  /** One row per vat and method, by total time (largest first), then vat and method. */
  deliveriesByVatMethod: DeliveryStats[];
  /** One row per vat with delivery cranks, in vat order (v1, v2, ..., v10). */
  vats: VatCrankStats[];
  /** Sum of every selected delivery's computrons; absent when the slog has none. */
  computrons?: number;
  /** Cranks, deliveries and computrons by the trigger of the chain run they ran in (empty for a slog without runs). */
  deliveriesByTrigger: TriggerStats[];
  /** Transcript replays (vats paged in), per vat: not counted above; with each vat's page-ins (cranks with page-in time). */
  replays: ReplayStats[];
  /** Where the time of the selected cranks (delivery and routing) went: each part summed (docs/time-split.md). */
  crankParts: CrankPartsStats;
  /** The same for each vat's delivery cranks, in vat order. */
  crankPartsByVat: VatCrankPartsStats[];
  /** The same for the routing cranks (all kernel). */
  routingCrankParts: CrankPartsStats;
  /** Heap snapshots saved and loaded, per vat, in vat order. */
  snapshotsByVat: SnapshotStats[];
  /** bringOutYourDead deliveries and their GC time, per vat, in vat order. */
  gcByVat: GcStats[];
  /** Gaps of more than `gapSeconds` between consecutive entries (the whole slog); absent when the pass did not look (`observe` not fed). */
  stalls?: StallStats;
  /** Crank executions a restart abandoned (run again after it): not counted above. */
  abandoned: AbandonedStats;
}

/** The executions a restart abandoned, counted apart. */
export interface AbandonedStats {
  cranks: number;
  deliveries: number;
  syscalls: number;
  /** Their crank time, µs. */
  crankTime: number;
}

export interface SlogAggregatorConfig {
  selection?: SelectionSpec;
  /** Names that win over the slog's (an annotation file's `vatNames`). */
  vatNames?: ReadonlyMap<string, string>;
  /** Look for stalls of more than this many seconds, in the entries given to `observe` (default: STALL_SECONDS). */
  stallSeconds?: number;
}

class DeliveryAcc {
  readonly times = new MicrosHistogram();
  computrons: number | undefined;

  add(micros: number, computrons: number | undefined): void {
    this.times.addMicros(micros);
    this.addComputrons(computrons);
  }

  /** Computrons of a delivery the slog shows only the end of (a lone deliver-result). */
  addComputrons(computrons: number | undefined): void {
    if (computrons !== undefined) this.computrons = (this.computrons ?? 0) + computrons;
  }
}

class SyscallAcc {
  readonly times = new MicrosHistogram();
  unanswered = 0;
  /**
   * The time of this type's syscalls in the crank being added, µs: the
   * total takes it once per crank, so that a crank adds up the same whether
   * it spilled or not (floating-point sums depend on their order).
   */
  crankMicros = 0;
  inCrank = false;
}

/** A crank's syscalls folded at its spills (model/assembler.ts): all, and by type. */
class SpilledSyscalls {
  readonly all = new SyscallAcc();
  readonly byType = new Map<string, SyscallAcc>();

  add(pair: SyscallPair): void {
    const type = syscallName(pair);
    let acc = this.byType.get(type);
    if (!acc) {
      acc = new SyscallAcc();
      this.byType.set(type, acc);
    }
    if (pair.result) {
      acc.times.addSeconds(pair.seconds);
      this.all.times.addSeconds(pair.seconds);
    } else {
      acc.unanswered += 1;
      this.all.unanswered += 1;
    }
  }
}

interface VatAcc {
  deliver: number;
  notify: number;
  other: number;
  crankTime: number;
  computrons: number | undefined;
}

/** Orders vat IDs by number: v1, v2, v10; anything else after, by name. */
export function compareVatIDs(a: string, b: string): number {
  const na = /^v(\d+)$/.exec(a);
  const nb = /^v(\d+)$/.exec(b);
  if (na && nb) return Number(na[1]) - Number(nb[1]);
  if (na) return -1;
  if (nb) return 1;
  return byText(a, b);
}

/** What the aggregate reads of crank entries (besides the crank model's own reads). */
export const AGGREGATE_READS: Reads = mergeReads(SPAN_READS, {
  'crank-start': [],
  'crank-finish': [],
  syscall: ['name'],
  'syscall-result': [],
  deliver: [...DELIVERY_METHOD_READS],
  'deliver-result': ['computrons'],
  clist: [],
});

export class SlogAggregator implements CrankSink {
  private readonly front: SelectedCranks;
  private readonly counts = { delivery: 0, routing: 0, unfinished: 0 };
  private readonly deliveryCrankTimes = new MicrosHistogram();
  private readonly routingCrankTimes = new MicrosHistogram();
  private readonly allSyscalls = new SyscallAcc();
  private readonly syscallTypes = new Map<string, SyscallAcc>();
  private readonly allDeliveries = new DeliveryAcc();
  private readonly byVat = new Map<string, DeliveryAcc>();
  /** vatID -> method -> deliveries. */
  private readonly byVatMethod = new Map<string, Map<string, DeliveryAcc>>();
  private readonly vatCranks = new Map<string, VatAcc>();
  private readonly replays = new ReplayTally();
  private readonly triggers = new TriggerTally();
  private readonly parts = new CrankPartsTally();
  private readonly snapshots = new SnapshotTally();
  private readonly gc = new GcTally();
  private readonly stalls: StallList;
  /** Has `observe` seen an entry (the stalls are known)? */
  private observed = false;
  private readonly abandonedRuns: AbandonedStats = { cranks: 0, deliveries: 0, syscalls: 0, crankTime: 0 };
  /** The syscall accumulators the crank being added touched, the first `touchedCount` (their crankMicros go to their totals at its end). A count, not `length = 0`: an array's length set in optimised code is a generic store, some 450 instructions per crank. */
  private readonly touched: SyscallAcc[] = [];
  private touchedCount = 0;
  /** Cranks that spilled: their syscalls so far (added in if the crank is selected). */
  private readonly spilled = new WeakMap<Crank, SpilledSyscalls>();

  constructor(config: SlogAggregatorConfig = {}) {
    const front: SelectedCranks = new SelectedCranks({
      selection: config.selection,
      vatNames: config.vatNames,
      onCrank: (crank) => this.add(crank),
      onSpill: (crank) => this.fold(crank),
    });
    this.front = front;
    this.stalls = new StallList(config.stallSeconds);
  }

  /**
   * Every entry of the slog, in order, before the crank model (the pass's
   * `observe` hook): finds the stalls. Without it the aggregate has no
   * `stalls`.
   */
  observe(entry: SlogEntry, place: ModelPlace, facts: Readonly<LineFacts>): void {
    this.observed = true;
    this.stalls.observe(entry, place, facts);
  }

  /** The open crank spills: its held syscalls are folded apart (model/assembler.ts). */
  spill(crank: Crank): void {
    this.front.spill?.(crank);
  }

  private fold(crank: Crank): void {
    let folded = this.spilled.get(crank);
    if (!folded) {
      folded = new SpilledSyscalls();
      this.spilled.set(crank, folded);
    }
    const items = crank.items;
    for (let i = crank.spilled ?? 0; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      // A vat paged in: its replayed transcript is not this crank's work.
      if (item.kind === 'syscall' && !item.replay) folded.add(item);
    }
  }

  /** The vat names learned so far (annotations first). */
  get vats(): SelectedCranks['vats'] {
    return this.front.vats;
  }

  entry(entry: SlogEntry): void {
    this.front.entry(entry);
    if (this.front.selection.isAll || this.front.selection.hasVat(vatOf(entry))) {
      this.replays.entry(entry);
      this.snapshots.entry(entry);
    }
  }

  crank(crank: Crank): void {
    this.front.crank(crank);
  }

  /** An execution a restart abandoned: counted apart. */
  abandoned(crank: Crank): void {
    if (!this.front.selection.matches(crank)) return;
    const a = this.abandonedRuns;
    a.cranks += 1;
    a.syscalls += crank.timing.syscallCount;
    for (const item of crank.items) if (item.kind === 'entry' && item.entry.type === 'deliver' && !isReplay(item)) a.deliveries += 1;
    if (crank.finish && Number.isFinite(crank.timing.total)) a.crankTime += crank.timing.total * 1_000_000;
  }

  private add(crank: Crank): void {
    const delivery = isDelivery(crank);
    if (!crank.finish) this.counts.unfinished += 1;
    this.parts.add(crank, delivery);
    if (!delivery) {
      this.counts.routing += 1;
      if (crank.finish) this.routingCrankTimes.addSeconds(crank.timing.total);
      this.triggers.add(crank, 0, undefined);
      return;
    }
    this.counts.delivery += 1;
    if (crank.finish) this.deliveryCrankTimes.addSeconds(crank.timing.total);
    const vatID = crank.vatID ?? NO_VAT;
    let vat = this.vatCranks.get(vatID);
    if (!vat) {
      vat = { deliver: 0, notify: 0, other: 0, crankTime: 0, computrons: undefined };
      this.vatCranks.set(vatID, vat);
    }
    vat[deliveryClass(crank.deliver)] += 1;
    this.replays.crank(crank);
    this.gc.add(crank);
    if (crank.finish && Number.isFinite(crank.timing.total)) vat.crankTime += crank.timing.total * 1_000_000;

    let pending: DeliverEntry | undefined;
    let deliveries = 0;
    let computrons: number | undefined;
    if (crank.spilled !== undefined) this.addSpilled(crank);
    const all = this.allSyscalls;
    const items = crank.items;
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      if (item.kind === 'syscall') {
        // A vat paged in: its replayed transcript is not this crank's work.
        if (!item.replay) this.addSyscall(item, all);
        continue;
      }
      // One read of the type per entry; each kind's fields read where its type is known.
      const entry = item.entry;
      switch (entry.type) {
        case 'deliver':
          if ((entry as DeliverEntry).replay === true) this.replays.entry(entry);
          else pending = entry as DeliverEntry;
          break;
        case 'deliver-result': {
          const result = entry as DeliverResultEntry;
          if (result.replay === true) break;
          if (pending) {
            this.addDelivery(vat, vatID, pending, result);
            deliveries += 1;
          } else this.addLoneResult(vat, vatID, result);
          if (result.computrons !== undefined) computrons = (computrons ?? 0) + result.computrons;
          pending = undefined;
          break;
        }
        // Only these types count in the replay and snapshot tallies (a crank's many clists go by).
        case 'start-replay':
        case 'finish-replay':
          this.replays.entry(entry);
          break;
        case 'heap-snapshot-save':
        case 'heap-snapshot-load':
          this.snapshots.entry(entry);
          break;
        default:
      }
    }
    this.triggers.add(crank, deliveries, computrons);
    this.endCrank();
  }

  /** A live syscall of a selected crank: its time to its type's and all syscalls' sums (the crank's, taken at its end). */
  private addSyscall(item: SyscallPair, all: SyscallAcc): void {
    const acc = this.syscallAcc(syscallName(item));
    if (!item.result) {
      acc.unanswered += 1;
      all.unanswered += 1;
      return;
    }
    const micros = item.seconds * 1_000_000;
    if (!acc.times.countMicros(micros)) return;
    all.times.countMicros(micros);
    if (!acc.inCrank) this.touch(acc);
    if (!all.inCrank) this.touch(all);
    acc.crankMicros += micros;
    all.crankMicros += micros;
  }

  private syscallAcc(type: string): SyscallAcc {
    let acc = this.syscallTypes.get(type);
    if (!acc) {
      acc = new SyscallAcc();
      this.syscallTypes.set(type, acc);
    }
    return acc;
  }

  private touch(acc: SyscallAcc): void {
    acc.inCrank = true;
    acc.crankMicros = 0;
    this.touched[this.touchedCount++] = acc;
  }

  /** The crank's syscall times go to the totals, one sum per accumulator. */
  private endCrank(): void {
    const touched = this.touched;
    for (let i = 0; i < this.touchedCount; i += 1) {
      const acc = touched[i] as SyscallAcc;
      acc.times.addToTotal(acc.crankMicros);
      acc.crankMicros = 0;
      acc.inCrank = false;
    }
    this.touchedCount = 0;
  }

  /** A selected crank that spilled: what its spills folded is counted, and its sums go on from there. */
  private addSpilled(crank: Crank): void {
    const folded = this.spilled.get(crank);
    if (!folded) return;
    const take = (acc: SyscallAcc, from: SyscallAcc): void => {
      acc.times.absorbCounts(from.times);
      acc.unanswered += from.unanswered;
      if (from.times.count === 0) return;
      if (!acc.inCrank) this.touch(acc);
      acc.crankMicros = from.times.total;
    };
    for (const [type, from] of folded.byType) take(this.syscallAcc(type), from);
    take(this.allSyscalls, folded.all);
  }

  /** A deliver-result whose deliver the slog lacks (it starts in the middle): not a delivery, but its computrons count. */
  private addLoneResult(vat: VatAcc, vatID: string, result: DeliverResultEntry): void {
    const computrons = result.computrons;
    if (computrons === undefined) return;
    this.allDeliveries.addComputrons(computrons);
    let perVat = this.byVat.get(vatID);
    if (!perVat) {
      perVat = new DeliveryAcc();
      this.byVat.set(vatID, perVat);
    }
    perVat.addComputrons(computrons);
    vat.computrons = (vat.computrons ?? 0) + computrons;
  }

  private addDelivery(vat: VatAcc, crankVat: string, deliver: DeliverEntry, result: DeliverResultEntry): void {
    const micros = ((result.time ?? NaN) - (deliver.time ?? NaN)) * 1_000_000;
    const computrons = result.computrons;
    const vatID = crankVat;
    const method = deliveryMethod(deliver);
    this.allDeliveries.add(micros, computrons);
    let perVat = this.byVat.get(vatID);
    if (!perVat) {
      perVat = new DeliveryAcc();
      this.byVat.set(vatID, perVat);
    }
    perVat.add(micros, computrons);
    let methods = this.byVatMethod.get(vatID);
    if (!methods) {
      methods = new Map();
      this.byVatMethod.set(vatID, methods);
    }
    let perMethod = methods.get(method);
    if (!perMethod) {
      perMethod = new DeliveryAcc();
      methods.set(method, perMethod);
    }
    perMethod.add(micros, computrons);
    if (computrons !== undefined) vat.computrons = (vat.computrons ?? 0) + computrons;
  }

  /** The aggregate so far (call after the pass; vat names are the final ones). */
  result(): SlogAggregate {
    const vats = this.front.vats;
    const allTotal = this.allDeliveries.times.total;
    const share = (total: number): number => (allTotal > 0 ? total / allTotal : 0);
    const named = (vatID: string): { vatID: string; vatName?: string } => {
      const name = vatID === NO_VAT ? undefined : vats.lookup(vatID);
      return name === undefined ? { vatID } : { vatID, vatName: name };
    };
    const delivery = (acc: DeliveryAcc, key: { vatID?: string; vatName?: string; method?: string }): DeliveryStats => {
      const stats = acc.times.stats();
      const row: DeliveryStats = { ...key, ...stats, share: share(stats.total) };
      if (acc.computrons !== undefined) row.computrons = acc.computrons;
      return row;
    };
    const syscall = (type: string, acc: SyscallAcc): SyscallStats => ({ type, ...acc.times.stats(), unanswered: acc.unanswered });
    const byTotal = <T extends DurationStats>(tiebreak: (a: T, b: T) => number) => (a: T, b: T): number =>
      b.total - a.total || tiebreak(a, b);

    const syscallsByType = [...this.syscallTypes]
      .map(([type, acc]) => syscall(type, acc))
      .sort(byTotal((a, b) => byText(a.type, b.type)));
    const deliveriesByVat = [...this.byVat]
      .map(([vatID, acc]) => delivery(acc, named(vatID)))
      .sort(byTotal((a, b) => compareVatIDs(a.vatID as string, b.vatID as string)));
    const deliveriesByVatMethod = [...this.byVatMethod]
      .flatMap(([vatID, methods]) => [...methods].map(([method, acc]) => delivery(acc, { ...named(vatID), method })))
      .sort(byTotal((a, b) => compareVatIDs(a.vatID as string, b.vatID as string) || byText(a.method, b.method)));
    const vatRows = [...this.vatCranks]
      .sort(([a], [b]) => compareVatIDs(a, b))
      .map(([vatID, acc]): VatCrankStats => {
        const row: VatCrankStats = {
          ...named(vatID),
          deliver: acc.deliver,
          notify: acc.notify,
          other: acc.other,
          cranks: acc.deliver + acc.notify + acc.other,
          crankTime: acc.crankTime,
        };
        if (acc.computrons !== undefined) row.computrons = acc.computrons;
        return row;
      });

    const aggregate: SlogAggregate = {
      selection: this.front.selection.describe(),
      cranks: {
        seen: this.front.cranksSeen,
        selected: this.front.cranksSelected,
        delivery: this.counts.delivery,
        routing: this.counts.routing,
        unfinished: this.counts.unfinished,
      },
      deliveryCranks: this.deliveryCrankTimes.stats(),
      routingCranks: this.routingCrankTimes.stats(),
      syscalls: syscall('*', this.allSyscalls),
      syscallsByType,
      deliveries: delivery(this.allDeliveries, {}),
      deliveriesByVat,
      deliveriesByVatMethod,
      vats: vatRows,
      deliveriesByTrigger: this.triggers.result(),
      replays: this.replays.rows((vatID) => vats.lookup(vatID), compareVatIDs),
      abandoned: { ...this.abandonedRuns },
      crankParts: partsStats(this.parts.all()),
      crankPartsByVat: this.parts.vatRows((vatID) => vats.lookup(vatID), compareVatIDs),
      routingCrankParts: partsStats(this.parts.routing),
      snapshotsByVat: this.snapshots.rows((vatID) => vats.lookup(vatID), compareVatIDs),
      gcByVat: this.gc.rows((vatID) => vats.lookup(vatID), compareVatIDs),
    };
    if (this.observed) aggregate.stalls = this.stalls.result();
    const slogSpan = this.front.slogSpan();
    if (slogSpan) aggregate.slogSpan = slogSpan;
    const selectedSpan = this.front.selectedSpan();
    if (selectedSpan) aggregate.selectedSpan = selectedSpan;
    if (this.allDeliveries.computrons !== undefined) aggregate.computrons = this.allDeliveries.computrons;
    return aggregate;
  }
}
