/**
 * Where a crank's time went (docs/time-split.md; SLOG-FORMAT.md, "Where a
 * crank's time goes"): the crank model (assembler.ts) feeds a `TimeSplit`
 * every entry of the open crank, in slog order, from its handler for the
 * entry's kind, whatever the sink holds of them (syscalls spilled or never
 * held), and the split puts the crank's `CrankParts` and `DeliveryTimes` on
 * it when it ends. It keeps running sums, never the entries; of the
 * delivery under way, the kernel's times of its first EVENTS_KEPT syscalls
 * and consoles, to check the worker's list against.
 *
 * Every time is rounded to whole µs first (`micros`), then subtracted: the
 * parts are sums of differences of the same rounded instants, so they add
 * up to the crank's total exactly.
 *
 * The crank's time, from crank-start to crank-finish, is cut at each live
 * deliver and deliver-result:
 * - inside a delivery (deliver to deliver-result): its syscalls, and the
 *   rest split by the worker's list into vat and pipe (`deliveryTimes`);
 * - outside (before the first delivery, between two, after the last):
 *   snapshot (last deliver-result to heap-snapshot-save, and on to the
 *   vat's heap-snapshot-load when the save restarts the worker), syscalls
 *   made there (none in a slog as kernels write it), page-in when the
 *   stretch ends at a deliver and a vat-startup-start, heap-snapshot-load,
 *   start-replay or bare create-vat of that deliver's vat lies in it, and
 *   kernel for the rest.
 */
import type { Crank, CrankParts, DeliveryTimes } from './crank.js';
import { isBareCreateVat, vatOf, type CrankStartEntry, type DeliverEntry, type DeliverResultEntry, type OtherEntry, type SyscallEntry, type SyscallResultEntry } from '../scan/entry-types.js';

/** Seconds (a slog `time`) as whole microseconds; NaN when absent. */
export function micros(seconds: number | undefined): number {
  return typeof seconds === 'number' ? Math.round(seconds * 1e6) : NaN;
}

/**
 * The syscalls and consoles of one delivery whose kernel times are kept to
 * check the worker's list against. The list holds 2 + 2 x events; the
 * worker keeps at most 100 entries (49 events), so a delivery with more
 * events than kept has an unusable list anyway.
 */
export const EVENTS_KEPT = 1024;

/** A crank with no delivery: one shared empty list. */
export const NO_DELIVERIES: readonly DeliveryTimes[] = Object.freeze([]);

/** An entry type that brings a vat online when it lies before a delivery of that vat. */
function isPageInMark(entry: OtherEntry): boolean {
  switch (entry.type) {
    case 'vat-startup-start':
    case 'heap-snapshot-load':
    case 'start-replay':
      return true;
    case 'create-vat':
      return isBareCreateVat(entry);
    default:
      return false;
  }
}

/** The live delivery under way: its deliver, its syscalls' and consoles' kernel times, its sums. */
class OpenDelivery {
  deliver: DeliverEntry | undefined;
  /** A delivery is under way. */
  open = false;
  at = NaN;
  syscallMicros = 0;
  syscalls = 0;
  consoles = 0;
  /** Syscalls and consoles, in order; the kernel's times of the first EVENTS_KEPT: [received, answered] each (a console: its time twice). */
  events = 0;
  readonly kernelTimes = new Float64Array(2 * EVENTS_KEPT);
  /** The first syscall's time (a local worker's GC ends there). */
  firstSyscall = NaN;
  /** A syscall waiting for its result: its time and its place among the events. */
  callAt = NaN;
  callEvent = 0;
  callWaiting = false;

  begin(deliver: DeliverEntry): void {
    this.deliver = deliver;
    this.open = true;
    this.at = micros(deliver.time);
    this.syscallMicros = 0;
    this.syscalls = 0;
    this.consoles = 0;
    this.events = 0;
    this.firstSyscall = NaN;
    this.callWaiting = false;
  }

  /** A live syscall of this delivery. */
  call(at: number): void {
    this.syscalls += 1;
    if (this.syscalls === 1) this.firstSyscall = at;
    this.callAt = at;
    this.callEvent = this.events;
    this.callWaiting = true;
    this.event(at, NaN);
  }

  /** A syscall-result: it answers the waiting syscall, if any. */
  result(at: number): void {
    if (!this.callWaiting) return;
    this.callWaiting = false;
    this.syscallMicros += at - this.callAt;
    const i = this.callEvent;
    if (i < EVENTS_KEPT) this.kernelTimes[2 * i + 1] = at;
  }

  /** A console entry the vat wrote: a round trip with no kernel time. */
  console(at: number): void {
    this.consoles += 1;
    this.event(at, at);
  }

  private event(received: number, answered: number): void {
    const i = this.events;
    this.events += 1;
    if (i >= EVENTS_KEPT) return;
    this.kernelTimes[2 * i] = received;
    this.kernelTimes[2 * i + 1] = answered;
  }

  /** No delivery under way. */
  end(): void {
    this.deliver = undefined;
    this.open = false;
  }

  /**
   * Its times, at its deliver-result. The worker's list: receipt, then per
   * event when the worker sent it and got the answer, then when it sent the
   * result. Vat: the worker's stretches between those; pipe: deliver to
   * receipt, each event's trip both ways, result to deliver-result.
   */
  finish(result: DeliverResultEntry): DeliveryTimes {
    const deliver = this.deliver as DeliverEntry;
    const end = micros(result.time);
    const total = end - this.at;
    const list = result.timestamps;
    const boyd = deliver.kind === 'bringOutYourDead';
    const times: DeliveryTimes = {
      deliveryNum: deliver.deliveryNum,
      vatID: deliver.vatID,
      dispatch: deliver.kind ?? 'unknown',
      micros: total,
      syscallMicros: this.syscallMicros,
      syscalls: this.syscalls,
      consoles: this.consoles,
      workerMicros: undefined,
      pipeMicros: undefined,
      gcMicros: undefined,
    };
    this.end();
    if (list === undefined) {
      // A local worker: no clock of its own.
      times.workerMicros = total - this.syscallMicros;
      times.pipeMicros = 0;
      if (boyd) times.gcMicros = (Number.isNaN(this.firstSyscall) ? end : this.firstSyscall) - this.at;
      return times;
    }
    if (list.length !== 2 + 2 * this.events || this.events > EVENTS_KEPT || this.callWaiting) return times;
    const worker = list.map(micros);
    const k = this.kernelTimes;
    const received = worker[0] as number;
    const sent = worker[worker.length - 1] as number;
    let pipe = received - this.at + (end - sent);
    let vat = 0;
    let ok = received - this.at >= 0 && end - sent >= 0;
    let since = received;
    for (let i = 0; i < this.events && ok; i += 1) {
      const asked = worker[1 + 2 * i] as number;
      const answered = worker[2 + 2 * i] as number;
      const there = (k[2 * i] as number) - asked;
      const back = answered - (k[2 * i + 1] as number);
      const ran = asked - since;
      ok = there >= 0 && back >= 0 && ran >= 0;
      pipe += there + back;
      vat += ran;
      since = answered;
    }
    const last = sent - since;
    // `>= 0` is false for NaN too: a time missing anywhere makes the list unusable.
    if (!ok || !(last >= 0)) return times;
    vat += last;
    times.workerMicros = vat;
    times.pipeMicros = pipe;
    if (boyd) times.gcMicros = (this.events > 0 ? (worker[1] as number) : sent) - received;
    return times;
  }
}

export class TimeSplit {
  private startAt = NaN;
  private pageIn = 0;
  private replay = 0;
  private syscallTime = 0;
  private snapshot = 0;
  private vat = 0;
  private pipe = 0;
  /** The deliveries' time less their syscalls: vat + pipe when known, else all of it is unknown. */
  private vatAndPipe = 0;
  private vatKnown = true;
  private gc = 0;
  private gcState: 'none' | 'known' | 'unknown' = 'none';
  private deliveries: DeliveryTimes[] | undefined;
  private readonly delivery = new OpenDelivery();

  /** The stretch outside deliveries under way: where it began, µs of it given to a part already, replay in it, the vats of the page-in marks in it (the first `gapMarkCount` of `gapMarks`). */
  private gapFrom = NaN;
  private gapClaimed = 0;
  private gapReplay = 0;
  private readonly gapMarks: Array<string | undefined> = [];
  private gapMarkCount = 0;
  /** A start-replay waiting for its finish-replay: its time. */
  private replayFrom = NaN;
  /** A syscall outside any delivery waiting for its result: its time. */
  private strayCallAt = NaN;
  /** The last live deliver-result's time (a heap-snapshot-save counts from it), and a restarted worker's save waiting for its load. */
  private snapFrom = NaN;
  private loadVat: string | undefined;
  private loadFrom = NaN;

  /** A crank opens; `start` is its crank-start, if it has one. */
  open(start: CrankStartEntry | undefined): void {
    this.startAt = start ? micros(start.time) : NaN;
    this.pageIn = 0;
    this.replay = 0;
    this.syscallTime = 0;
    this.snapshot = 0;
    this.vat = 0;
    this.pipe = 0;
    this.vatAndPipe = 0;
    this.vatKnown = true;
    this.gc = 0;
    this.gcState = 'none';
    this.deliveries = undefined;
    this.delivery.end();
    this.snapFrom = NaN;
    this.loadVat = undefined;
    this.beginGap(this.startAt);
  }

  /** The open crank ends (with its crank-finish, `crank.finish`, or not): its parts (undefined without both ends) and deliveries go on it. */
  close(crank: Crank): void {
    crank.deliveryTimes = this.deliveries ?? NO_DELIVERIES;
    crank.parts = this.parts(crank.finish?.time);
  }

  private parts(finishTime: number | undefined): CrankParts | undefined {
    const end = micros(finishTime);
    if (this.delivery.open) this.abandonDelivery(end);
    const total = end - this.startAt;
    if (!Number.isFinite(total)) return undefined;
    const unknown = this.vatKnown ? 0 : this.vatAndPipe;
    const known = this.pageIn + this.syscallTime + this.snapshot + this.vatAndPipe;
    const parts: CrankParts = {
      total,
      pageIn: this.pageIn,
      replay: this.replay,
      vat: this.vatKnown ? this.vat : undefined,
      syscall: this.syscallTime,
      pipe: this.vatKnown ? this.pipe : undefined,
      snapshot: this.snapshot,
      kernel: total - known,
      unknown,
      gc: this.gcState === 'known' ? this.gc : undefined,
    };
    return Number.isFinite(parts.kernel) ? parts : undefined;
  }

  // ---- one method per kind of entry, in slog order

  /** A live deliver: the stretch before it ends (page-in when a mark of its vat lies there), a delivery begins. Precondition: not a replay's (a delivery still under way has no result). */
  deliver(deliver: DeliverEntry): void {
    const at = micros(deliver.time);
    if (this.delivery.open) this.abandonDelivery(at);
    this.endGap(at, deliver.vatID);
    this.delivery.begin(deliver);
  }

  /** A live deliver-result: the delivery under way ends with its times; a stretch outside deliveries begins. Precondition: not a replay's (with no delivery under way, it is passed over). */
  deliverResult(result: DeliverResultEntry): void {
    if (!this.delivery.open) return;
    const times = this.delivery.finish(result);
    // Most cranks have one delivery: a list of exactly one (`[]` then push would make room for 17).
    if (this.deliveries === undefined) this.deliveries = [times];
    else this.deliveries.push(times);
    this.syscallTime += times.syscallMicros;
    this.vatAndPipe += times.micros - times.syscallMicros;
    if (times.workerMicros === undefined || times.pipeMicros === undefined) {
      this.vatKnown = false;
    } else {
      this.vat += times.workerMicros;
      this.pipe += times.pipeMicros;
    }
    if (times.dispatch === 'bringOutYourDead') {
      if (times.gcMicros === undefined) this.gcState = 'unknown';
      else if (this.gcState !== 'unknown') {
        this.gc += times.gcMicros;
        this.gcState = 'known';
      }
    }
    const at = micros(result.time);
    this.snapFrom = at;
    this.beginGap(at);
  }

  /** A live syscall: the delivery's, or (outside any) a syscall of the crank's own. Precondition: not a replay's. */
  syscall(call: SyscallEntry): void {
    const at = micros(call.time);
    if (this.delivery.open) this.delivery.call(at);
    else this.strayCallAt = at;
  }

  /** A syscall-result: it answers the live syscall waiting for it, if any. Precondition: not a replay's. */
  syscallResult(result: SyscallResultEntry): void {
    const at = micros(result.time);
    if (this.delivery.open) {
      this.delivery.result(at);
      return;
    }
    if (Number.isNaN(this.strayCallAt)) return;
    const spent = at - this.strayCallAt;
    this.strayCallAt = NaN;
    if (!Number.isFinite(spent)) return;
    this.syscallTime += spent;
    this.gapClaimed += spent;
  }

  /** Any other entry of the crank (not a crank entry type but clist, which it passes over): consoles in a delivery; snapshots, replays and page-in marks outside one. Precondition: not a replay's. */
  other(entry: OtherEntry): void {
    if (this.delivery.open) {
      if (entry.type === 'console' && entry.source !== 'kernel') this.delivery.console(micros(entry.time));
      return;
    }
    switch (entry.type) {
      case 'heap-snapshot-save':
        this.snapshotSave(entry);
        break;
      case 'heap-snapshot-load':
        this.snapshotLoad(entry);
        break;
      case 'start-replay':
        this.replayFrom = micros(entry.time);
        break;
      case 'finish-replay':
        this.finishReplay(entry);
        break;
      default:
        break;
    }
    if (isPageInMark(entry)) this.gapMarks[this.gapMarkCount++] = vatOf(entry);
  }

  /** A heap-snapshot-save after a live deliver-result: from there to it is snapshot; with restartWorker, on to the vat's next load. */
  private snapshotSave(entry: OtherEntry): void {
    const at = micros(entry.time);
    if (!Number.isNaN(this.snapFrom)) this.claimSnapshot(at - this.snapFrom);
    this.snapFrom = at;
    if (entry.restartWorker === true) {
      this.loadVat = vatOf(entry);
      this.loadFrom = at;
    }
  }

  /** A heap-snapshot-load: the end of a restarted worker's save, when it is that vat's. */
  private snapshotLoad(entry: OtherEntry): void {
    if (Number.isNaN(this.loadFrom) || vatOf(entry) !== this.loadVat) return;
    const at = micros(entry.time);
    this.claimSnapshot(at - this.loadFrom);
    this.loadFrom = NaN;
    this.loadVat = undefined;
    this.snapFrom = at;
  }

  private claimSnapshot(spent: number): void {
    if (!(spent > 0)) return;
    this.snapshot += spent;
    this.gapClaimed += spent;
  }

  /** A finish-replay: start-replay to it, else its own `seconds`. */
  private finishReplay(entry: OtherEntry): void {
    const at = micros(entry.time);
    const spent = Number.isNaN(this.replayFrom) ? micros(typeof entry.seconds === 'number' ? entry.seconds : undefined) : at - this.replayFrom;
    this.replayFrom = NaN;
    if (spent > 0) this.gapReplay += spent;
  }

  // ---- stretches outside deliveries

  private beginGap(at: number): void {
    this.gapFrom = at;
    this.gapClaimed = 0;
    this.gapReplay = 0;
    this.gapMarkCount = 0;
    this.replayFrom = NaN;
    this.strayCallAt = NaN;
  }

  /** The stretch ends at a deliver of `vatID`: what no other part took is page-in when a mark of that vat lies in it (kernel otherwise). */
  private endGap(at: number, vatID: string | undefined): void {
    if (this.marked(vatID)) {
      const rest = at - this.gapFrom - this.gapClaimed;
      if (rest > 0) {
        this.pageIn += rest;
        this.replay += Math.min(this.gapReplay, rest);
      }
    }
    this.gapMarkCount = 0;
  }

  /** Does a page-in mark of `vatID` lie in the stretch (a mark or a deliver that names no vat: any)? */
  private marked(vatID: string | undefined): boolean {
    for (let i = 0; i < this.gapMarkCount; i += 1) {
      const v = this.gapMarks[i];
      if (v === undefined || vatID === undefined || v === vatID) return true;
    }
    return false;
  }

  /** A delivery that gets no deliver-result: it ends at `at` (the crank's end, or the next delivery); its syscalls are syscalls, the rest unknown. */
  private abandonDelivery(at: number): void {
    const d = this.delivery;
    d.end();
    this.syscallTime += d.syscallMicros;
    this.vatAndPipe += at - d.at - d.syscallMicros;
    this.vatKnown = false;
    this.beginGap(at);
  }
}
