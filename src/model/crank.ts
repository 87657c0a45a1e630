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

/**
 * A crank's time split into parts that add up to `total` exactly
 * (docs/time-split.md; SLOG-FORMAT.md, "Where a crank's time goes"), whole
 * microseconds: each entry's `time` rounded to µs first, then subtracted.
 * pageIn + vat + syscall + pipe + snapshot + kernel + unknown === total,
 * counting an undefined part as 0.
 */
export interface CrankParts {
  /** µs(crank-finish.time) - µs(crank-start.time). */
  total: number;
  /** Bringing the crank's vat online before a delivery (worker start, snapshot load, transcript replay); includes `replay`. */
  pageIn: number;
  /** Of `pageIn`: start-replay to finish-replay (finish-replay's `seconds` where its start is missing). */
  replay: number;
  /** The worker running vat code; undefined when a delivery's worker timestamps list is unusable (its µs are in `unknown`). */
  vat: number | undefined;
  /** Live syscalls: each syscall to its syscall-result. */
  syscall: number;
  /** Messages between kernel and worker; 0 for local workers (no timestamps list); undefined together with `vat`. */
  pipe: number | undefined;
  /** Last deliver-result to heap-snapshot-save, plus the save to the next heap-snapshot-load of that vat when the save restarts the worker. */
  snapshot: number;
  /** The rest (routing, c-lists, queues, gaps between deliveries, commit); a routing crank is all kernel. */
  kernel: number;
  /** The µs that `vat` and `pipe` hold together when they are undefined; 0 otherwise. */
  unknown: number;
  /** GC time of the crank's bringOutYourDead deliveries (their sum); undefined when there are none, or one's is unknown. */
  gc: number | undefined;
}

/** One live delivery of a crank (deliver to deliver-result), its times in whole µs. */
export interface DeliveryTimes {
  deliveryNum: number | undefined;
  vatID: string | undefined;
  /** The delivery's kind: `message`, `notify`, `bringOutYourDead`, `startVat`... (`unknown` where the slog does not say). */
  dispatch: string;
  /** deliver to deliver-result. */
  micros: number;
  /** Its live syscalls, each syscall to its syscall-result, and how many there were. */
  syscallMicros: number;
  syscalls: number;
  /** Console entries the vat wrote during it (not those with `source: "kernel"`). */
  consoles: number;
  /** The vat part, from the worker's `dr[2].timestamps`; a local worker's (no list): micros - syscallMicros. Undefined: the list is unusable. */
  workerMicros: number | undefined;
  /** The pipe part; 0 for a local worker; undefined with workerMicros. */
  pipeMicros: number | undefined;
  /** bringOutYourDead only: receipt to the first syscall or console (or to the result), by the worker's list; a local worker's: deliver to its first syscall (or deliver-result). */
  gcMicros: number | undefined;
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
  /** Where its time went (time-split.ts); undefined when the crank has no crank-start or no crank-finish (its total is not known). */
  parts: CrankParts | undefined;
  /** Its live deliveries that got their deliver-result, in order. */
  deliveryTimes: readonly DeliveryTimes[];
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

/**
 * A syscall's name (`send`, `vatstoreGet`, `invoke`...), for a consumer that
 * reads syscalls' `name`: the kernel-space name, as ksc[0] gives it (an
 * older kernel's own `callNow` kept). A replay has only the vat-space name:
 * its device call, `callNow` there, is named as the kernel names a live one
 * today, `invoke` (the render's kernel space, syscall-call.ts printedName).
 */
export function syscallName(pair: SyscallPair): string {
  const name = pair.call.name ?? 'unknown';
  return pair.replay && name === 'callNow' ? 'invoke' : name;
}
