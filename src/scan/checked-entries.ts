/**
 * For tests: crank entries that fail loudly when a consumer reads a field it
 * did not ask for (reads.ts). Such a field holds `undefined` in an entry,
 * which a consumer would take for "the slog does not say": a read of it is
 * a mistake in the consumer's reads, found here rather than as a wrong
 * figure. Passes use it when SLOGULATE_CHECK_READS=1 (the test suite sets
 * it); it costs a copy of each entry, so never otherwise.
 */
import { isCrankEntry, type CrankEntryType, type SlogEntry } from './entry-types.js';
import type { ReadPlan } from './read-plan.js';

/** Every field a crank entry of each type can have. */
const FIELDS: Record<string, readonly string[]> = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageType', 'message', 'time', 'monotime'],
  'crank-finish': ['crankNum', 'crankType', 'messageType', 'seconds', 'time', 'monotime', 'crankhash', 'activityhash'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'ksc', 'vsc', 'target', 'method', 'time', 'monotime'],
  'syscall-result': ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'status', 'ksr', 'vsr', 'time', 'monotime'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'method', 'kd', 'vd', 'target', 'resultPromise', 'time', 'monotime'],
  'deliver-result': ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'status', 'problem', 'computrons', 'timestamps', 'dr', 'time', 'monotime'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj', 'time', 'monotime'],
};

export class UnreadFieldError extends Error {}

/** The guard of one type and syscall name: a prototype whose unasked fields throw, and the asked ones. */
interface Guard {
  proto: object;
  asked: readonly string[];
}

/** Guards by plan, then by `type` or `type/name`. */
const guards = new WeakMap<ReadPlan, Map<string, Guard>>();

function guardOf(plan: ReadPlan, type: CrankEntryType, name: string | undefined): Guard {
  let byKey = guards.get(plan);
  if (byKey === undefined) {
    byKey = new Map();
    guards.set(plan, byKey);
  }
  const key = name === undefined ? type : `${type}/${name}`;
  let guard = byKey.get(key);
  if (guard === undefined) {
    const asked = new Set<string>(plan.fields(type, name));
    if (asked.has('messageHead')) asked.add('message');
    if (asked.has('vscWithoutKsc')) asked.add('vsc');
    if (asked.has('vsrWithoutKsr')) asked.add('vsr');
    if (asked.has('vdWithoutKd')) asked.add('vd');
    const known = FIELDS[type] as readonly string[];
    const proto: Record<string, unknown> = {};
    for (const field of known) {
      if (asked.has(field)) continue;
      Object.defineProperty(proto, field, {
        get() {
          throw new UnreadFieldError(`${type}.${field} read, but not in the consumer's reads`);
        },
      });
    }
    guard = { proto, asked: known.filter((f) => asked.has(f)) };
    byKey.set(key, guard);
  }
  return guard;
}

/**
 * The entry, guarded: reading a field of its type that the plan does not
 * read throws UnreadFieldError. `syscallName`: the name of the syscall the
 * line is (or answers), which decides its reads. The guarded entry has the
 * fields asked for as its own; the others are getters (on its prototype,
 * one per type and name) that throw.
 */
export function checkedEntry(entry: SlogEntry, plan: ReadPlan, syscallName: string | undefined): SlogEntry {
  if (!isCrankEntry(entry)) return entry;
  const name = entry.type === 'syscall' || entry.type === 'syscall-result' ? syscallName : undefined;
  const guard = guardOf(plan, entry.type, name);
  const guarded = Object.create(guard.proto) as Record<string, unknown>;
  const source = entry as unknown as Record<string, unknown>;
  guarded.type = entry.type;
  for (const field of guard.asked) guarded[field] = source[field];
  return guarded as unknown as SlogEntry;
}
