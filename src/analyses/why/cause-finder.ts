/**
 * The cause of every delivery crank (cause.ts), found as the slog is read:
 * each crank's `send`, `resolve`, `subscribe`, GC and vat-admin syscalls are
 * put in flight (in-flight.ts) and taken out by the delivery they caused.
 * A crank's cause is its first live delivery's (a crank's later deliveries,
 * such as the bringOutYourDead before a heap snapshot or an upgrade's
 * startVat, came from the same queue item). Routing cranks move a message
 * between the kernel's queues: they have no cause of their own here.
 *
 * A crank the kernel undid (its delivery failed, or its vat exited with a
 * failure) queued nothing, and the message it received stays in flight
 * (the kernel delivers it again, or rejects it).
 */
import { triggerText } from '../../model/chain.js';
import { crankStartTime, isReplay, type Crank, type SyscallPair } from '../../model/crank.js';
import { decodeCapData } from '../../model/capdata-slots.js';
import { syscallCall } from '../../model/syscall-call.js';
import { isCapData } from '../../scan/capdata.js';
import type { DeliverEntry, SlogEntry } from '../../scan/entry-types.js';
import { messageMethargs } from '../../scan/message.js';
import { methodName } from '../../scan/method-name.js';
import type { Reads } from '../../scan/reads.js';
import type { Cause, DeliveryCause } from './cause.js';
import { InFlight, type InFlightWatch } from './in-flight.js';

/** What the causes read (besides the crank model's crank numbers, vats, times and replay flags). */
export const CAUSE_READS: Reads = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'time'],
  'crank-finish': ['crankNum', 'time'],
  syscall: ['crankNum', 'vatID', 'syscallNum', 'replay', 'ksc', 'time'],
  'syscall-result': [],
  deliver: ['crankNum', 'vatID', 'replay', 'kind', 'method', 'kd', 'time'],
  'deliver-result': ['status'],
  clist: [],
};

/** What `routed` reads besides CAUSE_READS: the message a routing crank moves. */
export const ROUTING_READS: Reads = { ...CAUSE_READS, 'crank-start': [...CAUSE_READS['crank-start'], 'message'] };

/** GC deliveries, and the syscalls whose drops they deliver. */
const GC_DELIVERY_OF: Readonly<Record<string, string>> = {
  dropImports: 'dropExports',
  retireImports: 'retireExports',
  retireExports: 'retireImports',
  abandonExports: 'retireImports',
};
const GC_DELIVERIES: ReadonlySet<string> = new Set(['dropExports', 'retireExports', 'retireImports']);
/** A vat-admin device call that makes the kernel start, upgrade or reconfigure a vat. */
const VAT_REQUEST = /^(create|upgrade|changeOptions)/;
/** Deliveries a vat-admin request queues. */
const VAT_ADMIN_DELIVERIES: ReadonlySet<string> = new Set(['startVat', 'stopVat', 'changeVatOptions']);

/** The method of a send's methargs, as the render prints it (`<unintelligible method>` when not readable). */
function sentMethod(methargs: unknown): string {
  const decoded = isCapData(methargs) ? decodeCapData(methargs) : undefined;
  if (!decoded || !Array.isArray(decoded.value)) return '<unintelligible method>';
  return methodName(decoded.value[0], decoded.smallcaps);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

/** Did the kernel undo this crank (its delivery failed, or its vat exited with a failure)? */
function undone(crank: Crank): boolean {
  const status = crank.deliverResult?.status;
  if (status !== undefined && status !== 'ok') return true;
  for (const item of crank.items) {
    if (item.kind !== 'entry' || item.entry.type !== 'terminate') continue;
    const entry = item.entry as { vatID?: unknown; shouldReject?: unknown };
    if (entry.vatID === crank.vatID && entry.shouldReject === true) return true;
  }
  return false;
}

/** A delivery's target, method and result, or a notify's promise, for a DeliveryCause. */
function deliveryFields(kd: readonly unknown[], entry: DeliverEntry): Pick<DeliveryCause, 'target' | 'method' | 'result'> {
  if (kd[0] === 'message') {
    const msg = (kd[2] ?? {}) as { result?: unknown };
    const result = typeof msg.result === 'string' ? msg.result : undefined;
    return { target: text(kd[1]), method: entry.method ?? sentMethod(messageMethargs(kd[2])), ...(result === undefined ? {} : { result }) };
  }
  if (kd[0] === 'notify') {
    const first = Array.isArray(kd[1]) ? (kd[1] as unknown[])[0] : undefined;
    return Array.isArray(first) ? { target: text(first[0]) } : {};
  }
  return {};
}

export class CauseFinder {
  readonly inFlight: InFlight;
  private sawKernelStart = false;
  /** Undefined until the first crank: does the slog start after the kernel did? */
  private midway: boolean | undefined;
  /** Syscalls of the open crank that spilled (model/assembler.ts), kept until the crank ends. */
  private readonly spilled = new WeakMap<Crank, { pairs: SyscallPair[]; count: number }>();

  constructor(watch?: InFlightWatch) {
    this.inFlight = new InFlight(watch);
  }

  /** Does the slog start after the kernel did (a flight-recorder dump, a slog cut at its start)? */
  get startedMidway(): boolean {
    return this.midway === true;
  }

  entry(entry: SlogEntry): void {
    if (entry.type === 'kernel-init-start') this.sawKernelStart = true;
  }

  /** The open crank holds many syscalls: keep the few that queue something (CrankSink.spill). */
  spill(crank: Crank): void {
    let kept = this.spilled.get(crank);
    if (!kept) this.spilled.set(crank, (kept = { pairs: [], count: 0 }));
    for (let i = crank.spilled ?? 0; i < crank.items.length; i += 1) {
      const item = crank.items[i];
      if (item?.kind !== 'syscall' || item.replay) continue;
      kept.count += 1;
      if (queues(item)) kept.pairs.push({ ...item, call: { ...item.call, syscallNum: item.call.syscallNum ?? kept.count - 1 } });
    }
  }

  /** A whole crank: its cause when it is a delivery crank (undefined for routing cranks and cranks without a live delivery). */
  crank(crank: Crank): DeliveryCause | undefined {
    if (this.midway === undefined) this.midway = !this.sawKernelStart && (crank.opening !== 'start' || crank.crankNum > 0);
    if (crank.crankType === 'routing') return undefined;
    const deliver = crank.deliver;
    const kd = deliver?.kd;
    const vat = crank.vatID ?? deliver?.vatID;
    if (!deliver || !Array.isArray(kd) || vat === undefined) return undefined;
    const kind = text(kd[0]);
    const live = !undone(crank);
    const time = crankStartTime(crank);
    const cause = this.causeOf(crank, kind, kd, vat, live);
    if (!GC_DELIVERIES.has(kind)) this.inFlight.clearDrops();
    const finish = crank.finish?.time;
    if (live) this.queueSyscalls(crank, vat);
    this.inFlight.delivered(vat, { kind: 'reap', crank: crank.crankNum, vat, syscallNum: -1, time: finish ?? time }, kind !== 'bringOutYourDead');
    const queueMicros = time !== undefined && cause.time !== undefined && cause.crank >= 0 ? Math.round((time - cause.time) * 1e6) : undefined;
    return { crankNum: crank.crankNum, vatID: vat, delivery: kind, time, cause, queueMicros, ...deliveryFields(kd, deliver) };
  }

  /**
   * A routing crank moves a queue item from the acceptance queue to the run
   * queue (or a promise's queue): what it moved (its crank-start's message:
   * a `send`, a `notify`, a `startVat`...) and what queued that, looked at
   * in flight and left there (its delivery takes it); the run's trigger (or
   * the slog's start) when nothing of the slog did. Needs the crank-start's
   * `message` (ROUTING_READS); undefined for any other crank, or a message
   * of no known type.
   */
  routed(crank: Crank): { type: string; cause: Cause } | undefined {
    if (crank.crankType !== 'routing') return undefined;
    const message = crank.start?.message as Record<string, unknown> | undefined;
    const type = message?.type;
    if (typeof type !== 'string') return undefined;
    let found: Cause | undefined;
    if (type === 'send') {
      const msg = (message?.msg ?? {}) as { result?: unknown };
      const result = typeof msg.result === 'string' ? msg.result : undefined;
      found = this.inFlight.message(text(message?.target), result === undefined ? sentMethod(messageMethargs(msg)) : '', result, false);
    } else if (type === 'notify') {
      found = this.inFlight.notify(text(message?.vatID), text(message?.kpid), false);
    } else if (VAT_ADMIN_DELIVERIES.has(type)) {
      found = this.inFlight.vatRequested(false);
    }
    return { type, cause: found ?? this.unqueued(crank) };
  }

  /** What queued the crank's delivery. */
  private causeOf(crank: Crank, kind: string, kd: readonly unknown[], vat: string, live: boolean): Cause {
    return this.queuedBy(kind, kd, vat, live) ?? this.unqueued(crank);
  }

  /** No crank of the slog queued it: the run's trigger, the kernel or a device, or before the slog. */
  private unqueued(crank: Crank): Cause {
    if (this.midway) return { kind: 'before-slog', crank: -1, vat: undefined, syscallNum: -1, time: undefined };
    const trigger = crank.run ? triggerText(crank.run.trigger) : crank.block?.bootstrap ? 'bootstrap' : undefined;
    return { kind: 'outside', crank: -1, vat: undefined, syscallNum: -1, time: undefined, ...(trigger === undefined ? {} : { trigger }) };
  }

  private queuedBy(kind: string, kd: readonly unknown[], vat: string, live: boolean): Cause | undefined {
    if (kind === 'message') {
      const msg = (kd[2] ?? {}) as { result?: unknown };
      const result = typeof msg.result === 'string' ? msg.result : undefined;
      // Only a message without a result promise is matched by its method: the others are not decoded.
      return this.inFlight.message(text(kd[1]), result === undefined ? sentMethod(messageMethargs(kd[2])) : '', result, live);
    }
    if (kind === 'notify') {
      const first = Array.isArray(kd[1]) ? (kd[1] as unknown[])[0] : undefined;
      return Array.isArray(first) ? this.inFlight.notify(vat, text(first[0]), live) : undefined;
    }
    if (GC_DELIVERIES.has(kind)) {
      const krefs = Array.isArray(kd[1]) ? (kd[1] as unknown[]).map(text) : [];
      const dropped = this.inFlight.dropped(kind, krefs, live);
      if (dropped) return dropped;
      // The kernel dropped its own reference (a message's argument, a resolved promise's value) after the crank before.
      const before = this.inFlight.previousDelivery();
      return before ? { ...before, kind: 'gc', syscallNum: -1 } : undefined;
    }
    if (kind === 'bringOutYourDead') return this.inFlight.reap(vat);
    if (VAT_ADMIN_DELIVERIES.has(kind)) return this.inFlight.vatRequested(live);
    return undefined;
  }

  /** Puts in flight what the crank's live syscalls queued. */
  private queueSyscalls(crank: Crank, vat: string): void {
    const kept = this.spilled.get(crank);
    let count = kept?.count ?? 0;
    for (const pair of kept?.pairs ?? []) this.queueSyscall(crank.crankNum, vat, pair, pair.call.syscallNum ?? 0);
    for (let i = crank.spilled ?? 0; i < crank.items.length; i += 1) {
      const item = crank.items[i];
      if (item?.kind !== 'syscall' || isReplay(item)) continue;
      count += 1;
      if (queues(item)) this.queueSyscall(crank.crankNum, vat, item, item.call.syscallNum ?? count - 1);
    }
  }

  private queueSyscall(crankNum: number, vat: string, pair: SyscallPair, syscallNum: number): void {
    const ksc = pair.call.ksc as unknown[];
    const call = syscallCall(ksc, true);
    const cause = (kind: Cause['kind']): Cause => ({ kind, crank: crankNum, vat, syscallNum, time: pair.call.time });
    switch (call.name) {
      case 'send': {
        const result = typeof call.result === 'string' ? call.result : undefined;
        this.inFlight.send(text(call.target), result === undefined ? sentMethod(call.methargs) : '', result, cause('send'));
        return;
      }
      case 'resolve': {
        const resolved = cause('resolve');
        for (const r of call.resolutions ?? []) this.inFlight.resolve(text(r.target), resolved);
        return;
      }
      case 'subscribe':
        this.inFlight.subscribe(vat, text(call.target), cause('subscribe'));
        return;
      case 'dropImports':
      case 'retireImports':
      case 'retireExports':
      case 'abandonExports': {
        const dropped = cause('gc');
        for (const ref of call.refs ?? []) this.inFlight.drop(GC_DELIVERY_OF[call.name] as string, text(ref), dropped);
        return;
      }
      case 'invoke':
      case 'callNow':
        if (typeof call.method === 'string' && VAT_REQUEST.test(call.method)) this.inFlight.vatRequest(cause('create'));
        return;
      default:
        return;
    }
  }
}

/** Does this syscall queue something (a send, resolve, subscribe, GC drop or vat-admin request)? */
function queues(pair: SyscallPair): boolean {
  const name = Array.isArray(pair.call.ksc) ? pair.call.ksc[0] : undefined;
  return (
    name === 'send' ||
    name === 'resolve' ||
    name === 'subscribe' ||
    (typeof name === 'string' && name in GC_DELIVERY_OF) ||
    name === 'invoke' ||
    name === 'callNow'
  );
}
