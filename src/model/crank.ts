/**
 * The crank model: the entries between a `crank-start` and its `crank-finish`,
 * with syscalls paired with their results and the crank's timings.
 */
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
}

/** Any other entry inside a crank (deliver, clist, console, deliver-result, create-vat...). */
export interface PlainItem {
  kind: 'entry';
  entry: SlogEntry;
}

/** Items in slog order; a syscall stands where its result arrived (or at the end if none did). */
export type CrankItem = SyscallPair | PlainItem;

export interface CrankTiming {
  /** crank-finish.time - crank-start.time, seconds (NaN while unfinished). */
  total: number;
  /** Sum of the syscalls' result.time - call.time, seconds. */
  syscall: number;
  syscallCount: number;
  /**
   * deliver-result.dr[2].compute, where the worker reports it (XS). A crank
   * can hold more than one delivery (a bringOutYourDead before a heap
   * snapshot): this is the last one's, as the crank header prints it.
   */
  computrons?: number;
}

export interface Crank {
  crankNum: number;
  crankType: string;
  /** crank-start.vatID, else its message's vatID, else the first vat named inside the crank. */
  vatID: string | undefined;
  start: CrankStartEntry;
  /** Absent when the slog ends inside the crank. */
  finish?: CrankFinishEntry;
  items: CrankItem[];
  /** The crank's first delivery, and its last deliver-result. */
  deliver?: DeliverEntry;
  deliverResult?: DeliverResultEntry;
  timing: CrankTiming;
  /** Slog line numbers of the crank-start and of the last entry seen. */
  firstLine: number;
  lastLine: number;
}

export function isDelivery(crank: Crank): boolean {
  return crank.crankType !== 'routing';
}

/** A syscall's name (`send`, `vatstoreGet`, `invoke`...), for a consumer that reads syscalls' `name`. */
export function syscallName(pair: SyscallPair): string {
  return pair.call.name ?? 'unknown';
}
