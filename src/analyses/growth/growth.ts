/**
 * `slogulate growth`: what is alive at the end of a slog (each vat's c-list
 * by kind, the kernel's objects and promises, unresolved promises, each
 * vat's heap) and how it changed per benchmark round, per chain block, or
 * per N cranks. A CrankSink: the c-lists (clist-model.ts) and promises
 * (promises.ts) change crank by crank (crank-changes.ts); the kernel's own
 * gauges come from its `kernel-stats` entries (kernel-stats.ts); the heaps
 * from deliver-results and heap snapshots (heaps.ts). Periods (periods.ts)
 * are read as the slog streams: round marks (analyses/common/rounds.ts),
 * blocks (the chain's reading, model/chain.ts), or every N cranks.
 *
 * Memory: what is alive (c-list entries, unresolved promises), a record per
 * vat, a Series per figure, and a small row per period; nothing per crank.
 */
import type { EntryObserver } from '../../model/assembler.js';
import { ChainTracker, type ChainBlock } from '../../model/chain.js';
import type { Crank } from '../../model/crank.js';
import type { ExecutionSink } from '../../model/executions.js';
import { VatNames } from '../../model/vats.js';
import type { ClistEntry, CreateVatEntry, DeliverResultEntry, SlogEntry } from '../../scan/entry-types.js';
import type { Reads } from '../../scan/reads.js';
import { consoleText, RoundMarkError, Rounds, type Round } from '../common/rounds.js';
import { CLIST_KINDS } from './clist-kinds.js';
import { ClistModel } from './clist-model.js';
import { addEntry, applyCrank, collect, newFold, type CrankFold, type GrowthState } from './crank-changes.js';
import { VatHeaps } from './heaps.js';
import { KERNEL_GAUGES, KernelStatsReading, type GaugeValues } from './kernel-stats.js';
import { figureKey, PeriodLog, type Figures, type PeriodRow, type PeriodUnit } from './periods.js';
import { UnresolvedPromises } from './promises.js';

/** What growth reads of crank entries (other types are read whole: terminate, vat-cleanup-complete, kernel-stats, heap-snapshot-save). */
export const GROWTH_READS: Reads = {
  'crank-start': ['message'],
  'crank-finish': [],
  syscall: ['name', 'ksc', 'vatID', 'replay'],
  'syscall-result': [],
  deliver: ['vatID', 'replay', 'kind', 'method', 'kd', 'vd'],
  'deliver-result': ['vatID', 'replay', 'status', 'dr'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj'],
};

export interface GrowthConfig {
  /** A period per `every` cranks (instead of rounds or blocks). */
  every?: number;
  /** The slog's name, for round-mark errors. */
  slogName?: string;
  vatNames?: ReadonlyMap<string, string>;
  /** Told of each period as it ends (the export's rows). */
  onPeriod?: (row: PeriodRow, start: Figures, end: Figures, unit: PeriodUnit) => void;
  /** A misplaced round mark is skipped (counted in `badMarks`) instead of thrown (RoundMarkError): the export, which has no usage errors to give. */
  skipBadMarks?: boolean;
}

export class GrowthCollector implements ExecutionSink, GrowthState {
  readonly partsUnread = true;
  readonly clists = new ClistModel();
  readonly promises = new UnresolvedPromises();
  readonly heaps = new VatHeaps();
  readonly kernelStats = new KernelStatsReading();
  readonly vats: VatNames;
  readonly rounds = new Rounds();
  /** Per round, per block, per N cranks: the one reported is chosen at the end (`log`). */
  readonly roundLog: PeriodLog;
  readonly blockLog: PeriodLog;
  readonly everyLog: PeriodLog | undefined;
  /** Round marks skipped (`skipBadMarks`). */
  badMarks = 0;
  /** Cranks applied; the first and last crank numbers. */
  cranks = 0;
  firstCrank: number | undefined;
  lastCrank: number | undefined;
  private readonly tracker: ChainTracker;
  private openRound: Round | undefined;
  /** What was read of a crank that spilled (model/assembler.ts): applied when it ends. */
  private readonly folds = new WeakMap<Crank, CrankFold>();
  /** The kernel-stats values when the open block began (put back if a restart abandons it). */
  private statsAtBlockOpen: GaugeValues = {};
  /** Static vats by the name the kernel created them with (the bootstrap message names their roots so). */
  private readonly staticVats = new Map<string, string>();

  constructor(private readonly config: GrowthConfig = {}) {
    this.vats = new VatNames(config.vatNames);
    this.roundLog = new PeriodLog('round', config.every === undefined ? config.onPeriod : undefined);
    this.blockLog = new PeriodLog('block', config.every === undefined ? config.onPeriod : undefined);
    this.everyLog = config.every === undefined ? undefined : new PeriodLog('cranks', config.onPeriod);
    this.tracker = new ChainTracker({
      blockOpen: (block) => this.blockOpen(block),
      blockEnd: (block) => this.blockEnd(block),
    });
  }

  /** Sees every entry as it is read (vat names). */
  readonly observe: EntryObserver = (entry) => this.vats.observe(entry);

  entry(entry: SlogEntry, line: number): void {
    this.tracker.entry(entry);
    this.noteMarks(entry, `${this.config.slogName ?? '<slog>'}:${line}`);
    if (entry.type === 'create-vat') this.noteVat(entry as CreateVatEntry);
    if (entry.type !== 'clist') return this.other(entry, NaN);
    const clist = entry as ClistEntry;
    if (clist.mode === 'drop') {
      if (typeof clist.vatID === 'string' && typeof clist.kobj === 'string') this.clists.drop(clist.vatID, clist.kobj, NaN);
    } else addEntry(this, clist, NaN, 'outside a crank');
  }

  crank(crank: Crank): void {
    for (const item of crank.items) if (item.kind === 'entry') this.noteMarks(item.entry, `${this.config.slogName ?? '<slog>'}: crank ${crank.crankNum}`);
    if (this.startsOver(crank)) {
      this.clists.reset(crank.crankNum);
      this.promises.reset();
    }
    this.placeInRound(crank.crankNum);
    if (this.everyLog && !this.everyLog.isOpen) this.everyLog.begin('', this.figures());
    applyCrank(crank, this, this.folds.get(crank));
    this.cranks += 1;
    if (Number.isFinite(crank.crankNum)) {
      this.firstCrank ??= crank.crankNum;
      this.lastCrank = crank.crankNum;
    }
    this.roundLog.crank(crank.crankNum);
    this.blockLog.crank(crank.crankNum);
    if (this.everyLog) {
      this.everyLog.crank(crank.crankNum);
      if (this.everyLog.openCranks >= (this.config.every as number)) this.everyLog.end(this.figures(), { label: crankRange });
    }
  }

  /**
   * Does the kernel start over from nothing at this crank? A restart runs
   * again the cranks the kernel had not committed (model/executions.ts);
   * one that runs again from the slog's first crank (or before it) had
   * committed none of what the slog showed: the kernel is where it was when
   * the slog began (a new kernel's slog appended to another's, as a
   * benchmark's runs end to end). What the held-back cranks could not undo
   * (those past the bound went on as committed) is then undone here.
   */
  private startsOver(crank: Crank): boolean {
    return crank.again && this.firstCrank !== undefined && Number.isFinite(crank.crankNum) && crank.crankNum <= this.firstCrank;
  }

  /** A crank of many syscalls: what its items change is read now, kept, and applied when it ends (a restart may abandon it). */
  spill(crank: Crank): void {
    let fold = this.folds.get(crank);
    if (!fold) {
      fold = newFold();
      this.folds.set(crank, fold);
    }
    collect(fold, crank.items, crank.spilled ?? 0);
  }

  /** A restart abandoned this execution: the kernel did not commit it, nothing of it counts. */
  abandoned(_crank: Crank): void {}

  /** End of input: the open round, block or group ends where the slog does. */
  end(): void {
    this.tracker.end();
    if (this.openRound) this.roundLog.end(this.figures(), { finished: this.openRound.end !== undefined });
    this.openRound = undefined;
    this.everyLog?.end(this.figures(), { label: crankRange });
  }

  /** The periods reported: N cranks when asked, else rounds where the slog marks them, else blocks; undefined: none. */
  get log(): PeriodLog | undefined {
    if (this.everyLog) return this.everyLog;
    if (this.roundLog.count > 0) return this.roundLog;
    if (this.blockLog.count > 0) return this.blockLog;
    return undefined;
  }

  /** GrowthState: the static vat created with this name. */
  staticVat(name: string): string | undefined {
    return this.staticVats.get(name);
  }

  /** A static vat's create-vat (at kernel start, outside cranks): its name. */
  private noteVat(entry: CreateVatEntry): void {
    if (entry.dynamic === false && typeof entry.vatID === 'string' && typeof entry.name === 'string') this.staticVats.set(entry.name, entry.vatID);
  }

  /** GrowthState: an entry of a crank (or outside) that is not a c-list change, delivery or syscall. */
  other(entry: SlogEntry, crankNum: number): void {
    switch (entry.type) {
      case 'deliver-result':
        if ((entry as DeliverResultEntry).replay !== true) this.heaps.deliverResult(entry as DeliverResultEntry);
        return;
      case 'heap-snapshot-save':
        return this.heaps.snapshotSave(entry);
      case 'kernel-stats':
        return this.kernelStats.note(entry);
      case 'terminate':
        if (typeof entry.vatID === 'string') {
          this.clists.terminate(entry.vatID);
          this.promises.deciderGone(entry.vatID);
        }
        return;
      case 'vat-cleanup-complete':
        if (typeof entry.vatID === 'string') this.clists.cleanupComplete(entry.vatID, crankNum);
        return;
      default:
    }
  }

  /** Every figure followed, now. */
  figures(): Figures {
    const out = new Map<string, number>();
    const kernel = this.clists.kernelCounts;
    out.set(figureKey('kernel', 'clistEntries'), this.clists.total);
    out.set(figureKey('kernel', 'kernelObjects'), kernel.objects);
    out.set(figureKey('kernel', 'kernelPromises'), kernel.promises);
    out.set(figureKey('kernel', 'kpUnresolved'), this.promises.size);
    for (const gauge of KERNEL_GAUGES) {
      const value = this.kernelStats.last[gauge];
      if (value !== undefined) out.set(figureKey('kernel-stats', gauge), value);
    }
    for (const [vatID, vat] of this.clists.vats) {
      for (const kind of CLIST_KINDS) out.set(figureKey(vatID, kind), vat.counts[kind]);
      out.set(figureKey(vatID, 'clistEntries'), vat.size);
    }
    for (const [vatID, heap] of this.heaps.byVat) {
      if (heap.heapCount !== undefined) out.set(figureKey(vatID, 'heapCount'), heap.heapCount);
      if (heap.allocate !== undefined) out.set(figureKey(vatID, 'allocate'), heap.allocate);
      if (heap.snapshotSize !== undefined) out.set(figureKey(vatID, 'snapshotSize'), heap.snapshotSize);
    }
    return out;
  }

  private blockOpen(block: ChainBlock): void {
    this.statsAtBlockOpen = this.kernelStats.last;
    this.blockLog.begin('', this.figures());
  }

  private blockEnd(block: ChainBlock): void {
    if (block.abandoned) {
      // Its kernel-stats were never committed; its cranks were handed to `abandoned`.
      this.kernelStats.restore(this.statsAtBlockOpen);
      this.blockLog.discard();
      return;
    }
    // Named at its end: a bootstrap block whose cosmic-swingset-init the slog lacks learns its height from its first run.
    this.blockLog.end(this.figures(), { finished: block.finished, label: () => blockLabel(block) });
  }

  /** Rounds: a crank of another round (or of none) ends the open one; a crank of a round not open begins it. */
  private placeInRound(crankNum: number): void {
    const round = this.rounds.count > 0 ? this.rounds.contains(crankNum) : undefined;
    this.rounds.passed(crankNum);
    if (round === this.openRound) return;
    if (this.openRound) this.roundLog.end(this.figures());
    this.openRound = round;
    if (round) this.roundLog.begin(`"${round.benchmark}" round ${round.round}`, this.figures());
  }

  private noteMarks(entry: SlogEntry, where: string): void {
    const text = consoleText(entry);
    if (text === undefined) return;
    try {
      this.rounds.noteText(text, where);
    } catch (err) {
      if (!(this.config.skipBadMarks && err instanceof RoundMarkError)) throw err;
      this.badMarks += 1;
    }
  }
}

/** `block 85` (`block ?` when the slog never says its height). */
function blockLabel(block: ChainBlock): string {
  return `block ${Number.isNaN(block.ref.height) ? '?' : block.ref.height}`;
}

/** A group of cranks' name: `cranks 0-99`. */
function crankRange(low: number | undefined, high: number | undefined): string {
  if (low === undefined || high === undefined) return 'no crank numbers';
  return low === high ? `crank ${low}` : `cranks ${low}-${high}`;
}
