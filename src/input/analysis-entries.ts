/**
 * The small entries the analyses' line reader makes (analysis-lines.ts),
 * holding only what `top`, `stats` and `compare` read of an entry.
 *
 * What the analyses read of each (and nothing else is there):
 * - crank-start: crankType, crankNum, message.type, message.vatID, time;
 * - crank-finish: time;
 * - syscall: vatID, ksc[0] (syscallName; when names are read), time;
 * - syscall-result, clist: vatID, time;
 * - deliver: vatID, kd[0] (deliveryKind) and a message's kd[2].methargs.body
 *   (deliveryMethod) when names are read, time;
 * - deliver-result: vatID, dr[2].compute (computrons), time.
 * (A create-vat line is parsed as JSON but for its source bundle.)
 * The arrays (ksc, kd, dr) are shared between entries where they hold the
 * same: nothing changes an entry once made.
 */
import type { SlogEntry } from '../model/types.js';

/** The entry of each kind of line the reader knows, from what it read there. */
export interface SmallEntries {
  crankStart(crankType: string, crankNum: number, messageType: string, messageVat: string | undefined, time: number): SlogEntry;
  crankFinish(time: number): SlogEntry;
  /** `name` is the kernel-space name, ksc[0], when names are read. */
  syscall(vatID: string, name: string | undefined, time: number): SlogEntry;
  syscallResult(vatID: string, time: number): SlogEntry;
  /** `kind` is kd[0], `body` a message's methargs body, when names are read. */
  deliver(vatID: string, kind: string | undefined, body: string | undefined, time: number): SlogEntry;
  /** `computrons` is dr[2].compute when that is a number. */
  deliverResult(vatID: string, computrons: number | undefined, time: number): SlogEntry;
  clist(vatID: string, time: number): SlogEntry;
}

/** One shared array per key. */
function sharedArrays<A>(make: (key: string) => A): (key: string) => A {
  const made = new Map<string, A>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      // Keys are vat-chosen names: a bound, for a slog with endless distinct ones.
      if (made.size < 4096) made.set(key, value);
    }
    return value;
  };
}

const kscOf = sharedArrays((name) => [name]);
const kindOnly = sharedArrays((kind) => [kind]);
const NO_USAGE = [undefined, undefined, null];

/** Builds the entries. */
export const ENTRIES: SmallEntries = {
  crankStart(crankType, crankNum, messageType, messageVat, time) {
    const message = messageVat === undefined ? { type: messageType } : { type: messageType, vatID: messageVat };
    return { type: 'crank-start', crankType, crankNum, message, time };
  },
  crankFinish(time) {
    return { type: 'crank-finish', time };
  },
  syscall(vatID, name, time) {
    return { type: 'syscall', vatID, ksc: name === undefined ? undefined : kscOf(name), time };
  },
  syscallResult(vatID, time) {
    return { type: 'syscall-result', vatID, time };
  },
  deliver(vatID, kind, body, time) {
    const kd = kind === undefined ? undefined : body === undefined ? kindOnly(kind) : [kind, null, { methargs: { body } }];
    return { type: 'deliver', vatID, kd, time };
  },
  deliverResult(vatID, computrons, time) {
    return { type: 'deliver-result', vatID, dr: computrons === undefined ? NO_USAGE : [undefined, undefined, { compute: computrons }], time };
  },
  clist(vatID, time) {
    return { type: 'clist', vatID, time };
  },
};
