/**
 * The two ways the crank model pairs a crank's syscalls with their results
 * (assembler.ts chooses one per sink, once):
 *
 * - `HeldPairs`: each syscall becomes a `SyscallPair`, held in the crank's
 *   items (where its result arrived, or where the crank ended without one),
 *   for a sink that reads syscalls;
 * - `SumsOnly`: nothing is held, only the crank's syscall time is summed,
 *   for a sink that reads none (`CrankSink.syscallsUnread`).
 *
 * Both add the same seconds to `crank.timing.syscall`: a live syscall's
 * result.time - call.time, when both times are there. The syscall count
 * and the crank's vat are kept by the assembler, the same for both.
 */
import type { Crank, SyscallPair } from './crank.js';
import type { SyscallEntry, SyscallResultEntry } from '../scan/entry-types.js';

export interface SyscallPairing {
  /** A syscall is waiting for its result. */
  readonly waiting: boolean;
  /** A syscall of the open crank `crank` (`replay`: a transcript replay's). A syscall still waiting is settled without its result first. */
  call(crank: Crank, call: SyscallEntry, replay: boolean): void;
  /** A syscall-result of the open crank `crank`: it answers the waiting syscall, if any. */
  result(crank: Crank, result: SyscallResultEntry): void;
  /** The open crank `crank` ends (finished or not): a syscall still waiting is settled without its result. */
  settle(crank: Crank): void;
}

/** Adds a live syscall's time to the crank's sum (a pair without both times adds nothing). */
function addTime(crank: Crank, seconds: number, replay: boolean): void {
  if (!replay && Number.isFinite(seconds)) crank.timing.syscall += seconds;
}

/** Pairs kept as items: `hold` adds one to the crank (and spills the crank's syscalls when they are many). */
export class HeldPairs implements SyscallPairing {
  private pending: SyscallPair | undefined;

  constructor(private readonly hold: (crank: Crank, pair: SyscallPair) => void) {}

  get waiting(): boolean {
    return this.pending !== undefined;
  }

  call(crank: Crank, call: SyscallEntry, replay: boolean): void {
    if (this.pending) this.settle(crank);
    this.pending = { kind: 'syscall', call, seconds: 0, replay };
  }

  /** A result with no syscall waiting is kept as an item of its own. */
  result(crank: Crank, result: SyscallResultEntry): void {
    const pair = this.pending;
    if (pair === undefined) {
      crank.items.push({ kind: 'entry', entry: result });
      return;
    }
    pair.result = result;
    pair.seconds = (result.time ?? NaN) - (pair.call.time ?? NaN);
    addTime(crank, pair.seconds, pair.replay);
    this.pending = undefined;
    this.hold(crank, pair);
  }

  settle(crank: Crank): void {
    const pair = this.pending;
    if (pair === undefined) return;
    this.pending = undefined;
    this.hold(crank, pair);
  }
}

/** Sums only: the waiting syscall's time and whether it is a replay's; a result with no syscall waiting is dropped, as a syscall's. */
export class SumsOnly implements SyscallPairing {
  waiting = false;
  private callTime = NaN;
  private callReplay = false;

  call(_crank: Crank, call: SyscallEntry, replay: boolean): void {
    this.waiting = true;
    this.callTime = call.time ?? NaN;
    this.callReplay = replay;
  }

  result(crank: Crank, result: SyscallResultEntry): void {
    if (!this.waiting) return;
    addTime(crank, (result.time ?? NaN) - this.callTime, this.callReplay);
    this.waiting = false;
  }

  settle(): void {
    this.waiting = false;
  }
}
