/**
 * Makes crank entries (entry-types.ts), one fixed shape per type: each type
 * has one maker here, called by the byte reader (fast-reader.ts) and the
 * plain reader (plain-reader.ts) alike, so that V8 sees one object layout
 * per type wherever an entry came from, and the functions that read entries
 * are compiled once.
 *
 * `fromParsed` turns a JSON.parse'd line into the entry a consumer asked for:
 * the fields of its reads (reads.ts, compiled into a read-plan.ts), each
 * checked to be of its type (a field of another type reads as absent), the
 * rest left undefined.
 */
import type {
  ClistEntry,
  CrankEntry,
  CrankEntryType,
  CrankFinishEntry,
  CrankMessage,
  CrankStartEntry,
  Delivery,
  DeliverEntry,
  DeliverResultEntry,
  Syscall,
  SyscallEntry,
  SyscallResultEntry,
  Usage,
} from './entry-types.js';
import type { ReadPlan } from './read-plan.js';
import { callMethod, callTarget, deliveryResultPromise, deliveryTarget, messageMethod } from './call-heads.js';

type U<T> = T | undefined;

export function crankStart(
  crankNum: U<number>,
  crankType: U<string>,
  vatID: U<string>,
  messageType: U<string>,
  message: U<CrankMessage>,
  time: U<number>,
  monotime: U<number>,
): CrankStartEntry {
  return { type: 'crank-start', crankNum, crankType, vatID, messageType, message, time, monotime };
}

export function crankFinish(
  crankNum: U<number>,
  crankType: U<string>,
  messageType: U<string>,
  seconds: U<number>,
  time: U<number>,
  monotime: U<number>,
  crankhash: U<string>,
  activityhash: U<string>,
): CrankFinishEntry {
  return { type: 'crank-finish', crankNum, crankType, messageType, seconds, time, monotime, crankhash, activityhash };
}

export function syscall(
  crankNum: U<number>,
  vatID: U<string>,
  deliveryNum: U<number>,
  syscallNum: U<number>,
  replay: U<boolean>,
  name: U<string>,
  ksc: U<Syscall>,
  vsc: U<Syscall>,
  target: U<string>,
  method: U<string>,
  time: U<number>,
  monotime: U<number>,
): SyscallEntry {
  return { type: 'syscall', crankNum, vatID, deliveryNum, syscallNum, replay, name, ksc, vsc, target, method, time, monotime };
}

export function syscallResult(
  crankNum: U<number>,
  vatID: U<string>,
  deliveryNum: U<number>,
  syscallNum: U<number>,
  replay: U<boolean>,
  name: U<string>,
  status: U<string>,
  ksr: U<[string, unknown]>,
  vsr: U<[string, unknown]>,
  time: U<number>,
  monotime: U<number>,
): SyscallResultEntry {
  return { type: 'syscall-result', crankNum, vatID, deliveryNum, syscallNum, replay, name, status, ksr, vsr, time, monotime };
}

export function deliver(
  crankNum: U<number>,
  vatID: U<string>,
  deliveryNum: U<number>,
  replay: U<boolean>,
  kind: U<string>,
  method: U<string>,
  kd: U<Delivery>,
  vd: U<Delivery>,
  target: U<string>,
  resultPromise: U<string>,
  time: U<number>,
  monotime: U<number>,
): DeliverEntry {
  return { type: 'deliver', crankNum, vatID, deliveryNum, replay, kind, method, kd, vd, target, resultPromise, time, monotime };
}

export function deliverResult(
  crankNum: U<number>,
  vatID: U<string>,
  deliveryNum: U<number>,
  replay: U<boolean>,
  kind: U<string>,
  status: U<string>,
  problem: unknown,
  computrons: U<number>,
  timestamps: U<number[]>,
  dr: DeliverResultEntry['dr'],
  time: U<number>,
  monotime: U<number>,
): DeliverResultEntry {
  return { type: 'deliver-result', crankNum, vatID, deliveryNum, replay, kind, status, problem, computrons, timestamps, dr, time, monotime };
}

export function clist(
  crankNum: U<number>,
  mode: U<string>,
  vatID: U<string>,
  kobj: U<string>,
  vobj: U<string>,
  time: U<number>,
  monotime: U<number>,
): ClistEntry {
  return { type: 'clist', crankNum, mode, vatID, kobj, vobj, time, monotime };
}

// ---- from a parsed line

const num = (v: unknown): U<number> => (typeof v === 'number' ? v : undefined);
const str = (v: unknown): U<string> => (typeof v === 'string' ? v : undefined);
const bool = (v: unknown): U<boolean> => (typeof v === 'boolean' ? v : undefined);
function list<T>(v: unknown): U<T> {
  return Array.isArray(v) ? (v as T) : undefined;
}
const first = (v: unknown): U<string> => (Array.isArray(v) ? str(v[0]) : undefined);

/** A crank-start's message as `messageHead` asks for it: its type and vat, or all of a create-vat message. */
export function messageHead(message: unknown): U<CrankMessage> {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const m = message as CrankMessage;
  if (m.type === 'create-vat') return m;
  // A send goes where its target routes: a vatID beside it is none of SwingSet's, and not read.
  return { type: str(m.type), vatID: m.type === 'send' ? undefined : str(m.vatID) };
}

/** A delivery's method when it delivers a message (`['message', target, {methargs}]`, or 2021's `{method, args}`). */
export function deliveryMethod(delivery: unknown): U<string> {
  if (!Array.isArray(delivery) || delivery[0] !== 'message') return undefined;
  return messageMethod(delivery[2]);
}

/** `dr[1]` when `dr[0]` is not `ok`. */
export function problemOf(dr: unknown): unknown {
  return Array.isArray(dr) && dr[0] !== 'ok' ? dr[1] : undefined;
}

/** `dr[2].compute` when it is a finite number. */
export function computronsOf(dr: unknown): U<number> {
  if (!Array.isArray(dr)) return undefined;
  const usage = dr[2] as Usage | null | undefined;
  const compute = usage !== null && typeof usage === 'object' ? usage.compute : undefined;
  return typeof compute === 'number' && Number.isFinite(compute) ? compute : undefined;
}

/** `dr[2].timestamps` as DeliverResultEntry's `timestamps` says: undefined when absent, `[]` when not a list, NaN for an element that is not a finite number. */
export function timestampsOf(dr: unknown): U<number[]> {
  if (!Array.isArray(dr)) return undefined;
  const usage = dr[2] as Usage | null | undefined;
  if (usage === null || typeof usage !== 'object') return undefined;
  const list = usage.timestamps;
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) return [];
  return list.map((t: unknown) => (typeof t === 'number' && Number.isFinite(t) ? t : NaN));
}

type Line = Record<string, unknown>;

/** The entry the plan asks for, from a parsed line of a crank type (its `type` already checked). */
export function fromParsed(o: Line, type: CrankEntryType, plan: ReadPlan): CrankEntry {
  switch (type) {
    case 'crank-start': {
      const f = plan.crankStart;
      const message = f.message ? o.message : f.messageHead ? messageHead(o.message) : undefined;
      return crankStart(
        f.crankNum ? num(o.crankNum) : undefined,
        f.crankType ? str(o.crankType) : undefined,
        f.vatID ? str(o.vatID) : undefined,
        f.messageType ? str(o.messageType) : undefined,
        message !== null && typeof message === 'object' && !Array.isArray(message) ? (message as CrankMessage) : undefined,
        f.time ? num(o.time) : undefined,
        f.monotime ? num(o.monotime) : undefined,
      );
    }
    case 'crank-finish': {
      const f = plan.crankFinish;
      return crankFinish(
        f.crankNum ? num(o.crankNum) : undefined,
        f.crankType ? str(o.crankType) : undefined,
        f.messageType ? str(o.messageType) : undefined,
        f.seconds ? num(o.seconds) : undefined,
        f.time ? num(o.time) : undefined,
        f.monotime ? num(o.monotime) : undefined,
        f.crankhash ? str(o.crankhash) : undefined,
        f.activityhash ? str(o.activityhash) : undefined,
      );
    }
    case 'syscall': {
      // The name is the kernel's (`invoke` where a vat called `callNow`), and chooses the reads: a consumer
      // decides by it (--novatstore drops vatstore syscalls, their arguments not read). The byte reader
      // chooses by the slogger's `syscall` field, and leaves a line whose ksc names another to this path.
      const name = first(o.ksc) ?? str(o.syscall) ?? first(o.vsc);
      const f = plan.syscallFor(name).syscall;
      // Its target and method: from ksc when the line has one, else from vsc (a replay).
      const kernel = o.ksc !== undefined;
      const call = kernel ? o.ksc : o.vsc;
      return syscall(
        f.crankNum ? num(o.crankNum) : undefined,
        f.vatID ? str(o.vatID) : undefined,
        f.deliveryNum ? num(o.deliveryNum) : undefined,
        f.syscallNum ? num(o.syscallNum) : undefined,
        f.replay ? bool(o.replay) : undefined,
        f.name ? name : undefined,
        f.ksc ? list<Syscall>(o.ksc) : undefined,
        f.vsc || (f.vscWithoutKsc && o.ksc === undefined) ? list<Syscall>(o.vsc) : undefined,
        f.target ? callTarget(call, kernel) : undefined,
        f.method ? callMethod(call, kernel) : undefined,
        f.time ? num(o.time) : undefined,
        f.monotime ? num(o.monotime) : undefined,
      );
    }
    case 'syscall-result': {
      const name = str(o.syscall);
      const f = plan.syscallFor(name).result;
      return syscallResult(
        f.crankNum ? num(o.crankNum) : undefined,
        f.vatID ? str(o.vatID) : undefined,
        f.deliveryNum ? num(o.deliveryNum) : undefined,
        f.syscallNum ? num(o.syscallNum) : undefined,
        f.replay ? bool(o.replay) : undefined,
        f.name ? name : undefined,
        f.status ? (first(o.ksr) ?? first(o.vsr)) : undefined,
        f.ksr ? list<[string, unknown]>(o.ksr) : undefined,
        f.vsr || (f.vsrWithoutKsr && o.ksr === undefined) ? list<[string, unknown]>(o.vsr) : undefined,
        f.time ? num(o.time) : undefined,
        f.monotime ? num(o.monotime) : undefined,
      );
    }
    case 'deliver': {
      const f = plan.deliver;
      // Its target and result promise: from kd when the line has one, else from vd (a replay).
      const delivery = o.kd !== undefined ? o.kd : o.vd;
      return deliver(
        f.crankNum ? num(o.crankNum) : undefined,
        f.vatID ? str(o.vatID) : undefined,
        f.deliveryNum ? num(o.deliveryNum) : undefined,
        f.replay ? bool(o.replay) : undefined,
        f.kind ? (str(o.dispatch) ?? first(o.kd) ?? first(o.vd)) : undefined,
        f.method ? deliveryMethod(o.kd ?? o.vd) : undefined,
        f.kd ? list<Delivery>(o.kd) : undefined,
        f.vd || (f.vdWithoutKd && o.kd === undefined) ? list<Delivery>(o.vd) : undefined,
        f.target ? deliveryTarget(delivery) : undefined,
        f.resultPromise ? deliveryResultPromise(delivery) : undefined,
        f.time ? num(o.time) : undefined,
        f.monotime ? num(o.monotime) : undefined,
      );
    }
    case 'deliver-result': {
      const f = plan.deliverResult;
      return deliverResult(
        f.crankNum ? num(o.crankNum) : undefined,
        f.vatID ? str(o.vatID) : undefined,
        f.deliveryNum ? num(o.deliveryNum) : undefined,
        f.replay ? bool(o.replay) : undefined,
        f.kind ? str(o.dispatch) : undefined,
        f.status ? first(o.dr) : undefined,
        f.problem ? problemOf(o.dr) : undefined,
        f.computrons ? computronsOf(o.dr) : undefined,
        f.timestamps ? timestampsOf(o.dr) : undefined,
        f.dr ? list<DeliverResultEntry['dr']>(o.dr) : undefined,
        f.time ? num(o.time) : undefined,
        f.monotime ? num(o.monotime) : undefined,
      );
    }
    case 'clist': {
      const f = plan.clist;
      return clist(
        f.crankNum ? num(o.crankNum) : undefined,
        f.mode ? str(o.mode) : undefined,
        f.vatID ? str(o.vatID) : undefined,
        f.kobj ? str(o.kobj) : undefined,
        f.vobj ? str(o.vobj) : undefined,
        f.time ? num(o.time) : undefined,
        f.monotime ? num(o.monotime) : undefined,
      );
    }
  }
}
