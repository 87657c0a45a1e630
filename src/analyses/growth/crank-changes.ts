/**
 * What one crank changes of the c-lists and the promises: its `clist`
 * entries, each attributed to what carried it (the delivery or syscall
 * logged after it: the kernel translates refs, and logs the c-list change,
 * before it logs the delivery or syscall), message targets that prove an
 * export the slog did not show, the static vats' roots the bootstrap
 * message names (each vat's `o+0` export, made at kernel start, before the
 * slog), sends' result promises, resolutions, and terminated vats.
 *
 * A crank's items are read into a list of changes (`collect`), then the
 * changes applied (`applyChanges`): a crank of many syscalls is read a part
 * at a time as the assembler spills it (model/assembler.ts, "Spilling"),
 * its changes kept (they are few: a vatstore syscall changes nothing) and
 * applied only when the crank ends, since a restart may yet abandon it.
 *
 * A crank the kernel aborted (a failed delivery, or its vat exiting with a
 * failure: model/krefs.ts isAborted) is undone up to where it was aborted:
 * its changes before that point took no effect.
 */
import { isReplay, type Crank, type CrankItem } from '../../model/crank.js';
import { isAborted } from '../../model/krefs.js';
import { syscallCall } from '../../model/syscall-call.js';
import type { ClistEntry, DeliverEntry, SlogEntry, SyscallEntry } from '../../scan/entry-types.js';
import { isMessage, messageMethargs } from '../../scan/message.js';
import { isCapData } from '../../scan/capdata.js';
import { decodeCapData, walkArgsSlots } from '../../model/capdata-slots.js';
import { methargsMethod } from '../../scan/method-name.js';
import type { ClistModel } from './clist-model.js';
import type { UnresolvedPromises } from './promises.js';

/** What a crank's changes go to. */
export interface GrowthState {
  clists: ClistModel;
  promises: UnresolvedPromises;
  /** The static vat the kernel created with this name (create-vat), if the slog says. */
  staticVat(name: string): string | undefined;
  /** Any entry that is not a clist, deliver or syscall (terminate, cleanup, heaps, deliver-result). */
  other(entry: SlogEntry, crankNum: number): void;
}

/** One change, in slog order. */
type Change =
  | { kind: 'add'; entry: ClistEntry; via: string }
  | { kind: 'drop'; vatID: string; kref: string }
  /** A message's target the vat's c-list may lack (an export made before the slog). */
  | { kind: 'target'; vatID: string; kref: string; vref: string }
  /** A static vat's root, by the vat's name, as the bootstrap message names it: its `o+0` export, which the c-list may lack. */
  | { kind: 'root'; name: string; kref: string }
  | { kind: 'delivered'; kp: string; vatID: string; method: string }
  | { kind: 'sent'; kp: string; method: string }
  /** A routing crank's message with a result: queued, unless it is known already. */
  | { kind: 'queued'; kp: string; method: string }
  | { kind: 'settle'; kp: string }
  /** Any other entry: `other` takes it (a terminate or a failed deliver-result may be where the crank was aborted). */
  | { kind: 'other'; entry: SlogEntry };

/** A crank's changes read so far, and its c-list additions still waiting for what carried them. */
export interface CrankFold {
  changes: Change[];
  waiting: ClistEntry[];
}

export const newFold = (): CrankFold => ({ changes: [], waiting: [] });

/** The entry where an aborted crank was aborted (its changes before it were undone); undefined when it was not. */
function abortEntry(crank: Crank): SlogEntry | undefined {
  if (!isAborted(crank)) return undefined;
  let failedResult: SlogEntry | undefined;
  for (const item of crank.items) {
    if (item.kind !== 'entry' || isReplay(item)) continue;
    const e = item.entry;
    if (e.type === 'terminate' && e.vatID === crank.vatID && e.shouldReject === true) return e;
    if (e.type === 'deliver-result' && failedResult === undefined && Array.isArray(e.dr) && e.dr[0] !== 'ok') failedResult = e;
  }
  return failedResult;
}

/** A message delivery's method, as the render prints it. */
function deliveryVia(entry: DeliverEntry): string {
  if (entry.kind === 'message') return `deliver ${entry.method ?? '<unintelligible method>'}`;
  return entry.kind ?? 'deliver';
}

/** The waiting additions came in by `via`. */
function attribute(fold: CrankFold, via: string): void {
  for (const entry of fold.waiting) fold.changes.push({ kind: 'add', entry, via });
  fold.waiting = [];
}

/** Reads `items` from `from` on into the fold's changes. */
export function collect(fold: CrankFold, items: readonly CrankItem[], from: number): void {
  for (let i = from; i < items.length; i += 1) {
    const item = items[i] as CrankItem;
    if (isReplay(item)) continue;
    if (item.kind === 'syscall') {
      attribute(fold, syscall(item.call, fold.changes));
      continue;
    }
    const entry = item.entry;
    if (entry.type === 'clist') {
      const clist = entry as ClistEntry;
      if (clist.mode === 'import' || clist.mode === 'export') fold.waiting.push(clist);
      else if (clist.mode === 'drop' && typeof clist.vatID === 'string' && typeof clist.kobj === 'string') fold.changes.push({ kind: 'drop', vatID: clist.vatID, kref: clist.kobj });
    } else if (entry.type === 'deliver') {
      attribute(fold, deliveryVia(entry as DeliverEntry));
      deliver(entry as DeliverEntry, fold.changes);
    } else {
      fold.changes.push({ kind: 'other', entry });
    }
  }
}

/**
 * A routing crank moving a message with a result promise: the promise is
 * queued (the kernel decides it until it is delivered). The only sight of
 * a message the kernel itself sent (bootstrap, a device's) before its
 * delivery, which may come blocks later.
 */
function routed(crank: Crank, changes: Change[]): void {
  const message = crank.crankType === 'routing' ? crank.start?.message : undefined;
  if (message?.type !== 'send') return;
  const msg = message.msg as { result?: unknown } | undefined;
  const result = isMessage(msg) ? msg?.result : undefined;
  if (typeof result === 'string' && result.startsWith('kp')) changes.push({ kind: 'queued', kp: result, method: methargsMethod(messageMethargs(msg)) });
}

/** Applies a whole crank: what was folded of it (spilled), then its items from `crank.spilled` on. */
export function applyCrank(crank: Crank, state: GrowthState, fold: CrankFold = newFold()): void {
  routed(crank, fold.changes);
  collect(fold, crank.items, crank.spilled ?? 0);
  attribute(fold, 'the kernel');
  applyChanges(fold.changes, state, crank.crankNum, abortEntry(crank));
}

/** Applies the changes in order; those before `abortedAt` (an `other` change's entry) were undone by the kernel. */
function applyChanges(changes: readonly Change[], state: GrowthState, crankNum: number, abortedAt: SlogEntry | undefined): void {
  let from = 0;
  if (abortedAt) from = changes.findIndex((c) => c.kind === 'other' && c.entry === abortedAt);
  for (let i = Math.max(from, 0); i < changes.length; i += 1) {
    const c = changes[i] as Change;
    switch (c.kind) {
      case 'add':
        addEntry(state, c.entry, crankNum, c.via);
        break;
      case 'drop':
        state.clists.drop(c.vatID, c.kref, crankNum);
        break;
      case 'target':
        if (!state.clists.holds(c.vatID, c.kref)) state.clists.add(c.vatID, c.kref, c.vref, { crank: NaN, via: 'before the slog' });
        break;
      case 'root': {
        const vatID = state.staticVat(c.name);
        if (vatID !== undefined && !state.clists.holds(vatID, c.kref)) state.clists.add(vatID, c.kref, ROOT_VREF, { crank: NaN, via: 'before the slog' });
        break;
      }
      case 'delivered':
        state.promises.delivered(c.kp, c.vatID, c.method, crankNum);
        break;
      case 'sent':
        state.promises.sent(c.kp, c.method, crankNum);
        break;
      case 'queued':
        state.promises.queued(c.kp, c.method, crankNum);
        break;
      case 'settle':
        state.promises.settle(c.kp);
        break;
      case 'other':
        state.other(c.entry, crankNum);
        break;
    }
  }
}

/** A `clist` import or export, carried by `via`. */
export function addEntry(state: GrowthState, entry: ClistEntry, crankNum: number, via: string): void {
  const { vatID, kobj, vobj, mode } = entry;
  if (typeof vatID !== 'string' || typeof kobj !== 'string' || typeof vobj !== 'string') return;
  state.clists.add(vatID, kobj, vobj, { crank: crankNum, via });
  if (kobj.startsWith('kp')) state.promises.seen(kobj, vatID, mode === 'export' && vobj.startsWith('p+'), crankNum);
}

/** A static vat's root object, as its vat knows it (SwingSet's ROOT_OBJECT_VREF). */
const ROOT_VREF = 'o+0';

/**
 * The bootstrap message (`bootstrap(vats, devices)`, the kernel's first
 * message, to the bootstrap vat's root): `vats` maps each static vat's name
 * to its root object, which the kernel exported from that vat when it
 * created it, before the slog shows any c-list change. A root no message
 * reaches in the slog (vatAdmin's, which the kernel holds) is known only
 * from here.
 */
function bootstrapRoots(entry: DeliverEntry, changes: Change[]): void {
  const msg = (entry.kd as unknown[])[2];
  const methargs = isMessage(msg) ? messageMethargs(msg) : undefined;
  if (!isCapData(methargs)) return;
  const decoded = decodeCapData(methargs);
  if (!decoded) return;
  walkArgsSlots(decoded, (slot, path) => {
    // `[0].NAME`: a slot of the first argument's record, under a vat's name.
    const name = /^\[0\]\.([^.[]+)$/.exec(path)?.[1];
    const kref = methargs.slots[slot];
    if (name !== undefined && typeof kref === 'string' && kref.startsWith('ko')) changes.push({ kind: 'root', name, kref });
  });
}

/** A live delivery: a message's target proves the vat's export; its result gets a decider; a notify settles promises; the bootstrap message names the static vats' roots. */
function deliver(entry: DeliverEntry, changes: Change[]): void {
  const { kd, vd, vatID } = entry;
  if (!Array.isArray(kd) || typeof vatID !== 'string') return;
  if (kd[0] === 'message') {
    const target = kd[1];
    const vref = Array.isArray(vd) ? vd[1] : undefined;
    if (typeof target === 'string' && typeof vref === 'string' && vref.startsWith('o+')) changes.push({ kind: 'target', vatID, kref: target, vref });
    if (entry.method === 'bootstrap') bootstrapRoots(entry, changes);
    const result = (kd[2] as { result?: unknown } | undefined)?.result;
    if (typeof result === 'string' && result.startsWith('kp')) changes.push({ kind: 'delivered', kp: result, vatID, method: entry.method ?? '<unintelligible method>' });
  } else if (kd[0] === 'notify' && Array.isArray(kd[1])) {
    for (const resolution of kd[1]) {
      const kp = Array.isArray(resolution) ? resolution[0] : undefined;
      if (typeof kp === 'string') changes.push({ kind: 'settle', kp });
    }
  }
}

/** A live syscall: a send's result promise, a resolve's promises. What carried the c-list changes before it. */
function syscall(call: SyscallEntry, changes: Change[]): string {
  const ksc = call.ksc;
  if (!Array.isArray(ksc)) return call.name ?? 'syscall';
  // Most syscalls (vatstore) change nothing here: only a send and a resolve are read further.
  const name = ksc[0];
  if (name !== 'send' && name !== 'resolve') return typeof name === 'string' ? (name === 'callNow' ? 'invoke' : name) : 'syscall';
  const read = syscallCall(ksc, true);
  if (read.name === 'send') {
    const method = methargsMethod(read.methargs);
    if (typeof read.result === 'string' && read.result.startsWith('kp')) changes.push({ kind: 'sent', kp: read.result, method });
    return `send ${method}`;
  }
  if (read.name === 'resolve') for (const r of read.resolutions ?? []) if (typeof r.target === 'string') changes.push({ kind: 'settle', kp: r.target });
  return 'resolve';
}
