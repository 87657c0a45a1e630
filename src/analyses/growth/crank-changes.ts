/**
 * What one crank changes of the c-lists and the promises: its `clist`
 * entries, each attributed to what carried it (the delivery or syscall
 * logged after it: the kernel translates refs, and logs the c-list change,
 * before it logs the delivery or syscall), message targets that prove an
 * export the slog did not show, sends' result promises, resolutions, and
 * terminated vats.
 *
 * A crank the kernel aborted (a failed delivery, or its vat exiting with a
 * failure: model/krefs.ts isAborted) is undone up to where it was aborted:
 * its c-list changes and syscalls before that point took no effect.
 */
import { isReplay, type Crank } from '../../model/crank.js';
import { isAborted } from '../../model/krefs.js';
import { syscallCall } from '../../model/syscall-call.js';
import type { ClistEntry, DeliverEntry, SlogEntry, SyscallEntry } from '../../scan/entry-types.js';
import { methargsMethod } from '../../scan/method-name.js';
import type { ClistModel } from './clist-model.js';
import type { UnresolvedPromises } from './promises.js';

/** What a crank's changes go to. */
export interface GrowthState {
  clists: ClistModel;
  promises: UnresolvedPromises;
  /** Any entry that is not a clist, deliver or syscall (terminate, cleanup, heaps, deliver-result). */
  other(entry: SlogEntry, crankNum: number): void;
}

/** The index of the item where an aborted crank was aborted (its changes before it were undone); -1 when it was not. */
function abortPoint(crank: Crank): number {
  if (!isAborted(crank)) return -1;
  let failedResult = -1;
  for (let i = 0; i < crank.items.length; i += 1) {
    const item = crank.items[i];
    if (item?.kind !== 'entry' || isReplay(item)) continue;
    const e = item.entry;
    if (e.type === 'terminate' && e.vatID === crank.vatID && e.shouldReject === true) return i;
    if (e.type === 'deliver-result' && failedResult < 0 && Array.isArray(e.dr) && e.dr[0] !== 'ok') failedResult = i;
  }
  return failedResult;
}

/** A message delivery's method, as the render prints it. */
function deliveryVia(entry: DeliverEntry): string {
  if (entry.kind === 'message') return `deliver ${entry.method ?? '<unintelligible method>'}`;
  return entry.kind ?? 'deliver';
}

/** Applies one crank's changes, in slog order. */
export function applyCrank(crank: Crank, state: GrowthState): void {
  const aborted = abortPoint(crank);
  const crankNum = crank.crankNum;
  // c-list additions waiting for the delivery or syscall that carried them.
  let waiting: Array<{ entry: ClistEntry }> = [];
  const attribute = (via: string): void => {
    for (const { entry } of waiting) addEntry(state, entry, crankNum, via);
    waiting = [];
  };
  crank.items.forEach((item, i) => {
    if (isReplay(item)) return;
    const undone = i < aborted;
    if (item.kind === 'syscall') {
      const via = undone ? undefined : syscall(item.call, state, crankNum);
      if (via !== undefined) attribute(via);
      else waiting = [];
      return;
    }
    const entry = item.entry;
    if (entry.type === 'clist') {
      if (undone) return;
      const clist = entry as ClistEntry;
      if (clist.mode === 'import' || clist.mode === 'export') waiting.push({ entry: clist });
      else if (clist.mode === 'drop' && typeof clist.vatID === 'string' && typeof clist.kobj === 'string') state.clists.drop(clist.vatID, clist.kobj, crankNum);
      return;
    }
    if (entry.type === 'deliver') {
      if (undone) {
        waiting = [];
        return;
      }
      attribute(deliveryVia(entry as DeliverEntry));
      deliver(entry as DeliverEntry, state, crankNum);
      return;
    }
    state.other(entry, crankNum);
  });
  attribute('the kernel');
}

/** A `clist` import or export, carried by `via`. */
export function addEntry(state: GrowthState, entry: ClistEntry, crankNum: number, via: string): void {
  const { vatID, kobj, vobj, mode } = entry;
  if (typeof vatID !== 'string' || typeof kobj !== 'string' || typeof vobj !== 'string') return;
  state.clists.add(vatID, kobj, vobj, { crank: crankNum, via });
  if (kobj.startsWith('kp')) state.promises.seen(kobj, vatID, mode === 'export' && vobj.startsWith('p+'), crankNum);
}

/** A live delivery: a message's target proves the vat's export; its result gets a decider; a notify settles promises. */
function deliver(entry: DeliverEntry, state: GrowthState, crankNum: number): void {
  const { kd, vd, vatID } = entry;
  if (!Array.isArray(kd) || typeof vatID !== 'string') return;
  if (kd[0] === 'message') {
    const target = kd[1];
    const vref = Array.isArray(vd) ? vd[1] : undefined;
    if (typeof target === 'string' && typeof vref === 'string' && vref.startsWith('o+') && !state.clists.holds(vatID, target)) {
      state.clists.add(vatID, target, vref, { crank: NaN, via: 'before the slog' });
    }
    const result = (kd[2] as { result?: unknown } | undefined)?.result;
    if (typeof result === 'string' && result.startsWith('kp')) state.promises.delivered(result, vatID, entry.method ?? '<unintelligible method>', crankNum);
  } else if (kd[0] === 'notify' && Array.isArray(kd[1])) {
    for (const resolution of kd[1]) {
      const kp = Array.isArray(resolution) ? resolution[0] : undefined;
      if (typeof kp === 'string') state.promises.settle(kp);
    }
  }
}

/** A live syscall: a send's result promise, a resolve's promises. What carried the c-list changes before it. */
function syscall(call: SyscallEntry, state: GrowthState, crankNum: number): string | undefined {
  const ksc = call.ksc;
  if (!Array.isArray(ksc)) return call.name;
  const read = syscallCall(ksc, true);
  if (read.name === 'send') {
    const method = methargsMethod(read.methargs);
    if (typeof read.result === 'string' && read.result.startsWith('kp')) state.promises.sent(read.result, method, crankNum);
    return `send ${method}`;
  }
  if (read.name === 'resolve') {
    for (const r of read.resolutions ?? []) if (typeof r.target === 'string') state.promises.settle(r.target);
    return 'resolve';
  }
  return read.name === 'unknown' ? read.called : read.name;
}
