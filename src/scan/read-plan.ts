/**
 * A consumer's reads (reads.ts) compiled for the readers: for each crank
 * type, a table saying yes to each field asked for, so that a reader tests a
 * property instead of searching a list for every field of every line.
 */
import type { CrankEntryType } from './entry-types.js';
import { syscallReads, type FieldsByType, type Reads } from './reads.js';

/** Which fields of one type are read: `mask.time` is true when `time` is. */
export type FieldMask<F extends string> = { readonly [K in F]?: true };

export interface SyscallPlan {
  syscall: FieldMask<FieldsByType['syscall']>;
  result: FieldMask<FieldsByType['syscall-result']>;
}

export interface ReadPlan {
  readonly reads: Reads;
  readonly crankStart: FieldMask<FieldsByType['crank-start']>;
  readonly crankFinish: FieldMask<FieldsByType['crank-finish']>;
  readonly deliver: FieldMask<FieldsByType['deliver']>;
  readonly deliverResult: FieldMask<FieldsByType['deliver-result']>;
  readonly clist: FieldMask<FieldsByType['clist']>;
  /** What is read of a syscall of this name (undefined: not known) and of its result. */
  syscallFor(name: string | undefined): SyscallPlan;
  /** The fields read of a crank type, as a list (for checks in tests). */
  fields(type: CrankEntryType, syscallName?: string): readonly string[];
}

function mask<F extends string>(fields: readonly F[]): FieldMask<F> {
  const out: { [K in F]?: true } = {};
  for (const f of fields) out[f] = true;
  return out;
}

export function planReads(reads: Reads): ReadPlan {
  const general: SyscallPlan = { syscall: mask(reads.syscall), result: mask(reads['syscall-result']) };
  const byName = new Map<string, SyscallPlan>();
  for (const name of Object.keys(reads.bySyscallName ?? {})) {
    const r = syscallReads(reads, name);
    byName.set(name, { syscall: mask(r.syscall), result: mask(r['syscall-result']) });
  }
  return {
    reads,
    crankStart: mask(reads['crank-start']),
    crankFinish: mask(reads['crank-finish']),
    deliver: mask(reads.deliver),
    deliverResult: mask(reads['deliver-result']),
    clist: mask(reads.clist),
    syscallFor: byName.size === 0 ? () => general : (name) => (name === undefined ? undefined : byName.get(name)) ?? general,
    fields(type, syscallName) {
      if (type === 'syscall') return syscallReads(reads, syscallName).syscall;
      if (type === 'syscall-result') return syscallReads(reads, syscallName)['syscall-result'];
      return reads[type];
    },
  };
}
