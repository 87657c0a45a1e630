/**
 * The parts of a crank's time (crank.ts `CrankParts`; docs/time-split.md)
 * by name: one table that every view reads the parts through, in the order
 * they are printed, so that a header, a ranking, a stats table, an export
 * column and a compare metric all name and read a part the same way.
 */
import type { CrankParts } from './crank.js';

/** A part's name as users type it (`top --by page-in`, `--fail-on time.page-in`) and as tables print it. */
export type PartName = 'page-in' | 'replay' | 'vat' | 'syscall' | 'pipe' | 'snapshot' | 'kernel' | 'unknown' | 'gc';

export interface PartSpec {
  readonly name: PartName;
  /** Its field in CrankParts. */
  readonly key: keyof Omit<CrankParts, 'total'>;
  /** Part of another part, not a share of the total of its own (replay is page-in's, gc is vat's). */
  readonly within: PartName | undefined;
  /** What it is, in a few words (help texts, table notes). */
  readonly what: string;
}

/**
 * Every part, in print order. The parts whose `within` is undefined add up
 * to the crank's total exactly (counting an undefined part as 0).
 */
export const PARTS: readonly PartSpec[] = [
  { name: 'page-in', key: 'pageIn', within: undefined, what: 'bringing the vat online: worker start, snapshot load, replay' },
  { name: 'replay', key: 'replay', within: 'page-in', what: 'of page-in, replaying the transcript' },
  { name: 'vat', key: 'vat', within: undefined, what: 'the worker running vat code' },
  { name: 'syscall', key: 'syscall', within: undefined, what: 'the kernel serving syscalls' },
  { name: 'pipe', key: 'pipe', within: undefined, what: 'messages between kernel and worker' },
  { name: 'snapshot', key: 'snapshot', within: undefined, what: 'saving the heap snapshot, restarting the worker' },
  { name: 'kernel', key: 'kernel', within: undefined, what: 'routing, c-lists, queues, commit: the rest' },
  { name: 'unknown', key: 'unknown', within: undefined, what: 'vat and pipe where the worker list is unusable' },
  { name: 'gc', key: 'gc', within: 'vat', what: 'of vat, bringOutYourDead garbage collection' },
];

const BY_NAME = new Map<string, PartSpec>(PARTS.map((p) => [p.name, p]));

/** The part of that name, or undefined. */
export function partNamed(name: string): PartSpec | undefined {
  return BY_NAME.get(name);
}

/** A part's µs in a crank's parts: undefined where it is unknown (vat, pipe with an unusable list; gc without a bringOutYourDead). */
export function partMicros(parts: CrankParts, part: PartSpec): number | undefined {
  return parts[part.key];
}

/**
 * Whether the split says more than a crank's total and syscall time: it has
 * page-in, snapshot, pipe or unknown time. A local-worker crank with none
 * of these has vat = total - syscalls - kernel, nothing a reader of the
 * old header lacks.
 */
export function splitAddsSomething(parts: CrankParts): boolean {
  return parts.pageIn > 0 || parts.snapshot > 0 || (parts.pipe ?? 0) > 0 || parts.unknown > 0 || parts.vat === undefined;
}
