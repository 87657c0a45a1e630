/**
 * What the text render reads of crank entries with these options (beside
 * what the crank model reads, model/reads.ts): the fields its lines print.
 *
 * - syscalls: `ksc` (`vsc` in vat space) and the result's `ksr` (`vsr`);
 *   under --novatstore, of a vatstore syscall and of its result only their
 *   name (all its lines go, a failure's `result:` line too:
 *   syscall-lines.ts; the name tells a result whose syscall the slog lacks);
 * - deliveries: `kd` (`vd`); a delivery's result: its status, and why it
 *   failed when it did;
 * - clist lines: all four of their fields, unless --nonoise or --no-clist
 *   drops them;
 * - crank-finish: its number (the crank-finish line prints it).
 * Replayed entries are printed in vat space (`vd`, `vsc`, `vsr`) whatever the
 * options: those are all they have.
 */
import { VATSTORE_SYSCALLS } from '../model/syscall-call.js';
import type { Reads, SyscallNameReads } from '../scan/reads.js';
import type { RenderOptions } from './options.js';

export function renderReads(options: RenderOptions): Reads {
  const vat = options.vatspace;
  const clistLines = options.clist && !options.nonoise;
  let reads: Reads = {
    'crank-start': ['crankNum', 'crankType', 'messageHead'],
    'crank-finish': ['crankNum'],
    syscall: vat ? ['vsc'] : ['ksc', 'vscWithoutKsc'],
    'syscall-result': vat ? ['vsr'] : ['ksr', 'vsrWithoutKsr'],
    deliver: vat ? ['vd'] : ['kd', 'vdWithoutKd'],
    'deliver-result': ['status', 'problem'],
    clist: clistLines ? ['mode', 'vatID', 'kobj', 'vobj'] : [],
  };
  if (!options.novatstore) return reads;
  // Every syscall's name, to tell the vatstore ones (whose arguments are not read) from the rest.
  reads = { ...reads, syscall: ['name', ...reads.syscall], 'syscall-result': ['name', ...reads['syscall-result']] };
  const vatstore: SyscallNameReads = { syscall: ['name'], 'syscall-result': ['name'] };
  const bySyscallName: Record<string, SyscallNameReads> = {};
  for (const name of VATSTORE_SYSCALLS) bySyscallName[name] = vatstore;
  return { ...reads, bySyscallName };
}
