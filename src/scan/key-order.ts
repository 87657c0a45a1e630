/**
 * The slogger's key order for each crank type: the keys of a line, in the
 * order agoric-sdk's kernel writes them (packages/SwingSet/src/kernel/slogger.js
 * and the vat warehouse), between its `"type"` and its tail (`time`,
 * `monotime` and, for the entries that close a span, `seconds`: read from
 * the line's end, json-bytes.ts). The byte reader (fast-reader.ts) follows
 * this table and nothing else; a line whose keys come otherwise is read by
 * the plain path.
 *
 * `optional` keys are missing from some kernels' lines: `crankNum` from
 * transcript replays, `syscall` and `dispatch` before 2023, `crankType` and
 * `crankNum` from a 2022 crank-start, the kernel-space `ksc`/`ksr`/`kd` from
 * replays.
 */
import type { CrankEntryType } from './entry-types.js';
import type { FieldsByType } from './reads.js';

/**
 * How a value is read: a non-negative integer; a short string (printable
 * ASCII, no escapes: anything else goes to the plain path); `true`/`false`;
 * any JSON value, parsed from its text when it is read.
 */
export type ValueKind = 'int' | 'word' | 'bool' | 'json';

export interface KeySpec<T extends CrankEntryType> {
  key: string;
  kind: ValueKind;
  optional: boolean;
  /** The entry field the value fills (undefined: never read, only passed). */
  field: FieldsByType[T] | undefined;
}

function k<T extends CrankEntryType>(key: string, kind: ValueKind, field: FieldsByType[T] | undefined, optional = false): KeySpec<T> {
  return { key, kind, optional, field };
}

export const KEY_ORDER: { readonly [T in CrankEntryType]: ReadonlyArray<KeySpec<T>> } = {
  'crank-start': [
    k('crankType', 'word', 'crankType', true),
    k('crankNum', 'int', 'crankNum', true),
    k('messageType', 'word', 'messageType', true),
    k('message', 'json', 'message'),
  ],
  'crank-finish': [
    k('crankType', 'word', 'crankType', true),
    k('messageType', 'word', 'messageType', true),
    k('crankNum', 'int', 'crankNum'),
    k('crankhash', 'word', 'crankhash', true),
    k('activityhash', 'word', 'activityhash', true),
  ],
  syscall: [
    k('crankNum', 'int', 'crankNum', true),
    k('vatID', 'word', 'vatID'),
    k('deliveryNum', 'int', 'deliveryNum', true),
    k('syscallNum', 'int', 'syscallNum', true),
    k('replay', 'bool', 'replay', true),
    k('syscall', 'word', 'name', true),
    k('ksc', 'json', 'ksc', true),
    k('vsc', 'json', 'vsc'),
  ],
  'syscall-result': [
    k('crankNum', 'int', 'crankNum', true),
    k('vatID', 'word', 'vatID'),
    k('deliveryNum', 'int', 'deliveryNum', true),
    k('syscallNum', 'int', 'syscallNum', true),
    k('replay', 'bool', 'replay', true),
    k('syscall', 'word', 'name', true),
    k('ksr', 'json', 'ksr', true),
    k('vsr', 'json', 'vsr'),
  ],
  deliver: [
    k('crankNum', 'int', 'crankNum', true),
    k('vatID', 'word', 'vatID'),
    k('deliveryNum', 'int', 'deliveryNum', true),
    k('replay', 'bool', 'replay', true),
    k('dispatch', 'word', 'kind', true),
    k('kd', 'json', 'kd', true),
    k('vd', 'json', 'vd'),
  ],
  'deliver-result': [
    k('crankNum', 'int', 'crankNum', true),
    k('vatID', 'word', 'vatID'),
    k('deliveryNum', 'int', 'deliveryNum', true),
    k('replay', 'bool', 'replay', true),
    k('dispatch', 'word', 'kind', true),
    k('dr', 'json', 'dr'),
  ],
  clist: [
    k('crankNum', 'int', 'crankNum'),
    k('mode', 'word', 'mode'),
    k('vatID', 'word', 'vatID'),
    k('kobj', 'word', 'kobj'),
    k('vobj', 'word', 'vobj'),
  ],
};

/**
 * Fields read from another key's value: a syscall-result's `status` is the
 * first element of its `ksr` (`vsr` in a replay), a deliver-result's
 * `status`, `problem`, `computrons` and `timestamps` are `dr[0]`, `dr[1]` (not ok), `dr[2].compute` and `dr[2].timestamps`, a delivery's
 * `method`, `target` and `resultPromise` are pieces of its `kd` (`vd` in a
 * replay), a syscall's `target` and `method` of its `ksc` (`vsc`:
 * call-heads.ts), a crank-start's `messageHead` is the start of its `message`.
 */
export const DERIVED_FROM = {
  'syscall-result': { status: ['ksr', 'vsr'] },
  syscall: { target: ['ksc', 'vsc'], method: ['ksc', 'vsc'] },
  deliver: { method: ['kd', 'vd'], target: ['kd', 'vd'], resultPromise: ['kd', 'vd'] },
  'deliver-result': { status: ['dr'], problem: ['dr'], computrons: ['dr'], timestamps: ['dr'] },
  'crank-start': { messageHead: ['message'] },
} as const;
