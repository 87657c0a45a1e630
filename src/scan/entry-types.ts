/**
 * Slog entries, as the scan layer hands them out.
 *
 * A slog line is one JSON object with a `type`. The seven types that make up
 * nearly every line of a slog (the "crank" types below) are read into
 * entries of one fixed shape per type, whichever way the line was read
 * (entries.ts makes them): every field is there, and holds `undefined` when
 * the consumer did not ask for it (reads.ts) or the line lacks it. So every
 * field but `type` is optional: a consumer must cope with a field the slog
 * did not write (older kernels leave out `crankNum`, `crankType`, `syscall`,
 * `dispatch`...; replayed entries have no `crankNum` and no kernel-space
 * forms). Every other type is handed out as parsed (`OtherEntry`).
 */

/** A kernel ref (`ko12` object, `kp40` promise, `kd3` device) or a vat ref (`o+5`, `p-60`, `d-70`). */
export type Ref = string;

/** Marshalled data: `body` is smallcaps (`#...`) or legacy JSON; `slots` are refs. */
export interface CapData {
  body: string;
  slots: Ref[];
}

/** What a crank delivers (`crank-start.message`): `{type, vatID?, ...}` as the kernel queued it. */
export interface CrankMessage {
  type?: string;
  vatID?: string;
  target?: Ref;
  kpid?: Ref;
  msg?: unknown;
  dynamicOptions?: { name?: string };
  [key: string]: unknown;
}

/**
 * What a vat receives, `[kind, ...]`: `['message', target, {methargs, result}]`,
 * `['notify', resolutions]`, `['dropExports'|'retireExports'|'retireImports', refs]`,
 * `['startVat', vatParameters]`, `['bringOutYourDead']`, `['stopVat', data]`,
 * `['changeVatOptions', options]`.
 */
export type Delivery = [string, ...unknown[]];

/** What a vat asks the kernel, `[name, ...args]` (model/syscall-call.ts reads the arguments). */
export type Syscall = [string, ...unknown[]];

/** The fields every line may carry. */
interface Stamped {
  /** Wall clock, seconds since the epoch. */
  time?: number;
  monotime?: number;
}

export interface CrankStartEntry extends Stamped {
  type: 'crank-start';
  crankNum?: number;
  crankType?: string;
  /** Some kernels name the crank's vat here; most only in `message.vatID`. */
  vatID?: string;
  messageType?: string;
  message?: CrankMessage;
}

export interface CrankFinishEntry extends Stamped {
  type: 'crank-finish';
  crankNum?: number;
  crankType?: string;
  messageType?: string;
  /** The crank's duration as the kernel measured it. */
  seconds?: number;
  /** The hash of the crank's kernel-state changes, and the running hash of every crank's (in consensus on a chain). */
  crankhash?: string;
  activityhash?: string;
}

export interface SyscallEntry extends Stamped {
  type: 'syscall';
  crankNum?: number;
  vatID?: string;
  deliveryNum?: number;
  syscallNum?: number;
  /** A transcript replay (a vat paged in): not a syscall of the crank. */
  replay?: boolean;
  /** The syscall's name in kernel space: `ksc[0]`, else the slogger's `syscall` field, else `vsc[0]` (`invoke` where a vat called `callNow`). */
  name?: string;
  ksc?: Syscall;
  vsc?: Syscall;
  /**
   * What it acts on (call-heads.ts): a send's or invoke's target, a
   * subscribe's promise, a vatstore key, the first promise a resolve
   * settles, the first ref of a drop, retire or abandon. From `ksc`, else
   * (a replay) `vsc`.
   */
  target?: string;
  /** A send's method (named as a delivery's), an invoke's method (call-heads.ts). From `ksc`, else `vsc`. */
  method?: string;
}

export interface SyscallResultEntry extends Stamped {
  type: 'syscall-result';
  crankNum?: number;
  vatID?: string;
  deliveryNum?: number;
  syscallNum?: number;
  replay?: boolean;
  /** The name of the syscall this answers (the slogger's `syscall` field). */
  name?: string;
  /** `ksr[0]` (else `vsr[0]`): `ok`, `error`... */
  status?: string;
  ksr?: [string, unknown];
  vsr?: [string, unknown];
}

export interface DeliverEntry extends Stamped {
  type: 'deliver';
  crankNum?: number;
  vatID?: string;
  deliveryNum?: number;
  replay?: boolean;
  /** The delivery's kind (the slogger's `dispatch` field, else `kd[0]`, else `vd[0]`): `message`, `notify`... */
  kind?: string;
  /** A message delivery's method, as model/method-name.ts prints it (from `kd`, else `vd`). */
  method?: string;
  kd?: Delivery;
  vd?: Delivery;
  /** A message's target, a notify's first promise (call-heads.ts). From `kd`, else (a replay) `vd`. */
  target?: Ref;
  /** A message's result promise (call-heads.ts). From `kd`, else `vd`. */
  resultPromise?: Ref;
}

/** `dr` is `[status, problem, usage]`; with XS workers `usage.compute` is computrons. */
export interface DeliverResultEntry extends Stamped {
  type: 'deliver-result';
  crankNum?: number;
  vatID?: string;
  deliveryNum?: number;
  replay?: boolean;
  kind?: string;
  /** `dr[0]`: `ok`, `error`... */
  status?: string;
  /** `dr[1]` when the status is not `ok` (why the delivery failed), else undefined. */
  problem?: unknown;
  /** `dr[2].compute`, where the worker reports it (XS). */
  computrons?: number;
  /**
   * `dr[2].timestamps`, the worker's own clock during the delivery (XS; see
   * docs/time-split.md): absent when `dr[2]` has no `timestamps` (local
   * workers); `[]` when it is there but not a list; NaN in place of an
   * element that is not a finite number.
   */
  timestamps?: number[];
  dr?: [string, unknown, Usage | null | undefined];
}

/** The worker's report of a delivery (XS workers). */
export interface Usage {
  compute?: number;
  allocate?: number;
  currentHeapCount?: number;
  meterType?: string;
  [key: string]: unknown;
}

export interface ClistEntry extends Stamped {
  type: 'clist';
  crankNum?: number;
  mode?: string;
  vatID?: string;
  kobj?: Ref;
  vobj?: Ref;
}

/** The seven crank types, read into entries of a fixed shape. */
export type CrankEntry =
  | CrankStartEntry
  | CrankFinishEntry
  | SyscallEntry
  | SyscallResultEntry
  | DeliverEntry
  | DeliverResultEntry
  | ClistEntry;

export type CrankEntryType = CrankEntry['type'];

export const CRANK_ENTRY_TYPES: readonly CrankEntryType[] = [
  'crank-start',
  'crank-finish',
  'syscall',
  'syscall-result',
  'deliver',
  'deliver-result',
  'clist',
];

/** Any other entry (kernel, vat, chain and console entries): the parsed line. */
export interface OtherEntry extends Stamped {
  type: string;
  [key: string]: unknown;
}

export interface ConsoleEntry extends OtherEntry {
  type: 'console';
  level?: string;
  state?: string;
  source?: string;
  crankNum?: number;
  vatID?: string;
  args?: unknown[];
}

export interface CreateVatEntry extends OtherEntry {
  type: 'create-vat';
  vatID?: string;
  name?: string;
  dynamic?: boolean;
  description?: string;
  managerType?: string;
}

/**
 * A bare create-vat: one with neither `dynamic` nor `description`, which a
 * restarted kernel writes for a vat it loads, not creates (the render
 * prints its name only; the time split counts it as bringing the vat online).
 */
export function isBareCreateVat(entry: OtherEntry): boolean {
  return entry.type === 'create-vat' && entry.dynamic === undefined && entry.description === undefined;
}

/** A slog entry. `isCrankEntry` tells the seven crank types from the rest. */
export type SlogEntry = CrankEntry | OtherEntry;

/**
 * What the line reader found of the entry it read last: its type and its
 * `time` (NaN when it has no number there). One object per reader, written
 * for every entry: a reader of every line (the stall detector) reads these
 * two fields of one shape, not of the entry, whose shape differs by type (a
 * megamorphic load, some 30 instructions, twice a line).
 */
export interface LineFacts {
  type: string;
  time: number;
}

export function isCrankEntry(entry: SlogEntry): entry is CrankEntry {
  return isCrankEntryType(entry.type);
}

/**
 * One of CRANK_ENTRY_TYPES. Compared as strings rather than looked up in a
 * Set: this runs for every line, and the lookup (a builtin call, a hash) cost
 * more than the few comparisons, which mostly end at the length or the first
 * character.
 */
export function isCrankEntryType(type: string): type is CrankEntryType {
  switch (type) {
    case 'syscall':
    case 'syscall-result':
    case 'crank-start':
    case 'crank-finish':
    case 'clist':
    case 'deliver':
    case 'deliver-result':
      return true;
    default:
      return false;
  }
}

/** The vat an entry names (`vatID`), if it names one. */
export function vatOf(entry: SlogEntry): string | undefined {
  const vatID = (entry as { vatID?: unknown }).vatID;
  return typeof vatID === 'string' ? vatID : undefined;
}
