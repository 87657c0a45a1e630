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
 * A sink without `spill` gets every item, as before. A wrapper passes
 * `spill` on only when its inner sink has it (`forwardSpill`).
 */
import { ChainTracker } from './chain.js';
import type { Crank, CrankItem, CrankOpening, SyscallPair } from './crank.js';
import {
  isCrankEntry,
  vatOf,
  type CrankEntry,
  type CrankFinishEntry,
  type CrankStartEntry,
  type DeliverEntry,
  type DeliverResultEntry,
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
}

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

export class CrankAssembler {
  private current: Crank | undefined;
  private pending: SyscallPair | undefined;
  /** Kernel starts seen: more than one means restarts. */
  private kernelStarts = 0;
  private sawCrankStart = false;
  /** The highest crank number seen, and the highest seen before the last restart (cranks up to it ran before). */
  private maxCrank = -1;
  private ranBefore = -1;

  /** The input now read (a slog read from several files): cranks are told where they began. */
  source = '';
  /** Which chain block and run cranks belong to now. */
  readonly chain = new ChainTracker();

  /** Spill at this many held syscalls (0: never, or the sink does not spill). */
  private readonly spillAt: number;
  /** Syscalls the open crank holds in its items. */
  private heldSyscalls = 0;
  /** The sink reads no syscalls (CrankSink.syscallsUnread): none are held, only their sums kept. */
  private readonly dropSyscalls: boolean;
  /** With dropSyscalls, the syscall awaiting its result (in place of `pending`): its time, whether it is a replay's. */
  private callOpen = false;
  private callTime = NaN;
  private callReplay = false;
  /** What the sink answered to what the current push (or end) handed over: 'stop' if it answered 'stop' to any. */
  private answer: SinkAnswer = undefined;

  constructor(
    private readonly sink: CrankSink,
    options: AssemblerOptions = {},
  ) {
    this.spillAt = sink.spill ? (options.spillAt ?? SPILL_SYSCALLS) : 0;
    this.dropSyscalls = sink.syscallsUnread === true && (options.spillAt ?? SPILL_SYSCALLS) > 0;
  }

  /** Is a crank open (started, not finished)? */
  get inCrank(): boolean {
    return this.current !== undefined;
  }

  /** Restarts seen so far (kernel-init-start entries after the first). */
  get restarts(): number {
    return Math.max(0, this.kernelStarts - 1);
  }

  /** Takes the next entry; 'stop' when the sink answered 'stop' to anything this handed over. */
  push(entry: SlogEntry, line: number): SinkAnswer {
    this.answer = undefined;
    this.take(entry, line);
    return this.answer;
  }

  private take(entry: SlogEntry, line: number): void {
    const type = entry.type;
    if (type === 'crank-start') {
      const open = this.current;
      // The same crank-start again (a line written twice): the first stands for nothing.
      if (open && open.items.length === 0 && open.spilled === undefined && open.timing.syscallCount === 0 && !this.callOpen && open.crankNum === (entry as CrankStartEntry).crankNum)
        this.current = undefined;
      else if (open) this.flushUnfinished();
      this.sawCrankStart = true;
      this.open(entry as CrankStartEntry, undefined, 'start', line);
      return;
    }
    const crankEntry = isCrankEntry(entry);
    if (!crankEntry) this.chain.entry(entry);
    if (type === 'kernel-init-start') {
      // The kernel starts again (a restart): what was open will not finish.
      if (this.current) this.flushUnfinished();
      this.kernelStarts += 1;
      if (this.kernelStarts > 1) this.ranBefore = Math.max(this.ranBefore, this.maxCrank);
      this.heard(this.sink.entry(entry, line));
      return;
    }
    const crankNum = crankEntry ? (entry as { crankNum?: number }).crankNum : undefined;
    let crank = this.current;
    if (crankNum !== undefined && crank !== undefined && crank.crankNum === crank.crankNum && crankNum !== crank.crankNum) {
      // Another crank's entry: this crank will not finish (its crank-finish is missing), and that one began without its crank-start.
      this.flushUnfinished();
      crank = undefined;
    }
    if (!crank) {
      if (crankNum === undefined || type === 'crank-finish') {
        this.heard(this.sink.entry(entry, line));
        return;
      }
      crank = this.open(undefined, entry as CrankEntry, this.sawCrankStart ? 'no-start' : 'before-slog', line);
    }
    crank.lastLine = line;
    if (crankNum !== undefined && crank.crankNum !== crank.crankNum) this.number(crank, crankNum);
    switch (type) {
      case 'crank-finish':
        this.close(entry as CrankFinishEntry);
        return;
      case 'syscall': {
        const call = entry as SyscallEntry;
        const replay = call.replay === true;
        if (!replay) crank.timing.syscallCount += 1;
        if (this.dropSyscalls) {
          this.callOpen = true;
          this.callTime = call.time ?? NaN;
          this.callReplay = replay;
        } else {
          if (this.pending) this.settlePending();
          this.pending = { kind: 'syscall', call, seconds: 0, replay };
        }
        if (!replay) this.noteVat(entry);
        return;
      }
      case 'syscall-result': {
        if (this.dropSyscalls) {
          // The same sum as a pair's `seconds` below; a result without its call is dropped as a syscall's.
          if (this.callOpen) {
            const seconds = (entry.time ?? NaN) - this.callTime;
            if (!this.callReplay && Number.isFinite(seconds)) crank.timing.syscall += seconds;
            this.callOpen = false;
          }
          return;
        }
        const pair = this.pending;
        if (pair) {
          pair.result = entry as SyscallResultEntry;
          pair.seconds = (entry.time ?? NaN) - (pair.call.time ?? NaN);
          if (!pair.replay && Number.isFinite(pair.seconds)) crank.timing.syscall += pair.seconds;
          this.pending = undefined;
          this.hold(crank, pair);
        } else {
          crank.items.push({ kind: 'entry', entry });
        }
        return;
      }
      case 'deliver': {
        const deliver = entry as DeliverEntry;
        if (deliver.replay !== true) {
          crank.deliver ??= deliver;
          // An older kernel's crank-start does not say: a crank that delivers is a delivery crank.
          if (crank.crankType === '') crank.crankType = 'delivery';
        }
        break;
      }
      case 'deliver-result': {
        const dr = entry as DeliverResultEntry;
        if (dr.replay !== true) {
          crank.deliverResult = dr;
          if (dr.computrons !== undefined) crank.timing.computrons = dr.computrons;
        }
        break;
      }
      default:
        break;
    }
    if ((entry as { replay?: unknown }).replay !== true) this.noteVat(entry);
    crank.items.push({ kind: 'entry', entry });
  }

  /** End of input: a crank still open is handed over as unfinished ('stop' when the sink answered so). */
  end(): SinkAnswer {
    this.answer = undefined;
    if (this.current) this.flushUnfinished();
    return this.answer;
  }

  private heard(answer: SinkAnswer): void {
    if (answer === 'stop') this.answer = 'stop';
  }

  private noteVat(entry: SlogEntry): void {
    const crank = this.current;
    if (crank && crank.vatID === undefined && entry.type !== 'create-vat') crank.vatID = vatOf(entry);
  }

  private number(crank: Crank, crankNum: number): void {
    crank.crankNum = crankNum;
    crank.again = this.kernelStarts > 1 && crankNum <= this.ranBefore;
    if (crankNum > this.maxCrank) this.maxCrank = crankNum;
  }

  private open(start: CrankStartEntry | undefined, first: CrankEntry | undefined, opening: CrankOpening, line: number): Crank {
    const vatID = start ? (start.vatID ?? start.message?.vatID) : undefined;
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
    this.callOpen = false;
    return crank;
  }

  /** A syscall whose result never came (a new syscall started, or the crank ended). */
  private settlePending(): void {
    this.callOpen = false;
    const pair = this.pending;
    this.pending = undefined;
    if (pair && this.current) this.hold(this.current, pair);
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

  /** Hands the open crank over. */
  private handOver(crank: Crank): void {
    this.current = undefined;
    this.heldSyscalls = 0;
    // A crank whose type no entry said: one where a vat ran (it delivered, or made syscalls) is a delivery crank.
    if (crank.crankType === '') crank.crankType = crank.deliver || crank.deliverResult || crank.timing.syscallCount > 0 ? 'delivery' : 'routing';
    this.heard(this.sink.crank(crank));
  }

  private close(finish: CrankFinishEntry): void {
    const crank = this.current as Crank;
    this.settlePending();
    crank.finish = finish;
    crank.timing.total = crank.start ? (finish.time ?? NaN) - (crank.start.time ?? NaN) : (finish.seconds ?? NaN);
    this.handOver(crank);
  }

  private flushUnfinished(): void {
    const crank = this.current as Crank;
    this.settlePending();
    this.handOver(crank);
  }
}
