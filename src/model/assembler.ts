/**
 * Groups a stream of slog entries into cranks. Entries outside any crank
 * (startup, kernel-level, chain-level) pass through one by one; a crank is
 * handed over whole when its crank-finish arrives, or, unfinished (no
 * `finish`), when the next crank begins without it or the input ends.
 *
 * Slogs as nodes write them (SLOG-FORMAT.md, "Slogs as real nodes write them"):
 * - a crank's entries carry its `crankNum`: entries with one while no crank
 *   is open (a slog that starts inside a crank, a crank-start line that is
 *   missing or damaged) begin a crank of their own (`opening`), and an entry
 *   with another crank's number closes the open crank (unfinished) and
 *   begins its own;
 * - older kernels write a crank-start without number or type: the number is
 *   the first an entry of the crank carries, and a crank where a vat ran (a
 *   delivery, a syscall) is a delivery crank;
 * - transcript replays (`replay: true`) inside a crank are kept in its
 *   items, marked, and are not its syscalls or deliveries;
 * - a restart (a kernel-init-start after the first) runs again the cranks
 *   the kernel had not committed: a crank whose number the slog already
 *   showed before the restart is marked `again`.
 *
 * Each entry goes to one small handler for its kind (`push`), each stating
 * what holds when it runs. Syscalls are paired with their results one of
 * two ways (syscall-pairing.ts), chosen once for the sink.
 *
 * Memory: one crank at a time, and of a crank of many syscalls, at most
 * `spillAt` of them ("Spilling" below).
 *
 * Spilling: a crank can hold hundreds of thousands of syscalls (a vat
 * iterating a big collection), each pair of entries some hundreds of bytes
 * of objects. A sink that has `spill` opts in: once the open crank holds
 * `spillAt` syscalls (SPILL_SYSCALLS, SLOGULATE_SPILL), `spill(crank)` is
 * called, the sink folds what it needs of the held syscalls into its own
 * figures (or text) for the crank, and then the syscalls are dropped from
 * `crank.items` (the other items stay: they say which delivery the
 * syscalls belonged to); `crank.spilled` says how many of the items the
 * sink has already seen. The crank comes to `crank()` as usual when it
 * ends, with the syscalls held since the last spill, and its `timing` whole.
 * A sink without `spill` gets every item. A wrapper passes `spill` on only
 * when its inner sink has it (`forwardSpill`).
 */
import { ChainTracker } from './chain.js';
import type { Crank, CrankItem, CrankOpening, SyscallPair } from './crank.js';
import { HeldPairs, SumsOnly, type SyscallPairing } from './syscall-pairing.js';
import { NO_DELIVERIES, TimeSplit } from './time-split.js';
import {
  isCrankEntryType,
  vatOf,
  type CrankEntry,
  type CrankFinishEntry,
  type CrankStartEntry,
  type DeliverEntry,
  type DeliverResultEntry,
  type LineFacts,
  type OtherEntry,
  type SlogEntry,
  type SyscallEntry,
  type SyscallResultEntry,
} from '../scan/entry-types.js';

/** What a sink answers: nothing (go on), or 'stop': the pass reads no more (as ripgrep's Sink returns Ok(false)); the model still ends. */
export type SinkAnswer = void | 'stop';

export interface CrankSink {
  /** An entry outside any crank. */
  entry(entry: SlogEntry, line: number): SinkAnswer;
  /** A whole crank (finished, or unfinished). */
  crank(crank: Crank): SinkAnswer;
  /**
   * Opt-in: the open crank holds many syscalls; fold `crank.items` from
   * index `crank.spilled ?? 0` on into what is kept for this crank: its
   * syscalls are dropped when this returns. The crank may still be
   * abandoned by a restart or left out by a selection: keep the fold apart
   * until `crank()` (a WeakMap on the crank). Not called for a crank that
   * already ended.
   */
  spill?(crank: Crank): void;
  /**
   * Opt-in: the sink reads none of a crank's syscalls, only the sums in
   * `crank.timing`: the assembler makes no syscall pairs and holds no
   * syscall in `items` (as if each spilled at once, unseen). Not with
   * spilling off (`spillAt` 0, SLOGULATE_SPILL=0): every item is held, the
   * reference the tests compare with. A wrapper passes it on from its inner
   * sink.
   */
  readonly syscallsUnread?: boolean;
  /**
   * Opt-in: the sink reads no crank's time split (`crank.parts`,
   * `crank.deliveryTimes`): the assembler does not make it (parts stay
   * undefined, deliveryTimes empty). The render without `--parts` says so:
   * the split is some 6% of its work. A wrapper passes it on from its
   * inner sink.
   */
  readonly partsUnread?: boolean;
}

/**
 * Where the crank model is in the slog, between two entries: what an
 * observer of the entries (the pass's `observe` hook, told of each entry
 * before the model takes it) needs to place the gap before an entry (the
 * stalls, stalls.ts) without following the slog a second time.
 */
export interface ModelPlace {
  /** The open crank's number (NaN while the slog has not said it); undefined between cranks. */
  readonly openCrankNum: number | undefined;
  /** The chain block and run open now (chain.ts). */
  readonly chain: Pick<ChainTracker, 'block' | 'run'>;
}

/** What sees every entry, in slog order, before the crank model takes it: with its line, the model's place before it, and the reader's facts of it (its type and time, LineFacts). */
export type EntryObserver = (entry: SlogEntry, line: number, place: ModelPlace, facts: Readonly<LineFacts>) => void;

/** Syscalls the open crank holds before it spills (when the sink spills; SLOGULATE_SPILL sets another number, 0 never). */
export const SPILL_SYSCALLS = 1024;

export interface AssemblerOptions {
  /** Spill the open crank at this many syscalls (0: never); default SPILL_SYSCALLS. */
  spillAt?: number;
}

/** A wrapper's `spill`: its inner sink's, or none when that has none (the assembler then holds every item). */
export function forwardSpill(inner: CrankSink): ((crank: Crank) => void) | undefined {
  if (!inner.spill) return undefined;
  return (crank) => inner.spill?.(crank);
}

export class CrankAssembler implements ModelPlace {
  private current: Crank | undefined;
  /** Kernel starts seen: more than one means restarts. */
  private kernelStarts = 0;
  private sawCrankStart = false;
  /** The highest crank number seen, and the highest seen before the last restart (cranks up to it ran before). */
  private maxCrank = -1;
  private ranBefore = -1;
  /** The sink answered 'stop' during the current `push` or `end`. */
  private stopped = false;

  /** The input now read (a slog read from several files): cranks are told where they began. */
  source = '';
  /** Which chain block and run cranks belong to now. */
  readonly chain = new ChainTracker();

  /** Spill at this many held syscalls (0: never, or the sink does not spill). */
  private readonly spillAt: number;
  /** Syscalls the open crank holds in its items. */
  private heldSyscalls = 0;
  /** How syscalls meet their results: held pairs, or sums only for a sink that reads none (CrankSink.syscallsUnread). */
  private readonly pairing: SyscallPairing;
  /** Where the open crank's time goes: fed every entry of it, whatever the sink holds; none for a sink that reads no split (CrankSink.partsUnread). */
  private readonly split: TimeSplit | undefined;

  constructor(
    private readonly sink: CrankSink,
    options: AssemblerOptions = {},
  ) {
    this.spillAt = sink.spill ? (options.spillAt ?? SPILL_SYSCALLS) : 0;
    const sumsOnly = sink.syscallsUnread === true && (options.spillAt ?? SPILL_SYSCALLS) > 0;
    this.split = sink.partsUnread === true ? undefined : new TimeSplit();
    this.pairing = sumsOnly ? new SumsOnly() : new HeldPairs((crank, pair) => this.hold(crank, pair));
  }

  get openCrankNum(): number | undefined {
    return this.current?.crankNum;
  }

  /** Is a crank open (started, not finished)? */
  get inCrank(): boolean {
    return this.current !== undefined;
  }

  /** Restarts seen so far (kernel-init-start entries after the first). */
  get restarts(): number {
    return Math.max(0, this.kernelStarts - 1);
  }

  /** Takes the slog's next entry; 'stop' when the sink answered so to anything handed over meanwhile. */
  push(entry: SlogEntry, line: number): SinkAnswer {
    this.stopped = false;
    // Read once and handed on: entries differ in shape by type, so each read of it is a megamorphic load.
    const type = entry.type;
    switch (type) {
      case 'crank-start':
        this.crankStart(entry as CrankStartEntry, line);
        break;
      case 'kernel-init-start':
        this.kernelInitStart(entry, line);
        break;
      default: {
        const crank = this.crankOf(entry, type, line);
        if (crank === undefined) this.passOn(entry, line);
        else this.inOpenCrank(crank, entry, type);
      }
    }
    return this.stopped ? 'stop' : undefined;
  }

  /** End of input: a crank still open is handed over as unfinished. 'stop' when the sink answered so to it. */
  end(): SinkAnswer {
    this.stopped = false;
    if (this.current) this.flushUnfinished();
    return this.stopped ? 'stop' : undefined;
  }

  // ---- one handler per kind of entry

  /**
   * A crank-start: a new crank opens. Precondition: none (a crank may be
   * open: it ends unfinished, or, when it is this same crank-start written
   * twice and holds nothing yet, it stands for nothing and is dropped).
   */
  private crankStart(start: CrankStartEntry, line: number): void {
    const open = this.current;
    if (open && this.isEmptyTwin(open, start)) this.current = undefined;
    else if (open) this.flushUnfinished();
    this.sawCrankStart = true;
    this.open(start, undefined, 'start', line);
  }

  /** The open crank was begun by the same crank-start as `start` and holds nothing yet. */
  private isEmptyTwin(open: Crank, start: CrankStartEntry): boolean {
    return (
      open.items.length === 0 &&
      open.spilled === undefined &&
      open.timing.syscallCount === 0 &&
      !this.pairing.waiting &&
      open.crankNum === start.crankNum
    );
  }

  /** A kernel-init-start: the kernel starts (again, after the first: a restart). Precondition: none; an open crank will not finish. */
  private kernelInitStart(entry: SlogEntry, line: number): void {
    this.chain.entry(entry);
    if (this.current) this.flushUnfinished();
    this.kernelStarts += 1;
    if (this.kernelStarts > 1) this.ranBefore = Math.max(this.ranBefore, this.maxCrank);
    this.passOn(entry, line);
  }

  /**
   * The crank an entry (other than crank-start and kernel-init-start)
   * belongs to, opening one for a crank entry with a number when none is
   * open; undefined: the entry is outside any crank. An entry of another
   * crank than the open one ends that one unfinished. Precondition: `type`
   * is the entry's.
   */
  private crankOf(entry: SlogEntry, type: string, line: number): Crank | undefined {
    const crankEntry = isCrankEntryType(type);
    if (!crankEntry) this.chain.entry(entry);
    const crankNum = crankEntry ? (entry as { crankNum?: number }).crankNum : undefined;
    let crank = this.current;
    if (crankNum !== undefined && crank !== undefined && crank.crankNum === crank.crankNum && crankNum !== crank.crankNum) {
      // Another crank's entry: this crank's crank-finish is missing, and that crank began without its crank-start.
      this.flushUnfinished();
      crank = undefined;
    }
    if (!crank) {
      if (crankNum === undefined || type === 'crank-finish') return undefined;
      crank = this.open(undefined, entry as CrankEntry, this.sawCrankStart ? 'no-start' : 'before-slog', line);
    }
    crank.lastLine = line;
    if (crankNum !== undefined && crank.crankNum !== crank.crankNum) this.number(crank, crankNum);
    return crank;
  }

  /** An entry inside a crank, to its kind's handler (each tells the time split of it). Precondition: `crank` is the open crank (crankOf); `type` is the entry's. */
  private inOpenCrank(crank: Crank, entry: SlogEntry, type: string): void {
    switch (type) {
      case 'crank-finish':
        this.crankFinish(crank, entry as CrankFinishEntry);
        return;
      case 'syscall':
        this.syscall(crank, entry as SyscallEntry);
        return;
      case 'syscall-result':
        this.syscallResult(crank, entry as SyscallResultEntry);
        return;
      case 'deliver':
        this.deliver(crank, entry as DeliverEntry);
        return;
      case 'deliver-result':
        this.deliverResult(crank, entry as DeliverResultEntry);
        return;
      case 'clist':
        this.keep(crank, entry, true);
        return;
      default:
        this.item(crank, entry as OtherEntry);
    }
  }

  /** A crank-finish: the crank ends, finished. Precondition: `crank` is the open crank. */
  private crankFinish(crank: Crank, finish: CrankFinishEntry): void {
    this.pairing.settle(crank);
    crank.finish = finish;
    crank.timing.total = crank.start ? (finish.time ?? NaN) - (crank.start.time ?? NaN) : (finish.seconds ?? NaN);
    this.handOver(crank);
  }

  /** A syscall: a live one is counted and may name the crank's vat; a replay's is not the crank's. Precondition: `crank` is the open crank. */
  private syscall(crank: Crank, call: SyscallEntry): void {
    const replay = call.replay === true;
    if (!replay) crank.timing.syscallCount += 1;
    this.pairing.call(crank, call, replay);
    if (replay) return;
    this.noteVat(crank, call);
    this.split?.syscall(call);
  }

  /** A syscall-result: it answers the syscall waiting for it, if any (syscall-pairing.ts). Precondition: `crank` is the open crank. */
  private syscallResult(crank: Crank, result: SyscallResultEntry): void {
    this.pairing.result(crank, result);
    if (result.replay !== true) this.split?.syscallResult(result);
  }

  /** A deliver: the first live one is the crank's delivery, and makes it a delivery crank where no entry said. Precondition: `crank` is the open crank. */
  private deliver(crank: Crank, deliver: DeliverEntry): void {
    const live = deliver.replay !== true;
    if (live) {
      crank.deliver ??= deliver;
      if (crank.crankType === '') crank.crankType = 'delivery';
      this.split?.deliver(deliver);
    }
    this.keep(crank, deliver, live);
  }

  /** A deliver-result: the last live one is the crank's, with its computrons. Precondition: `crank` is the open crank. */
  private deliverResult(crank: Crank, dr: DeliverResultEntry): void {
    const live = dr.replay !== true;
    if (live) {
      crank.deliverResult = dr;
      if (dr.computrons !== undefined) crank.timing.computrons = dr.computrons;
      this.split?.deliverResult(dr);
    }
    this.keep(crank, dr, live);
  }

  /** Any other entry inside a crank (console, create-vat, start-replay, heap-snapshot-save...; a clist is kept as it is): an item; a live one may name the crank's vat, and goes to the time split. Precondition: `crank` is the open crank. */
  private item(crank: Crank, entry: OtherEntry): void {
    const live = entry.replay !== true;
    if (live) this.split?.other(entry);
    this.keep(crank, entry, live);
  }

  // ---- what the handlers share

  /** An entry kept in the crank's items; a live one may name the crank's vat. */
  private keep(crank: Crank, entry: SlogEntry, live: boolean): void {
    if (live) this.noteVat(crank, entry);
    crank.items.push({ kind: 'entry', entry });
  }

  /** An entry outside any crank, to the sink. Precondition: no crank holds it (crankOf gave none, or a kernel-init-start). */
  private passOn(entry: SlogEntry, line: number): void {
    if (this.sink.entry(entry, line) === 'stop') this.stopped = true;
  }

  /** The crank's vat, from its first live entry that names one, where its crank-start did not (a create-vat names the vat it creates, not the crank's). */
  private noteVat(crank: Crank, entry: SlogEntry): void {
    if (crank.vatID === undefined && entry.type !== 'create-vat') crank.vatID = vatOf(entry);
  }

  private number(crank: Crank, crankNum: number): void {
    crank.crankNum = crankNum;
    crank.again = this.kernelStarts > 1 && crankNum <= this.ranBefore;
    if (crankNum > this.maxCrank) this.maxCrank = crankNum;
  }

  private open(start: CrankStartEntry | undefined, first: CrankEntry | undefined, opening: CrankOpening, line: number): Crank {
    // A message read whole (not its head) holds what the line says: a vatID that is no string is none.
    const messageVat = start?.message?.vatID;
    const vatID = start ? (start.vatID ?? (typeof messageVat === 'string' ? messageVat : undefined)) : undefined;
    const crank: Crank = {
      crankNum: NaN,
      // '' until a delivery or the crank-finish says (older kernels' crank-starts have no type).
      crankType: start?.crankType ?? '',
      vatID,
      // Every field from the start, set or not: one object shape for every crank, whatever it holds.
      start,
      opening,
      again: false,
      finish: undefined,
      items: [],
      spilled: undefined,
      deliver: undefined,
      deliverResult: undefined,
      timing: { total: NaN, syscall: 0, syscallCount: 0 },
      parts: undefined,
      deliveryTimes: NO_DELIVERIES,
      firstLine: line,
      lastLine: line,
      source: this.source,
      block: this.chain.block,
      run: this.chain.run,
    };
    const crankNum = start?.crankNum ?? (first as { crankNum?: number } | undefined)?.crankNum;
    if (crankNum !== undefined) this.number(crank, crankNum);
    this.current = crank;
    this.heldSyscalls = 0;
    this.split?.open(start);
    return crank;
  }

  /** Adds a syscall to the crank's items; spills them when they are many. */
  private hold(crank: Crank, pair: SyscallPair): void {
    crank.items.push(pair);
    this.heldSyscalls += 1;
    if (this.spillAt > 0 && this.heldSyscalls >= this.spillAt) this.spill(crank);
  }

  /** The sink folds the held syscalls into its own figures; they go, the other items stay. */
  private spill(crank: Crank): void {
    this.sink.spill?.(crank);
    const items = crank.items;
    let kept = 0;
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      if (item.kind !== 'syscall') items[kept++] = item;
    }
    items.length = kept;
    crank.spilled = kept;
    this.heldSyscalls = 0;
  }

  /** Hands the open crank over, with where its time went. */
  private handOver(crank: Crank): void {
    this.current = undefined;
    this.heldSyscalls = 0;
    this.split?.close(crank);
    // A crank whose type no entry said: one where a vat ran (it delivered, or made syscalls) is a delivery crank.
    if (crank.crankType === '') crank.crankType = crank.deliver || crank.deliverResult || crank.timing.syscallCount > 0 ? 'delivery' : 'routing';
    if (this.sink.crank(crank) === 'stop') this.stopped = true;
  }

  /** The open crank ends without its crank-finish. */
  private flushUnfinished(): void {
    const crank = this.current as Crank;
    this.pairing.settle(crank);
    this.handOver(crank);
  }
}
