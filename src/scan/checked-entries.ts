/**
 * For tests: crank entries that fail loudly when a consumer reads a field it
 * did not ask for (reads.ts). Such a field holds `undefined` in an entry,
 * which a consumer would take for "the slog does not say": a read of it is
 * a mistake in the consumer's reads, found here rather than as a wrong
 * figure. Passes use it when SLOGULATE_CHECK_READS=1 (the test suite sets
 * it); it costs a Proxy per entry, so never otherwise.
 */
import { isCrankEntry, type SlogEntry } from './entry-types.js';
import type { ReadPlan } from './read-plan.js';

/** Every field a crank entry of each type can have. */
const FIELDS: Record<string, readonly string[]> = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageType', 'message', 'time', 'monotime'],
  'crank-finish': ['crankNum', 'crankType', 'messageType', 'seconds', 'time', 'monotime'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'ksc', 'vsc', 'time', 'monotime'],
  'syscall-result': ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'status', 'ksr', 'vsr', 'time', 'monotime'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'method', 'kd', 'vd', 'time', 'monotime'],
  'deliver-result': ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'status', 'problem', 'computrons', 'dr', 'time', 'monotime'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj', 'time', 'monotime'],
};

export class UnreadFieldError extends Error {}

/**
 * The entry, guarded: reading a field of its type that the plan does not
 * read throws UnreadFieldError. `syscallName`: the name of the syscall the
 * line is (or answers), which decides its reads.
 */
export function checkedEntry(entry: SlogEntry, plan: ReadPlan, syscallName: string | undefined): SlogEntry {
  if (!isCrankEntry(entry)) return entry;
  const name = entry.type === 'syscall' || entry.type === 'syscall-result' ? syscallName : undefined;
  const asked = new Set<string>(plan.fields(entry.type, name));
  if (asked.has('messageHead')) asked.add('message');
  if (asked.has('vscWithoutKsc')) asked.add('vsc');
  if (asked.has('vsrWithoutKsr')) asked.add('vsr');
  if (asked.has('vdWithoutKd')) asked.add('vd');
  const known = FIELDS[entry.type] as readonly string[];
  return new Proxy(entry, {
    get(target, key, receiver) {
      if (typeof key === 'string' && known.includes(key) && !asked.has(key)) {
        throw new UnreadFieldError(`${entry.type}.${key} read, but not in the consumer's reads`);
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}
