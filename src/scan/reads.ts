/**
 * What a consumer reads of each crank entry: a value each consumer declares
 * beside its own code (the render from its options, render/reads.ts; each
 * analysis for itself), and the scan layer takes. The scan layer fills in
 * exactly the fields asked for (entries.ts), so that a line whose unread
 * parts are big (a syscall's arguments, a delivery's message) costs little
 * more than finding its end.
 *
 * Lines of other types are always read whole (they are few), but for a
 * create-vat's source bundle, which no consumer reads.
 */
import type {
  ClistEntry,
  CrankEntryType,
  CrankFinishEntry,
  CrankStartEntry,
  DeliverEntry,
  DeliverResultEntry,
  SyscallEntry,
  SyscallResultEntry,
} from './entry-types.js';

type FieldOf<E> = Exclude<keyof E, 'type'>;

export type CrankStartField = FieldOf<CrankStartEntry> | 'messageHead';
export type CrankFinishField = FieldOf<CrankFinishEntry>;
export type SyscallField = FieldOf<SyscallEntry> | 'vscWithoutKsc';
export type SyscallResultField = FieldOf<SyscallResultEntry> | 'vsrWithoutKsr';
export type DeliverField = FieldOf<DeliverEntry> | 'vdWithoutKd';
export type DeliverResultField = FieldOf<DeliverResultEntry>;
export type ClistField = FieldOf<ClistEntry>;

/** The fields of each crank type that can be asked for. */
export interface FieldsByType {
  'crank-start': CrankStartField;
  'crank-finish': CrankFinishField;
  syscall: SyscallField;
  'syscall-result': SyscallResultField;
  deliver: DeliverField;
  'deliver-result': DeliverResultField;
  clist: ClistField;
}

/** For syscalls of one name: what is read of them and of their results (instead of the general lists). */
export interface SyscallNameReads {
  syscall: readonly SyscallField[];
  'syscall-result': readonly SyscallResultField[];
}

/**
 * A consumer's reads: for each crank type, the fields it reads. Besides the
 * entry's own fields:
 * - `messageHead` (crank-start): the message's `type` and `vatID` only (a
 *   send's type alone: it goes where its target routes; the whole message
 *   when it creates a vat, which names it), where `message` asks for the
 *   whole message;
 * - `vscWithoutKsc`, `vsrWithoutKsr`, `vdWithoutKd`: the vat-space form only
 *   when the line has no kernel-space one (a transcript replay), so that a
 *   kernel-space consumer still gets a replay's syscall or delivery without
 *   reading every line's vat-space form.
 *
 * A delivery's `target` and `resultPromise` and a syscall's `target` and
 * `method` are pieces of its `kd` or `ksc` (else `vd`, `vsc`): asked for
 * alone, the byte reader takes them from the line's bytes without making
 * the whole value (fast-reader.ts).
 */
export type Reads = { readonly [T in CrankEntryType]: readonly FieldsByType[T][] } & {
  /** Syscalls (and their results) of these names read these fields instead. */
  readonly bySyscallName?: Readonly<Record<string, SyscallNameReads>>;
};

function union<F>(a: readonly F[], b: readonly F[]): F[] {
  const out = [...a];
  for (const f of b) if (!out.includes(f)) out.push(f);
  return out;
}

/** Everything both read. */
export function mergeReads(a: Reads, b: Reads): Reads {
  const merged = {
    'crank-start': union(a['crank-start'], b['crank-start']),
    'crank-finish': union(a['crank-finish'], b['crank-finish']),
    syscall: union(a.syscall, b.syscall),
    'syscall-result': union(a['syscall-result'], b['syscall-result']),
    deliver: union(a.deliver, b.deliver),
    'deliver-result': union(a['deliver-result'], b['deliver-result']),
    clist: union(a.clist, b.clist),
  };
  const names = new Set([...Object.keys(a.bySyscallName ?? {}), ...Object.keys(b.bySyscallName ?? {})]);
  if (names.size === 0) return merged;
  const bySyscallName: Record<string, SyscallNameReads> = {};
  for (const name of names) {
    const x = syscallReads(a, name);
    const y = syscallReads(b, name);
    bySyscallName[name] = { syscall: union(x.syscall, y.syscall), 'syscall-result': union(x['syscall-result'], y['syscall-result']) };
  }
  return { ...merged, bySyscallName };
}

/** What `reads` reads of a syscall named `name`, and of its result. */
export function syscallReads(reads: Reads, name: string | undefined): SyscallNameReads {
  const special = name === undefined ? undefined : reads.bySyscallName?.[name];
  return special ?? { syscall: reads.syscall, 'syscall-result': reads['syscall-result'] };
}

/**
 * Every field of every type: what the plain path of old gave every consumer.
 * But the pieces taken from a delivery's or syscall's arguments for the
 * export (a delivery's `target` and `resultPromise`, a syscall's `target`
 * and `method`: call-heads.ts), which a consumer of the whole `kd` and
 * `ksc` has in them.
 */
export const READ_ALL: Reads = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageType', 'message', 'time', 'monotime'],
  'crank-finish': ['crankNum', 'crankType', 'messageType', 'seconds', 'time', 'monotime', 'crankhash', 'activityhash'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'ksc', 'vsc', 'time', 'monotime'],
  'syscall-result': ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'status', 'ksr', 'vsr', 'time', 'monotime'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'method', 'kd', 'vd', 'time', 'monotime'],
  'deliver-result': ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'status', 'problem', 'computrons', 'timestamps', 'dr', 'time', 'monotime'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj', 'time', 'monotime'],
};

/** Nothing: a consumer that reads crank entries only through the crank model (model/reads.ts). */
export const READ_NOTHING: Reads = {
  'crank-start': [],
  'crank-finish': [],
  syscall: [],
  'syscall-result': [],
  deliver: [],
  'deliver-result': [],
  clist: [],
};

/** `reads` with these fields added. */
export function withFields(reads: Reads, more: Partial<{ [T in CrankEntryType]: readonly FieldsByType[T][] }>): Reads {
  return mergeReads(reads, { ...READ_NOTHING, ...more });
}
