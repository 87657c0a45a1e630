/**
 * The kref model: for every kref of a slog, how it came to be (which send
 * made a promise, which message or resolution first carried an object,
 * which vat exported it), who resolved it, and when it was dropped and
 * retired. Built once, streaming, from whole cranks (it is a CrankSink).
 *
 * Memory: one row of 13 Int32 fields per kref (see KrefRows), method names,
 * vat IDs and value paths interned, plus the sends without a result promise
 * that are still on their way. No entry is retained.
 *
 * Cranks the kernel aborted (the delivery failed, or the vat exited with a
 * failure: its `terminate` entry rejects) changed nothing: their syscalls
 * are ignored, and a message they received is delivered again later.
 */
import type { CrankSink } from './assembler.js';
import {
  decodeCapData,
  walkArgsSlots,
  walkValueSlots,
  type DecodedBody,
  type SlotVisitor,
} from './capdata-slots.js';
import { isCapData } from '../scan/capdata.js';
import type { Crank, SyscallPair } from './crank.js';
import { Interner } from './interner.js';
import { formatKref, krefId, krefKind, KIND_OBJECT, KIND_PROMISE, type KrefId, type KrefKind } from './kref-ids.js';
import { KrefRows } from './kref-rows.js';
import { syscallCall } from './syscall-call.js';
import type { ClistEntry, DeliverEntry, SlogEntry } from '../scan/entry-types.js';
import { messageMethargs } from '../scan/message.js';
import { methodName } from '../scan/method-name.js';
import { READ_ALL } from '../scan/reads.js';

/** How a kref first appeared in the slog. */
export const Origin = {
  /** First seen where nothing says how it was made (it predates the slog, or the kernel made it). */
  SEEN: 0,
  /** The result promise of a vat's `send` syscall. */
  SEND_RESULT: 1,
  /** The result promise of a message the kernel sent (bootstrap, a device's callback). */
  KERNEL_RESULT: 2,
  /** In the arguments of a vat's `send` (a new export, or a promise it passes). */
  SEND_ARG: 3,
  /** In the arguments of a message the kernel sent. */
  KERNEL_ARG: 4,
  /** In the value a promise was resolved to. */
  RESOLUTION: 5,
  /** In the result of a device `invoke`. */
  INVOKE_RESULT: 6,
  /** In the arguments of a device `invoke`. */
  INVOKE_ARG: 7,
} as const;
export type Origin = (typeof Origin)[keyof typeof Origin];

// The fields of a kref's row (-1: none).
const F_ORIGIN = 0; // an Origin; every kref held has one
const F_CRANK = 1; // crank of the first appearance
const F_VAT = 2; // vat (interned) that made it there; -1 for the kernel
const F_METHOD = 3; // method (interned) of the send or invoke that carried it
const F_COUNT = 4; // which send (invoke) of that method it was, from 1
const F_PARENT = 5; // the promise whose resolution carried it; the device invoked
const F_DETAIL = 6; // promises: k-th new promise in that value; others: path (interned)
const F_OWNER = 7; // objects: the exporting vat (interned)
const F_FLAGS = 8;
const F_RESOLVED = 9; // crank of the resolve syscall that settled the promise
const F_RESOLVER = 10; // vat (interned) that resolved it
const F_DROPPED = 11; // crank of the dropExports delivery (or abandonExports)
const F_RETIRED = 12; // crank of the retireExports / retireImports delivery (or abandonExports)
const WIDTH = 13;

const FLAG_ROOT = 1; // the vat's root object (its o+0)
const FLAG_REJECTED = 2;
const FLAG_SETTLED = 4; // resolved (by a resolve syscall, or seen notified)

/** Everything the model knows about one kref. Cranks and counts are -1 when unknown. */
export interface KrefFacts {
  id: KrefId;
  kref: string;
  kind: KrefKind;
  origin: Origin;
  /** Crank of its first appearance, and the vat that put it there (undefined: the kernel). */
  crank: number;
  vat: string | undefined;
  /** The send or invoke that carried it (method, interned and as text), and which one of that method it was. */
  methodId: number;
  method: string | undefined;
  count: number;
  /** The promise whose resolution carried it, or the device invoked (-1: none). */
  parent: KrefId;
  /** Promises: it was the k-th new promise of that value (from 1). */
  ordinal: number;
  /** Objects and devices: where in that value (`[1].brand` in arguments, `.left` in a resolution). */
  path: string | undefined;
  /** Objects: the vat that exports it, and whether it is that vat's root object. */
  owner: string | undefined;
  root: boolean;
  /** Promises: settled (by a vat's resolve, or seen notified), how, by whom, when. */
  settled: boolean;
  rejected: boolean;
  resolvedCrank: number;
  resolver: string | undefined;
  /** Objects: the dropExports and retireExports deliveries to the exporter. */
  droppedCrank: number;
  retiredCrank: number;
}

/** The message a crank delivered: which send it was, and from where. */
export interface MessageFacts {
  methodId: number;
  /** Which send of that method, from 1; -1 when the slog does not say. */
  count: number;
  /** The crank and vat whose send syscall sent it; -1 when the kernel sent it (or it predates the slog). */
  sentCrank: number;
  sentVat: number;
  /** Its result promise, or -1 for a send without one. */
  result: KrefId;
}

/** A message sent or a promise resolved: what the message flow is made of. */
export type IntervatAction =
  | { kind: 'send'; target: KrefId; methodId: number; count: number; result: KrefId }
  | { kind: 'resolve'; promise: KrefId; rejected: boolean };

/** What one crank did, as the model saw it. */
export interface CrankFacts {
  /** The first delivery's type (`message`, `notify`, `startVat`, ...), `routing`, or '' when none. */
  delivery: string;
  /** The kernel undid the crank: its actions took no effect. */
  aborted: boolean;
  /** For a message delivery. */
  message?: MessageFacts;
  /** For a notify delivery: the promises. */
  notified: KrefId[];
  /** Sends and resolves, in order (none when aborted). */
  actions: IntervatAction[];
}

interface PendingSend {
  target: KrefId;
  crank: number;
  vat: number;
  count: number;
}

/** Where the kref being created came from: the fields besides origin, crank and vat. */
interface Carrier {
  method: number;
  count: number;
  parent: KrefId;
}

const NO_CARRIER: Carrier = { method: -1, count: -1, parent: -1 };

/** The method of a decoded `methargs` body, as the text render prints it. */
function methodText(decoded: DecodedBody | undefined): string {
  if (!decoded || !Array.isArray(decoded.value)) return '<unintelligible method>';
  return methodName(decoded.value[0], decoded.smallcaps);
}

/** Did the kernel abort this crank (failed delivery, or the vat exited with a failure)? */
export function isAborted(crank: Crank): boolean {
  const dr = crank.deliverResult?.dr;
  if (Array.isArray(dr) && dr[0] !== 'ok') return true;
  for (const item of crank.items) {
    const entry = item.kind === 'entry' ? item.entry : undefined;
    if (entry?.type === 'terminate' && entry.vatID === crank.vatID && entry.shouldReject === true) return true;
  }
  return false;
}

/**
 * The key a value's path has in the first argument of the kernel's
 * bootstrap(vats, devices) message (`[0].comms`: `comms`), or undefined for
 * any other path: the name the record gives a vat's root.
 */
export function bootstrapRecordKey(path: string | undefined): string | undefined {
  return path === undefined ? undefined : /^\[0\]\.([^.[\]]+)$/.exec(path)?.[1];
}

/** What the kref model reads: every field of every crank entry (refs are everywhere). */
export const KREF_READS = READ_ALL;

export class KrefModel implements CrankSink {
  /** Krefs are read from the entries; no crank's time split is (CrankSink.partsUnread). */
  readonly partsUnread = true;
  private readonly rows = new KrefRows(WIDTH);
  /** Method names (as printed), vat IDs and value paths. */
  readonly methods = new Interner();
  /** The names the kernel's bootstrap(vats, devices) gives objects (`{comms: root, ...}`): a root's name when its vat has none. */
  readonly bootstrapNames = new Map<KrefId, string>();
  readonly vats = new Interner();
  readonly paths = new Interner();
  private readonly sendCounts: number[] = [];
  private readonly invokeCounts: number[] = [];
  /** Sends without a result promise, not yet delivered, by method. */
  private readonly pendingSends = new Map<number, PendingSend[]>();
  private sawKernelInit = false;
  private firstCrank = -1;

  // The crank being read.
  private crankNum = -1;
  private vat = -1;

  entry(entry: SlogEntry): void {
    if (entry.type === 'kernel-init-start') this.sawKernelInit = true;
  }

  crank(crank: Crank): void {
    this.addCrank(crank);
  }

  /** Does the slog start with the kernel (so a message no vat sent was sent by the kernel)? */
  get fromKernelStart(): boolean {
    return this.sawKernelInit || this.firstCrank === 0;
  }

  /** Number of krefs seen. */
  get size(): number {
    return this.rows.size;
  }

  /** Bytes of the per-kref rows (the interned strings and pending sends come on top). */
  get rowBytes(): number {
    return this.rows.bytes;
  }

  has(id: KrefId): boolean {
    return id >= 0 && this.rows.has(id);
  }

  /** Every kref seen: kd, then ko, then kp, each by number. */
  ids(): Iterable<KrefId> {
    return this.rows.ids();
  }

  /** How many messages of this method were sent (by vats and the kernel). */
  sendCount(methodId: number): number {
    return this.sendCounts[methodId] ?? 0;
  }

  invokeCount(methodId: number): number {
    return this.invokeCounts[methodId] ?? 0;
  }

  /** The promise (or device) a kref's origin points to, or -1. */
  parent(id: KrefId): KrefId {
    return this.rows.get(id, F_PARENT);
  }

  facts(id: KrefId): KrefFacts | undefined {
    if (!this.has(id)) return undefined;
    const get = (field: number): number => this.rows.get(id, field);
    const flags = Math.max(0, get(F_FLAGS));
    const kind = krefKind(id);
    const detail = get(F_DETAIL);
    return {
      id,
      kref: formatKref(id),
      kind,
      origin: get(F_ORIGIN) as Origin,
      crank: get(F_CRANK),
      vat: this.vats.get(get(F_VAT)),
      methodId: get(F_METHOD),
      method: this.methods.get(get(F_METHOD)),
      count: get(F_COUNT),
      parent: get(F_PARENT),
      ordinal: kind === KIND_PROMISE ? detail : -1,
      path: kind === KIND_PROMISE ? undefined : this.paths.get(detail),
      owner: this.vats.get(get(F_OWNER)),
      root: (flags & FLAG_ROOT) !== 0,
      settled: (flags & FLAG_SETTLED) !== 0,
      rejected: (flags & FLAG_REJECTED) !== 0,
      resolvedCrank: get(F_RESOLVED),
      resolver: this.vats.get(get(F_RESOLVER)),
      droppedCrank: get(F_DROPPED),
      retiredCrank: get(F_RETIRED),
    };
  }

  /** Reads one crank into the model and says what it did. */
  addCrank(crank: Crank): CrankFacts {
    if (this.firstCrank < 0) this.firstCrank = crank.crankNum;
    this.crankNum = crank.crankNum;
    this.vat = crank.vatID === undefined ? -1 : this.vats.id(crank.vatID);
    const facts: CrankFacts = { delivery: '', aborted: false, notified: [], actions: [] };
    if (crank.crankType === 'routing') {
      facts.delivery = 'routing';
      this.routing(crank);
      return facts;
    }
    facts.aborted = isAborted(crank);
    for (const item of crank.items) {
      if (item.kind === 'syscall') {
        if (!facts.aborted) this.syscall(item, facts);
      } else if (item.entry.type === 'deliver') {
        this.deliver(item.entry as DeliverEntry, facts);
      }
    }
    if (!facts.aborted) {
      // After the syscalls: a clist export line comes just before the syscall that tells how the kref was made.
      for (const item of crank.items) {
        if (item.kind === 'entry' && item.entry.type === 'clist') this.clist(item.entry as ClistEntry);
      }
    }
    return facts;
  }

  // ---- creating rows

  private create(id: KrefId, origin: Origin, vat: number, carrier: Carrier, detail: number): void {
    const rows = this.rows;
    rows.set(id, F_ORIGIN, origin);
    rows.set(id, F_CRANK, this.crankNum);
    rows.set(id, F_VAT, vat);
    rows.set(id, F_METHOD, carrier.method);
    rows.set(id, F_COUNT, carrier.count);
    rows.set(id, F_PARENT, carrier.parent);
    rows.set(id, F_DETAIL, detail);
    rows.set(id, F_FLAGS, 0);
  }

  /** A kref seen without anything saying how it was made. */
  private see(ref: unknown, vat = this.vat): KrefId {
    const id = krefId(ref);
    if (id >= 0 && !this.rows.has(id)) this.create(id, Origin.SEEN, vat, NO_CARRIER, -1);
    return id;
  }

  private hasNewSlot(slots: unknown[]): boolean {
    for (const slot of slots) {
      const id = krefId(slot);
      if (id >= 0 && !this.rows.has(id)) return true;
    }
    return false;
  }

  /**
   * Creates the krefs that first appear in a value: promises numbered in
   * order of appearance, objects and devices by their path in the value.
   */
  private createSlots(
    slots: unknown[],
    decoded: DecodedBody | undefined,
    walk: (decoded: DecodedBody, visit: SlotVisitor) => void,
    origin: Origin,
    vat: number,
    carrier: Carrier,
  ): void {
    let promises = 0;
    const visit = (slot: number, path: string): void => {
      const id = krefId(slots[slot]);
      if (id < 0 || this.rows.has(id)) return;
      const detail = krefKind(id) === KIND_PROMISE ? (promises += 1) : this.paths.id(path);
      this.create(id, origin, vat, carrier, detail);
    };
    if (decoded) walk(decoded, visit);
    // Slots the body never mentions still get a row.
    for (let i = 0; i < slots.length; i += 1) {
      const id = krefId(slots[i]);
      if (id >= 0 && !this.rows.has(id)) this.create(id, origin, vat, carrier, -1);
    }
  }

  private createInCapData(data: unknown, origin: Origin, vat: number, carrier: Carrier): void {
    if (!isCapData(data) || !this.hasNewSlot(data.slots)) return;
    this.createSlots(data.slots, decodeCapData(data), walkValueSlots, origin, vat, carrier);
  }

  private nextCount(counts: number[], methodId: number): number {
    const count = (counts[methodId] ?? 0) + 1;
    counts[methodId] = count;
    return count;
  }

  // ---- cranks

  /** A routing crank: a message the kernel itself sent first shows here. */
  private routing(crank: Crank): void {
    const message = crank.start?.message;
    if (message?.type === 'send') {
      const msg = message.msg as { result?: unknown } | undefined;
      this.see(message.target, -1);
      const result = krefId(msg?.result);
      const methargs = messageMethargs(msg);
      this.noteBootstrapRecord(methargs);
      if (result >= 0 && !this.rows.has(result)) this.kernelMessage(methargs, result);
    } else if (message?.type === 'notify') {
      this.see(message.kpid, -1);
    }
  }

  /**
   * The kernel's bootstrap(vats, devices) message (told by its body's first
   * bytes, so that no other message is decoded for it): the key each object
   * has in its first argument names it (`{comms: root, ...}`).
   */
  private noteBootstrapRecord(methargs: unknown): void {
    if (!isCapData(methargs)) return;
    const body = methargs.body;
    if (typeof body !== 'string' || !(body.startsWith('#["bootstrap",') || body.startsWith('["bootstrap",'))) return;
    const decoded = decodeCapData(methargs);
    if (!decoded) return;
    const slots = methargs.slots;
    walkArgsSlots(decoded, (slot, path) => {
      const name = bootstrapRecordKey(path);
      const id = krefId(slots[slot]);
      if (name !== undefined && id >= 0 && krefKind(id) === KIND_OBJECT && !this.bootstrapNames.has(id)) this.bootstrapNames.set(id, name);
    });
  }

  /** A message no vat's send created: counted, its result and new arguments made by the kernel. */
  private kernelMessage(methargs: unknown, result: KrefId): { methodId: number; count: number } {
    const decoded = isCapData(methargs) ? decodeCapData(methargs) : undefined;
    const methodId = this.methods.id(methodText(decoded));
    const count = this.nextCount(this.sendCounts, methodId);
    const carrier = { method: methodId, count, parent: -1 };
    if (result >= 0) this.create(result, Origin.KERNEL_RESULT, -1, carrier, -1);
    if (isCapData(methargs) && this.hasNewSlot(methargs.slots)) {
      this.createSlots(methargs.slots, decoded, walkArgsSlots, Origin.KERNEL_ARG, -1, carrier);
    }
    return { methodId, count };
  }

  private deliver(entry: DeliverEntry, facts: CrankFacts): void {
    const kd = entry.kd;
    if (!Array.isArray(kd)) return;
    const kind = String(kd[0]);
    const first = facts.delivery === '';
    if (first) facts.delivery = kind;
    const live = !facts.aborted;
    switch (kind) {
      case 'message':
        if (first) facts.message = this.deliverMessage(kd[1], kd[2], entry.vd, live);
        return;
      case 'notify': {
        if (!Array.isArray(kd[1])) return;
        for (const resolution of kd[1] as unknown[]) {
          if (!Array.isArray(resolution)) continue;
          const [kpid, how] = resolution as [unknown, { state?: unknown; data?: unknown } | undefined];
          const id = live ? this.see(kpid) : krefId(kpid);
          if (id < 0) continue;
          if (first) facts.notified.push(id);
          if (!live) continue;
          this.settle(id, how?.state === 'rejected', -1);
          this.createInCapData(how?.data, Origin.RESOLUTION, this.vat, { method: -1, count: -1, parent: id });
        }
        return;
      }
      case 'dropExports':
      case 'retireExports':
      case 'retireImports': {
        if (!live || !Array.isArray(kd[1])) return;
        for (const ref of kd[1] as unknown[]) {
          const id = this.see(ref);
          if (id < 0) continue;
          const field = kind === 'dropExports' ? F_DROPPED : F_RETIRED;
          if (this.rows.get(id, field) === -1) this.rows.set(id, field, this.crankNum);
        }
        return;
      }
      case 'startVat':
        if (live && isCapData(kd[1])) for (const ref of kd[1].slots) this.see(ref);
        return;
      default:
        return;
    }
  }

  private deliverMessage(target: unknown, msgValue: unknown, vd: unknown, live: boolean): MessageFacts {
    const msg = (msgValue ?? {}) as { result?: unknown };
    const targetId = live ? this.see(target) : krefId(target);
    const exported = Array.isArray(vd) && typeof vd[1] === 'string' && vd[1].startsWith('o+');
    if (live && exported && targetId >= 0 && krefKind(targetId) === KIND_OBJECT) {
      this.own(targetId, this.vat, (vd as unknown[])[1] === 'o+0');
    }
    const result = krefId(msg.result);
    // Today's `{methargs, result}` or 2021's `{method, args, result}` (scan/message.ts).
    const methargs = messageMethargs(msg);
    if (live) this.noteBootstrapRecord(methargs);
    if (result >= 0) {
      if (!this.rows.has(result) && live) this.kernelMessage(methargs, result);
      const origin = this.rows.get(result, F_ORIGIN);
      if (origin === Origin.SEND_RESULT || origin === Origin.KERNEL_RESULT) {
        return {
          methodId: this.rows.get(result, F_METHOD),
          count: this.rows.get(result, F_COUNT),
          sentCrank: origin === Origin.SEND_RESULT ? this.rows.get(result, F_CRANK) : -1,
          sentVat: this.rows.get(result, F_VAT),
          result,
        };
      }
      const decoded = isCapData(methargs) ? decodeCapData(methargs) : undefined;
      return { methodId: this.methods.id(methodText(decoded)), count: -1, sentCrank: -1, sentVat: -1, result };
    }
    // A send without a result promise: the oldest pending send of that method to this target
    // (or to a promise, which the kernel forwards to where it resolved).
    const decoded = isCapData(methargs) ? decodeCapData(methargs) : undefined;
    const methodId = this.methods.id(methodText(decoded));
    const queue = this.pendingSends.get(methodId);
    let at = queue ? queue.findIndex((p) => p.target === targetId) : -1;
    if (queue && at < 0) at = queue.findIndex((p) => p.target >= 0 && krefKind(p.target) === KIND_PROMISE);
    const pending = queue && at >= 0 ? queue[at] : undefined;
    if (pending) {
      if (live) queue?.splice(at, 1);
      return { methodId, count: pending.count, sentCrank: pending.crank, sentVat: pending.vat, result: -1 };
    }
    if (!live) return { methodId, count: -1, sentCrank: -1, sentVat: -1, result: -1 };
    const { count } = this.kernelMessage(methargs, -1);
    return { methodId, count, sentCrank: -1, sentVat: -1, result: -1 };
  }

  private syscall(pair: SyscallPair, facts: CrankFacts): void {
    const ksc = pair.call.ksc;
    if (!Array.isArray(ksc)) return;
    const call = syscallCall(ksc, true);
    switch (call.name) {
      case 'send':
        this.send(call.target, { methargs: call.methargs, result: call.result }, facts);
        return;
      case 'resolve':
        for (const { target, rejected, data } of call.resolutions ?? []) {
          const id = this.see(target);
          if (id < 0) continue;
          this.settle(id, rejected, this.vat);
          this.createInCapData(data, Origin.RESOLUTION, this.vat, { method: -1, count: -1, parent: id });
          facts.actions.push({ kind: 'resolve', promise: id, rejected });
        }
        return;
      case 'invoke':
      case 'callNow': {
        const device = this.see(call.target);
        const methodId = this.methods.id(String(call.method));
        const count = this.nextCount(this.invokeCounts, methodId);
        const carrier = { method: methodId, count, parent: device };
        this.createInCapData(call.args, Origin.INVOKE_ARG, this.vat, carrier);
        const ksr = pair.result?.ksr;
        if (Array.isArray(ksr) && ksr[0] === 'ok') this.createInCapData(ksr[1], Origin.INVOKE_RESULT, this.vat, carrier);
        return;
      }
      case 'subscribe':
        this.see(call.target);
        return;
      case 'dropImports':
      case 'retireImports':
      case 'retireExports':
      case 'abandonExports':
        for (const ref of call.refs ?? []) {
          const id = this.see(ref);
          if (id < 0 || call.name !== 'abandonExports') continue;
          if (this.rows.get(id, F_DROPPED) === -1) this.rows.set(id, F_DROPPED, this.crankNum);
          if (this.rows.get(id, F_RETIRED) === -1) this.rows.set(id, F_RETIRED, this.crankNum);
        }
        return;
      default:
        return;
    }
  }

  private send(target: unknown, msgValue: unknown, facts: CrankFacts): void {
    const msg = (msgValue ?? {}) as { methargs?: unknown; result?: unknown };
    const targetId = this.see(target);
    const methargs = msg.methargs;
    const decoded = isCapData(methargs) ? decodeCapData(methargs) : undefined;
    const methodId = this.methods.id(methodText(decoded));
    const count = this.nextCount(this.sendCounts, methodId);
    const carrier = { method: methodId, count, parent: -1 };
    const result = krefId(msg.result);
    if (result >= 0) {
      if (!this.rows.has(result)) this.create(result, Origin.SEND_RESULT, this.vat, carrier, -1);
    } else {
      let queue = this.pendingSends.get(methodId);
      if (!queue) this.pendingSends.set(methodId, (queue = []));
      queue.push({ target: targetId, crank: this.crankNum, vat: this.vat, count });
    }
    if (isCapData(methargs) && this.hasNewSlot(methargs.slots)) {
      this.createSlots(methargs.slots, decoded, walkArgsSlots, Origin.SEND_ARG, this.vat, carrier);
    }
    facts.actions.push({ kind: 'send', target: targetId, methodId, count, result });
  }

  /** The first resolution of a promise counts (a vat's resolve: its crank and vat; a notify: -1). */
  private settle(id: KrefId, rejected: boolean, resolver: number): void {
    const flags = Math.max(0, this.rows.get(id, F_FLAGS));
    if (flags & FLAG_SETTLED) return;
    this.rows.set(id, F_FLAGS, flags | FLAG_SETTLED | (rejected ? FLAG_REJECTED : 0));
    if (resolver >= 0) {
      this.rows.set(id, F_RESOLVED, this.crankNum);
      this.rows.set(id, F_RESOLVER, resolver);
    }
  }

  private own(id: KrefId, vat: number, root: boolean): void {
    if (this.rows.get(id, F_OWNER) === -1) this.rows.set(id, F_OWNER, vat);
    if (root) this.rows.set(id, F_FLAGS, Math.max(0, this.rows.get(id, F_FLAGS)) | FLAG_ROOT);
  }

  private clist(entry: ClistEntry): void {
    const vat = typeof entry.vatID === 'string' ? this.vats.id(entry.vatID) : -1;
    const id = this.see(entry.kobj, vat);
    if (id < 0 || entry.mode !== 'export' || typeof entry.vobj !== 'string' || !entry.vobj.startsWith('o+')) return;
    this.own(id, vat, entry.vobj === 'o+0');
  }
}
