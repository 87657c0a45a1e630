/**
 * The crank model: the entries between a `crank-start` and its `crank-finish`,
 * with syscalls paired with their results and the crank's timings.
 */
import type { BlockRef, RunRef } from './chain.js';
import type {
  CrankFinishEntry,
  CrankStartEntry,
  DeliverEntry,
  DeliverResultEntry,
  SlogEntry,
  SyscallEntry,
  SyscallResultEntry,
} from '../scan/entry-types.js';

/** A syscall and (once it arrived) its result; `seconds` is result.time - call.time. */
export interface SyscallPair {
  kind: 'syscall';
  call: SyscallEntry;
  result?: SyscallResultEntry;
  seconds: number;
  /** A transcript replay's syscall (a vat paged in): not a syscall of the crank. */
  replay: boolean;
}

/** Any other entry inside a crank (deliver, clist, console, deliver-result, create-vat...). */
export interface PlainItem {
  kind: 'entry';
  entry: SlogEntry;
}

/** Items in slog order; a syscall stands where its result arrived (or at the end if none did). */
export type CrankItem = SyscallPair | PlainItem;

export interface CrankTiming {
  /**
   * crank-finish.time - crank-start.time, seconds (NaN while unfinished);
   * without a crank-start, the crank-finish's own `seconds` (NaN without one).
   * Transcript replays inside the crank are part of it: the crank waited for them.
   */
  total: number;
  /** Sum of the (live) syscalls' result.time - call.time, seconds. */
  syscall: number;
  /** Live syscalls: replays are not the crank's. */
  syscallCount: number;
  /**
   * deliver-result.dr[2].compute, where the worker reports it (XS). A crank
   * can hold more than one delivery (a bringOutYourDead before a heap
   * snapshot): this is the last one's, as the crank header prints it.
   */
  computrons?: number;
}

/** How a crank began: with its crank-start, or with entries whose crank-start the slog lacks. */
export type CrankOpening =
  /** Its crank-start. */
  | 'start'
  /** Entries before the slog's first crank-start (a flight-recorder dump, `tail -F`, a rotated file). */
  | 'before-slog'
  /** Entries of a crank whose crank-start line is missing or damaged. */
  | 'no-start';

export interface Crank {
  /** The crank's number (NaN when nothing in the slog says it). */
  crankNum: number;
  /** `delivery` or `routing` (older kernels do not say: a crank that delivers is a delivery crank). */
  crankType: string;
  /** crank-start.vatID, else its message's vatID, else the first vat named inside the crank. */
  vatID: string | undefined;
  /** Absent when the crank did not begin with its crank-start (`opening`). */
  start?: CrankStartEntry;
  opening: CrankOpening;
  /** The crank ran again after a restart: the kernel had run this crank number before, and not committed it. */
  again: boolean;
  /** Absent when the slog ends inside the crank. */
  finish?: CrankFinishEntry;
  items: CrankItem[];
  /**
   * A crank of many syscalls (model/assembler.ts, "Spilling"): the first
   * `spilled` of `items` were already shown to the sink's `spill` (the
   * syscalls among them are gone from `items`, the other items stay); those
   * after are new. Absent for a crank that never spilled.
   */
  spilled?: number;
  /** The crank's first delivery, and its last deliver-result (live ones: not replays). */
  deliver?: DeliverEntry;
  deliverResult?: DeliverResultEntry;
  timing: CrankTiming;
  /** Slog line numbers of the crank-start and of the last entry seen, in the input named `source`. */
  firstLine: number;
  lastLine: number;
  /** The input (file) the crank began in, of a slog read from several. */
  source: string;
  /** The chain block and run it ran in (chain.ts); undefined outside blocks (a kernel without a chain). */
  block: BlockRef | undefined;
  run: RunRef | undefined;
}

export function isDelivery(crank: Crank): boolean {
  return crank.crankType !== 'routing';
}

/**
 * When the crank began: its crank-start's time, else its first entry's (a
 * crank whose start the slog lacks; of a crank that spilled, its first
 * entry still held: a sink that spills notes the time at its first spill).
 */
export function crankStartTime(crank: Crank): number | undefined {
  if (crank.start) return crank.start.time;
  for (const item of crank.items) {
    const time = item.kind === 'syscall' ? item.call.time : item.entry.time;
    if (typeof time === 'number') return time;
  }
  return crank.finish?.time;
}

/** Is this item part of a transcript replay (a vat paged in), not of the crank's own work? */
export function isReplay(item: CrankItem): boolean {
  return item.kind === 'syscall' ? item.replay : (item.entry as { replay?: unknown }).replay === true;
}

/** A syscall's name (`send`, `vatstoreGet`, `invoke`...), for a consumer that reads syscalls' `name`. */
export function syscallName(pair: SyscallPair): string {
  return pair.call.name ?? 'unknown';
}
