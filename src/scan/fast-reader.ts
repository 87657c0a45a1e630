/**
 * The byte reader: crank entries read straight from a line's bytes, with
 * only the fields a consumer asked for (read-plan.ts), by following the
 * slogger's key order (key-order.ts). What decides how much of a line is
 * read is in its first bytes (its type, a syscall's name), so a line whose
 * fields no one asked for costs little more than finding its end.
 *
 * - The line's tail (`time`, `monotime`, `seconds`) is read first, from its
 *   end backwards (json-bytes.ts): a line cut short fails there.
 * - Then its keys, from the start, as the table lists them: a number or a
 *   short string asked for is read from the bytes (exactly as JSON.parse
 *   reads it); a JSON value asked for is parsed from its text (the batch's
 *   decoded text, source/lines.ts); values not asked for are skipped, their
 *   grammar checked, up to the last key asked for. What follows that key is
 *   not looked at: a line damaged only there is not reported, where the
 *   plain path would report it (a line cut at either end is). A delivery's
 *   or syscall's pieces asked for without its value (its target, result
 *   promise, method: call-heads.ts) are read as the value is walked, its
 *   grammar checked (head-bytes.ts).
 * - Anything else (another key order, spaces, escapes in a short string, an
 *   exponent, a key asked for that is not where the table puts it, a
 *   contextual line, another type) gives undefined: the line is read by the
 *   plain path (plain-reader.ts), so it is read, or reported, exactly as
 *   there. Transcript replays (no `crankNum`, no kernel-space forms) are
 *   among those whenever the consumer asks for what they lack.
 *
 * fast-reader.test.ts checks that every line of every shared slog reads the
 * same either way, for every consumer's reads.
 */
import {
  clist,
  crankFinish,
  crankStart,
  deliver,
  deliverResult,
  computronsOf,
  timestampsOf,
  deliveryMethod,
  problemOf,
  messageHead,
  syscall,
  syscallResult,
} from './entries.js';
import type { CrankEntry, CrankEntryType } from './entry-types.js';
import { asciiBytes, ByteScanner, internAscii, literal, type Literal } from './json-bytes.js';
import { KEY_ORDER, type ValueKind } from './key-order.js';
import type { FieldMask, ReadPlan, SyscallPlan } from './read-plan.js';
import { bytesAt } from '../source/bytes-at.js';
import { batchText, type LineBatch } from '../source/lines.js';
import { compileRead, type CompiledRead, type CompiledStep, type ReadSpec, type StepCodes, type StepHost } from './step-compiler.js';
import { methargsMethod } from './method-name.js';
import { callMethod, callTarget, deliveryResultPromise, deliveryTarget } from './call-heads.js';
import { HeadBytes, methodInBytes, UNPARSED } from './head-bytes.js';

const INT = 0;
const WORD = 1;
const BOOL = 2;
const JSON_VALUE = 3;
const KIND_CODES: Record<ValueKind, number> = { int: INT, word: WORD, bool: BOOL, json: JSON_VALUE };

/**
 * The slots the reader writes by name, beyond a step's own (each type's
 * fields in SLOTS order: a slot is its field's index there, which
 * SlotsAgree below checks). A const enum: the compiled code holds the
 * numbers themselves.
 */
const enum Slot {
  /** crank-start: its message (or only the message's head). */
  StartMessage = 4,
  /** deliver: its kind (`message`, `notify`...), which the plain path reads from kd when there is no `dispatch` key. */
  DeliverKind = 4,
  /** deliver: its method, from kd, else vd. */
  DeliverMethod = 5,
  /** syscall and syscall-result: the syscall's name. */
  SyscallName = 5,
  /** deliver: its target and result promise, from kd, else vd (call-heads.ts). */
  DeliverTarget = 8,
  DeliverResultPromise = 9,
  /** syscall: its target and method, from ksc, else vsc (call-heads.ts). */
  CallTarget = 8,
  CallMethod = 9,
  /** syscall-result: its status, the first element of ksr, else of vsr. */
  ResultStatus = 6,
  /** deliver-result: its status, dr[0]. */
  DrStatus = 5,
  /** deliver-result: its problem, dr[1] unless ok. */
  DrProblem = 6,
  /** deliver-result: its computrons, dr[2].compute. */
  DrComputrons = 7,
  /** deliver-result: the worker's timestamps, dr[2].timestamps. */
  DrTimestamps = 8,
}

/** Fields read from a JSON value besides (or instead of) the value itself (key-order.ts, DERIVED_FROM). */
const NO_DERIVE = 0;
/** A syscall-result's status (Slot.ResultStatus). */
const DERIVE_STATUS = 1;
/** A deliver-result's status, problem, computrons and timestamps (Slot.DrStatus, DrProblem, DrComputrons, DrTimestamps). */
const DERIVE_DR = 2;
/** A crank-start's message head: its type and vatID (Slot.StartMessage). */
const DERIVE_HEAD = 3;
/** A delivery's method (Slot.DeliverMethod). */
const DERIVE_METHOD = 4;
/** A syscall's kernel-space name: the first element of its ksc (Slot.SyscallName; else the `syscall` key's value, read there). */
const DERIVE_NAME = 5;
/** A delivery's method, target and result promise (Slot.DeliverMethod, DeliverTarget, DeliverResultPromise), from kd or vd. */
const DERIVE_DELIVERY = 6;
/** A syscall's name, target and method (Slot.SyscallName, CallTarget, CallMethod), from its ksc. */
const DERIVE_CALL = 7;
/** A syscall's target and method (Slot.CallTarget, CallMethod), from its vsc (a replay's: its name is read elsewhere). */
const DERIVE_VAT_CALL = 8;
/** Derivations from a kernel-space form, else (a replay) from the vat-space one: made once per line (StepHost.derivedRead). */
const DERIVED_ONCE = [DERIVE_METHOD, DERIVE_DELIVERY, DERIVE_CALL, DERIVE_VAT_CALL];

/** The numbers the step compiler writes into its code. */
const CODES: StepCodes = { INT, WORD, BOOL, NO_DERIVE, DERIVE_NAME, DERIVE_METHOD, DERIVED_ONCE, HEADS: [DERIVE_DELIVERY, DERIVE_CALL, DERIVE_VAT_CALL], NAME_SLOT: Slot.SyscallName };
/** The slots each derivation writes (jsonStep), besides its step's own. */
const DERIVED_SLOTS: Record<number, readonly number[]> = {
  [DERIVE_STATUS]: [Slot.ResultStatus],
  [DERIVE_DR]: [Slot.DrStatus, Slot.DrProblem, Slot.DrComputrons, Slot.DrTimestamps],
  [DERIVE_HEAD]: [Slot.StartMessage],
  [DERIVE_METHOD]: [Slot.DeliverMethod],
  [DERIVE_NAME]: [Slot.SyscallName],
  [DERIVE_DELIVERY]: [Slot.DeliverMethod, Slot.DeliverTarget, Slot.DeliverResultPromise],
  [DERIVE_CALL]: [Slot.SyscallName, Slot.CallTarget, Slot.CallMethod],
  [DERIVE_VAT_CALL]: [Slot.CallTarget, Slot.CallMethod],
};

/** The kernel-space forms, whose presence a step kept alone looks at. */
const KERNEL_FORMS = new Set(['ksc', 'ksr', 'kd']);
/** The vat-space form each pseudo-field asks for. */
const ALONE_FIELDS: Record<string, string> = { vsc: 'vscWithoutKsc', vsr: 'vsrWithoutKsr', vd: 'vdWithoutKd' };


/** One crank type's reading, for one set of fields. */
interface Program {
  type: CrankEntryType;
  steps: CompiledStep[];
  /** Steps after this index are not looked at. */
  last: number;
  /** The slots (one per field of the type) that are read. */
  wanted: boolean[];
}

/** The entry fields in slot order, per type (the order of the type's maker's arguments). */
const SLOTS = {
  'crank-start': ['crankNum', 'crankType', 'vatID', 'messageType', 'message', 'time', 'monotime'],
  'crank-finish': ['crankNum', 'crankType', 'messageType', 'seconds', 'time', 'monotime', 'crankhash', 'activityhash'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'ksc', 'vsc', 'target', 'method', 'time', 'monotime'],
  'syscall-result': ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'status', 'ksr', 'vsr', 'time', 'monotime'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'method', 'kd', 'vd', 'target', 'resultPromise', 'time', 'monotime'],
  'deliver-result': ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'status', 'problem', 'computrons', 'timestamps', 'dr', 'time', 'monotime'],
  clist: ['crankNum', 'mode', 'vatID', 'kobj', 'vobj', 'time', 'monotime'],
} as const satisfies { [T in CrankEntryType]: readonly string[] };

/** `B` when it is `A`: a compile error where a named slot is not its field's index in SLOTS. */
type Is<A, B extends A> = B;
type SlotsAgree = [
  Is<'message', (typeof SLOTS)['crank-start'][Slot.StartMessage]>,
  Is<'kind', (typeof SLOTS)['deliver'][Slot.DeliverKind]>,
  Is<'method', (typeof SLOTS)['deliver'][Slot.DeliverMethod]>,
  Is<'target', (typeof SLOTS)['deliver'][Slot.DeliverTarget]>,
  Is<'resultPromise', (typeof SLOTS)['deliver'][Slot.DeliverResultPromise]>,
  Is<'target', (typeof SLOTS)['syscall'][Slot.CallTarget]>,
  Is<'method', (typeof SLOTS)['syscall'][Slot.CallMethod]>,
  Is<'name', (typeof SLOTS)['syscall'][Slot.SyscallName]>,
  Is<'name', (typeof SLOTS)['syscall-result'][Slot.SyscallName]>,
  Is<'status', (typeof SLOTS)['syscall-result'][Slot.ResultStatus]>,
  Is<'status', (typeof SLOTS)['deliver-result'][Slot.DrStatus]>,
  Is<'problem', (typeof SLOTS)['deliver-result'][Slot.DrProblem]>,
  Is<'computrons', (typeof SLOTS)['deliver-result'][Slot.DrComputrons]>,
  Is<'timestamps', (typeof SLOTS)['deliver-result'][Slot.DrTimestamps]>,
];

/** Slots enough for any type's fields. */
const SLOT_COUNT = 12;

/** Each type's maker, which takes its slots in order. */
const MAKERS: { readonly [T in CrankEntryType]: (...args: never[]) => CrankEntry } = {
  'crank-start': crankStart,
  'crank-finish': crankFinish,
  syscall,
  'syscall-result': syscallResult,
  deliver,
  'deliver-result': deliverResult,
  clist,
};

/** The fields read from the line's tail (readTail), not from its keys. */
const TAIL_FIELDS: Record<string, 'time' | 'monotime' | 'seconds'> = { time: 'time', monotime: 'monotime', seconds: 'seconds' };

/**
 * Slots that must have been read, else the line goes to the plain path: a
 * syscall's name asked for with neither a ksc nor a `syscall` key to read it
 * from (the plain path reads vsc[0]); a delivery's kind asked for without a
 * `dispatch` key (older kernels: the plain path reads kd[0]).
 */
function requiredSlots(p: Program): number[] {
  if (p.type === 'syscall' && p.wanted[Slot.SyscallName]) return [Slot.SyscallName];
  if (p.type === 'deliver' && p.wanted[Slot.DeliverKind]) return [Slot.DeliverKind];
  return [];
}

/** What the entry gets of each slot: read, from the tail, or nothing (a slot read for another program, or not asked for). */
function entryFields(p: Program): ReadSpec['fields'] {
  const slots: readonly string[] = SLOTS[p.type];
  return slots.map((field, s) => {
    const tail = TAIL_FIELDS[field];
    if (tail !== undefined) return p.wanted[s] ? tail : 'none';
    // A vat-space form kept alone is not in `wanted`, but its step has the slot.
    return p.wanted[s] || p.steps.some((step) => step.slot === s) ? 'slot' : 'none';
  });
}

/** Compiles the read of steps `from` .. `last` of `p`, given the slots before `given`. */
function compileProgram(p: Program, from: number, given: number): CompiledRead {
  return compileRead(
    {
      steps: p.steps,
      from,
      to: p.last,
      slotCount: SLOTS[p.type].length,
      given,
      derivedSlots: DERIVED_SLOTS,
      required: requiredSlots(p),
      make: MAKERS[p.type],
      fields: entryFields(p),
    },
    CODES,
    contains,
  );
}

/**
 * A syscall type's read: one program, or (when some names have reads of
 * their own) the steps up to the name, read as any program would read them,
 * then the name's program (or the general one).
 */
function compileSyscalls(general: Program, head: Program, byName: Map<string, Program>, nameStep: number): CompiledRead {
  if (byName.size === 0) return compileProgram(general, 0, 0);
  const reads = new Map<string, CompiledRead>();
  // Names with the same reads (the vatstore syscalls under --novatstore) share one compiled read: one function for V8 to compile, and its feedback from all of them.
  const compiled = new Map<string, CompiledRead>();
  for (const [name, p] of byName) {
    const key = programKey(p);
    let read = compiled.get(key);
    if (read === undefined) {
      read = compileProgram(p, nameStep + 1, Slot.SyscallName + 1);
      compiled.set(key, read);
    }
    reads.set(name, read);
  }
  return compileRead(
    {
      steps: head.steps,
      from: 0,
      to: nameStep,
      slotCount: SLOTS[head.type].length,
      given: 0,
      derivedSlots: DERIVED_SLOTS,
      // No name (an older kernel): which reads apply is known only from the arguments.
      required: [Slot.SyscallName],
      make: MAKERS[head.type],
      fields: [],
      then: { bySlot: Slot.SyscallName, reads, otherwise: compileProgram(general, nameStep + 1, Slot.SyscallName + 1) },
    },
    CODES,
    contains,
  );
}

/** What a program reads, as a string: two programs of one type with the same key read alike. */
function programKey(p: Program): string {
  const steps = p.steps.map((step) => `${step.slot},${step.derive},${step.keptAlone ? 1 : 0}`).join(';');
  return `${p.type}|${p.last}|${p.wanted.join(',')}|${steps}`;
}

/** What is read from a key's value besides the value itself (key-order.ts, DERIVED_FROM). */
function derivation(type: CrankEntryType, key: string, mask: Record<string, true | undefined>): number {
  if (type === 'syscall-result' && (key === 'ksr' || key === 'vsr') && mask.status) return DERIVE_STATUS;
  if (type === 'deliver-result' && key === 'dr' && (mask.status || mask.problem || mask.computrons || mask.timestamps)) return DERIVE_DR;
  if (type === 'deliver' && (key === 'kd' || key === 'vd') && (mask.target || mask.resultPromise)) return DERIVE_DELIVERY;
  if (type === 'deliver' && (key === 'kd' || key === 'vd') && mask.method) return DERIVE_METHOD;
  if (type === 'syscall' && key === 'ksc' && (mask.target || mask.method)) return DERIVE_CALL;
  if (type === 'syscall' && key === 'vsc' && (mask.target || mask.method)) return DERIVE_VAT_CALL;
  if (type === 'syscall' && key === 'ksc' && mask.name) return DERIVE_NAME;
  // The whole message, when asked for, wins over its head.
  if (type === 'crank-start' && key === 'message' && mask.messageHead && !mask.message) return DERIVE_HEAD;
  return NO_DERIVE;
}

function program(type: CrankEntryType, fields: FieldMask<string>): Program {
  const mask = fields as Record<string, true | undefined>;
  const slots: readonly string[] = SLOTS[type];
  const steps: CompiledStep[] = [];
  let last = -1;
  for (const spec of KEY_ORDER[type]) {
    const field = spec.field as string | undefined;
    const derive = derivation(type, spec.key, mask);
    const alone = ALONE_FIELDS[spec.key];
    const keptAlone = alone !== undefined && mask[alone] === true && !mask[spec.key];
    const kept = field !== undefined && (mask[field] === true || keptAlone);
    const slot = kept ? slots.indexOf(field) : -1;
    const kernelForm = KERNEL_FORMS.has(spec.key);
    steps.push({
      key: spec.key,
      kind: KIND_CODES[spec.kind],
      optional: spec.optional,
      slot,
      derive,
      kernelForm,
      keptAlone,
      keyBytes: asciiBytes(`"${spec.key}":`),
    });
    if (slot >= 0 || derive !== NO_DERIVE) last = steps.length - 1;
  }
  const wanted = slots.map((f) => mask[f] === true || (type === 'crank-start' && f === 'message' && mask.messageHead === true));
  return { type, steps, last, wanted };
}

const VAT_ID_KEY = literal(',"vatID":"');
/** The keys a message head (and a delivery's method) is read from: found again further on, the value is parsed whole. */
const HEAD_KEYS = [asciiBytes('"vatID"'), asciiBytes('"type"')];
const METHOD_KEYS = [asciiBytes('"methargs"'), asciiBytes('"body"')];
const TYPE_KEY = literal('{"type":"');
/** TYPE_KEY's first eight bytes, `{"type":`: every head's first word (FastReader.read). */
const TYPE_WORD = TYPE_KEY.words[0] as number;
const NULL_CLOSE = literal('null]');
const METHARGS_BODY = literal(',{"methargs":{"body":');
const COMPUTE_BYTES = asciiBytes('"compute"');
const TIMESTAMPS_BYTES = asciiBytes('"timestamps"');

/** The index of a syscall type's `syscall` key (the name) in its steps. */
const NAME_STEP = KEY_ORDER.syscall.findIndex((s) => s.key === 'syscall');
const RESULT_NAME_STEP = KEY_ORDER['syscall-result'].findIndex((s) => s.key === 'syscall');

/** Do bytes [start, end) spell `message`? */
function isMessageKind(buf: Buffer, start: number, end: number): boolean {
  return (
    end - start === 7 &&
    buf[start] === 109 &&
    buf[start + 1] === 101 &&
    buf[start + 2] === 115 &&
    buf[start + 3] === 115 &&
    buf[start + 4] === 97 &&
    buf[start + 5] === 103 &&
    buf[start + 6] === 101
  );
}

/** A failed read: the line goes to the plain path (head-bytes.ts's value for a parse that fails). */
const FAIL = UNPARSED;

/** How a line of one type is read: its head (`{"type":"T"`, checked whole), then its compiled read. */
interface TypeRead {
  type: CrankEntryType;
  /** `{"type":"<type>"`: its first word is TYPE_WORD (FastReader.read compares the rest). */
  head: Literal;
  read: CompiledRead;
}

/**
 * A type's read, compiled when the first line of the type comes, not when
 * the reader is made: a slog without crank lines (a chain's idle block, the
 * first lines of a `tail`) compiles none of the seven, and compiling them
 * is a part of a start that a small slog would notice (docs/performance.md,
 * start-up).
 */
function typeRead(type: CrankEntryType, compile: () => CompiledRead): TypeRead {
  const t: TypeRead = {
    type,
    head: literal(`{"type":"${type}"`),
    read: (host) => {
      t.read = compile();
      return t.read(host);
    },
  };
  return t;
}

/** Each crank type's read, for one consumer's reads. */
interface TypeReads {
  crankStart: TypeRead;
  crankFinish: TypeRead;
  deliver: TypeRead;
  deliverResult: TypeRead;
  clist: TypeRead;
  syscall: TypeRead;
  result: TypeRead;
}

/**
 * The reads compiled so far, by what they read. Readers with the same reads
 * share them (the two sides of `compare`, a pass read again after a
 * restart): a compiled read keeps nothing of a reader but takes it as its
 * host, and V8 compiles a function once, not once per reader.
 */
const COMPILED = new Map<string, TypeReads>();

function compiledReads(plan: ReadPlan): TypeReads {
  const key = JSON.stringify(plan.reads);
  const known = COMPILED.get(key);
  if (known !== undefined) return known;
  const one = (type: CrankEntryType, fields: FieldMask<string>): TypeRead => typeRead(type, () => compileProgram(program(type, fields), 0, 0));
  const names = Object.keys(plan.reads.bySyscallName ?? {});
  // The steps before the name are read for every syscall as any program would read them; the name always.
  const syscalls = (type: 'syscall' | 'syscall-result', nameStep: number): TypeRead =>
    typeRead(type, () => {
      const pick = (p: SyscallPlan): FieldMask<string> => (type === 'syscall' ? p.syscall : p.result);
      const general = program(type, pick(plan.syscallFor(undefined)));
      const byName = new Map(names.map((name) => [name, program(type, pick(plan.syscallFor(name)))]));
      return compileSyscalls(general, headProgram([general, ...byName.values()], nameStep), byName, nameStep);
    });
  const reads: TypeReads = {
    crankStart: one('crank-start', plan.crankStart),
    crankFinish: one('crank-finish', plan.crankFinish),
    deliver: one('deliver', plan.deliver),
    deliverResult: one('deliver-result', plan.deliverResult),
    clist: one('clist', plan.clist),
    syscall: syscalls('syscall', NAME_STEP),
    result: syscalls('syscall-result', RESULT_NAME_STEP),
  };
  COMPILED.set(key, reads);
  return reads;
}

export class FastReader implements StepHost {
  readonly sc = new ByteScanner();
  private batch: LineBatch | undefined;
  readonly slots: unknown[] = Array.from({ length: SLOT_COUNT }, () => undefined);
  derivedRead = false;
  lenient = false;
  /** The type of the line `read` took last (its time is `sc.time`). */
  type: CrankEntryType = 'crank-start';
  /** A delivery's or syscall's pieces read from its bytes (call-heads.ts). */
  private readonly heads = new HeadBytes(this.sc, (start, end) => this.parse(start, end));
  private readonly crankStartR: TypeRead;
  private readonly crankFinishR: TypeRead;
  private readonly syscallR: TypeRead;
  private readonly resultR: TypeRead;
  private readonly deliverR: TypeRead;
  private readonly deliverResultR: TypeRead;
  private readonly clistR: TypeRead;

  constructor(plan: ReadPlan) {
    const reads = compiledReads(plan);
    this.crankStartR = reads.crankStart;
    this.crankFinishR = reads.crankFinish;
    this.deliverR = reads.deliver;
    this.deliverResultR = reads.deliverResult;
    this.clistR = reads.clist;
    this.syscallR = reads.syscall;
    this.resultR = reads.result;
  }

  /**
   * The entry of the line at bytes [start, end) of a batch, or undefined:
   * read it with the plain path.
   *
   * The line's head (`{"type":"`, the type's name, its closing quote) is
   * compared here, word by word, not by `sc.lit`: this runs for every line,
   * inlined into the pass's per-line loop, whose inlining budget is spent
   * before `lit` is reached; called, the two compares cost some 190
   * instructions a line (`compare` on big-local-1200: 364M).
   */
  read(batch: LineBatch, start: number, end: number): CrankEntry | undefined {
    const sc = this.sc;
    const buf = batch.bytes;
    sc.reset(buf, start, end);
    const view = sc.view;
    // `{"type":`, the word every head begins with; the rest of the head (from its quote on) is compared below.
    if (end - start < 24 || view.getFloat64(start, true) !== TYPE_WORD) return undefined;
    this.batch = batch;
    // The type, from its first letters; its whole name (and closing quote) is checked next.
    const c0 = buf[start + 9];
    const c1 = buf[start + 10];
    let t: TypeRead;
    if (c0 === 115) t = buf[start + 16] === 45 ? this.resultR : this.syscallR; // s
    else if (c0 === 100) t = buf[start + 16] === 45 ? this.deliverResultR : this.deliverR; // d
    else if (c0 === 99 && c1 === 114) t = buf[start + 15] === 115 ? this.crankStartR : this.crankFinishR; // cr
    else if (c0 === 99 && c1 === 108) t = this.clistR; // cl
    else return undefined;
    // The rest of the head, after the word all heads begin with (TYPE_WORD).
    const head = t.head;
    const n = head.bytes.length;
    if (start + n > end) return undefined;
    const words = head.words;
    let i = 8;
    for (let k = 1; k < words.length; k += 1, i += 8) if (view.getFloat64(start + i, true) !== words[k]) return undefined;
    const bytes = head.bytes;
    for (; i < n; i += 1) if (buf[start + i] !== bytes[i]) return undefined;
    sc.pos = start + n;
    if (!sc.readTail(start)) return undefined;
    this.type = t.type;
    return t.read(this);
  }

  /**
   * A delivery's method from the head of its kd (at `sc.pos`), nothing
   * after it read: the compiled read goes on to the tail (step-compiler.ts,
   * methodOnlyFrom). The rest of kd and vd is left unchecked, a key given
   * again there too (the line is lenient: docs/architecture.md, "How the
   * fast paths are kept honest"). The method is taken from the body's first
   * bytes when they spell it exactly (methodInBytes), else from the body's
   * string, parsed.
   */
  methodFromHead(): boolean {
    this.derivedRead = true;
    this.lenient = true;
    return this.methodAt(this.sc.pos, this.sc.tailStart, true, true);
  }

  /** A JSON value asked for (unless not `keep`), or fields read from one (its derivation). */
  jsonStep(step: CompiledStep, lastKey: boolean, keep: boolean): boolean {
    const slot = keep ? step.slot : -1;
    const sc = this.sc;
    const slots = this.slots;
    const at = sc.pos;
    // The last key's value ends where the tail begins; any other's is found by skipping it.
    let end: number;
    if (lastKey) {
      end = sc.tailStart;
      // Only fields derived from it: the rest of the value is not checked.
      if (slot < 0) this.lenient = true;
    } else {
      if (!sc.skipValue()) return false;
      end = sc.pos;
    }
    let value: unknown;
    if (slot >= 0) {
      value = this.parse(at, end);
      // A crank-start's message (its slot is no other type's JSON value's) is an object; ksc, vsc, kd, vd, ksr, vsr and dr are arrays.
      if (slot === Slot.StartMessage) {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      } else if (!Array.isArray(value)) {
        return false;
      }
      slots[slot] = value;
    }
    sc.pos = end;
    switch (step.derive) {
      case DERIVE_STATUS: {
        if (slots[Slot.ResultStatus] !== undefined) return true;
        if (value !== undefined) {
          const status = (value as unknown[])[0];
          if (typeof status !== 'string') return false;
          slots[Slot.ResultStatus] = status;
          return true;
        }
        const status = this.firstWord(at);
        if (status === undefined) return false;
        slots[Slot.ResultStatus] = status;
        return true;
      }
      case DERIVE_DR:
        return value === undefined ? this.drFigures(at, end) : this.drOfValue(value as unknown[]);
      case DERIVE_HEAD:
        return this.messageHeadAt(at, end);
      case DERIVE_NAME: {
        const name = (value as unknown[])[0];
        if (typeof name !== 'string') return false;
        slots[Slot.SyscallName] = name;
        return true;
      }
      case DERIVE_METHOD: {
        // From kd; a replay has only vd. Done once (kd comes first).
        if (this.derivedRead) return true;
        this.derivedRead = true;
        if (value !== undefined) {
          slots[Slot.DeliverMethod] = deliveryMethod(value);
          return true;
        }
        return this.methodAt(at, end, !lastKey);
      }
      default:
        // The pieces of a value kept (DERIVE_DELIVERY, DERIVE_CALL, DERIVE_VAT_CALL). Those and dr's figures are read apart: jsonStep
        // must stay within V8's size for inlining (460 bytes of bytecode), or each type's read calls it instead of inlining it.
        return step.derive < DERIVE_DELIVERY || this.piecesOfValue(step.derive, value);
    }
  }

  /** A deliver-result's status, problem, computrons and timestamps from its `dr`, kept (parsed). */
  private drOfValue(dr: unknown[]): boolean {
    const slots = this.slots;
    slots[Slot.DrStatus] = typeof dr[0] === 'string' ? dr[0] : undefined;
    slots[Slot.DrProblem] = problemOf(dr);
    slots[Slot.DrComputrons] = computronsOf(dr);
    slots[Slot.DrTimestamps] = timestampsOf(dr);
    return true;
  }

  /** A delivery's or syscall's pieces from its value, kept (parsed), by call-heads.ts's rules; once per line, as headsStep. */
  private piecesOfValue(derive: number, value: unknown): boolean {
    if (this.derivedRead) return true;
    this.derivedRead = true;
    const slots = this.slots;
    if (derive === DERIVE_DELIVERY) {
      slots[Slot.DeliverMethod] = deliveryMethod(value);
      slots[Slot.DeliverTarget] = deliveryTarget(value);
      slots[Slot.DeliverResultPromise] = deliveryResultPromise(value);
      return true;
    }
    const kernelSpace = derive === DERIVE_CALL;
    if (kernelSpace) {
      const name = (value as unknown[])[0];
      if (typeof name !== 'string') return false;
      slots[Slot.SyscallName] = name;
    }
    slots[Slot.CallTarget] = callTarget(value, kernelSpace);
    slots[Slot.CallMethod] = callMethod(value, kernelSpace);
    return true;
  }

  /**
   * A delivery's or syscall's pieces (DERIVE_DELIVERY, DERIVE_CALL,
   * DERIVE_VAT_CALL) from its bytes, the value itself not asked for
   * (head-bytes.ts: the whole value walked, its grammar checked). Once per
   * line: the vat-space form after a kernel-space one is passed. Called by
   * the compiled read itself, not through jsonStep: jsonStep is called by
   * every type's read, and what it calls is compiled into each of them.
   */
  headsStep(derive: number, lastKey: boolean): boolean {
    const sc = this.sc;
    if (this.derivedRead) {
      if (!lastKey) return sc.skipValue();
      sc.pos = sc.tailStart;
      this.lenient = true;
      return true;
    }
    this.derivedRead = true;
    const heads = this.heads;
    const slots = this.slots;
    if (derive === DERIVE_DELIVERY) {
      if (!heads.delivery()) return false;
      slots[Slot.DeliverMethod] = heads.method;
      slots[Slot.DeliverTarget] = heads.target;
      slots[Slot.DeliverResultPromise] = heads.resultPromise;
    } else {
      if (!heads.syscall(derive === DERIVE_CALL)) return false;
      if (derive === DERIVE_CALL) slots[Slot.SyscallName] = heads.name;
      slots[Slot.CallTarget] = heads.target;
      slots[Slot.CallMethod] = heads.method;
    }
    // The last key's value ends where the tail begins.
    return !lastKey || sc.pos === sc.tailStart;
  }

  /**
   * `["message",TARGET,{"methargs":{"body":BODY,...`: the method at the start
   * of BODY (its string decoded, its JSON not parsed); any other kind of
   * delivery has none. A message of another shape (2021's `{"method":...,
   * "args":...}`, message.ts) is not taken: the line goes to the plain path.
   */
  private methodAt(at: number, end: number, checked: boolean, headOnly = false): boolean {
    const sc = this.sc;
    const buf = sc.buf;
    if (buf[at] !== 91 || buf[at + 1] !== 34) return false;
    sc.pos = at + 2;
    // The kind, a word: only whether it is `message` matters (its string is not made).
    if (!sc.skipWord()) return false;
    if (!isMessageKind(buf, at + 2, sc.pos - 1)) {
      sc.pos = end;
      return true;
    }
    if (buf[sc.pos] !== 44) return false;
    sc.pos += 1;
    if (!sc.skipStr() || !sc.lit(METHARGS_BODY)) return false;
    const bodyAt = sc.pos;
    // A methargs or body given again (JSON.parse keeps the last), or a key with an escape: the plain path reads it, unless only the head is read (`headOnly`: the rest is not looked at).
    if (!headOnly && mayRepeat(buf, bodyAt, end, METHOD_KEYS)) return false;
    // A value skipped over (`checked`: not the last key's) is valid JSON, or one read for its head only: its method can be taken from the body's first bytes.
    const method = checked ? methodInBytes(buf, bodyAt, end) : undefined;
    if (method !== undefined) {
      this.slots[Slot.DeliverMethod] = method;
      sc.pos = end;
      return true;
    }
    if (!sc.skipStr() || sc.pos > end) return false;
    const body = this.parse(bodyAt, sc.pos);
    if (typeof body !== 'string') return false;
    this.slots[Slot.DeliverMethod] = methargsMethod({ body });
    sc.pos = end;
    return true;
  }

  /** `{"type":"T"(,"vatID":"V")...}`: the message's head, or the whole message where its head is not all. */
  private messageHeadAt(at: number, end: number): boolean {
    const sc = this.sc;
    sc.pos = at;
    if (!sc.lit(TYPE_KEY)) return this.wholeHead(at, end);
    const type = sc.word();
    if (type === undefined || type === 'create-vat') return this.wholeHead(at, end);
    if (type === 'send') return this.sendHead(end);
    let vatID: string | undefined;
    if (sc.lit(VAT_ID_KEY)) {
      vatID = sc.word();
      if (vatID === undefined) return this.wholeHead(at, end);
    }
    // A vatID further on, the type or vatID given again (JSON.parse keeps the last), a key with an escape: parsed whole.
    if (mayRepeat(sc.buf, sc.pos, end, HEAD_KEYS)) return this.wholeHead(at, end);
    if (sc.buf[end - 1] !== 125) return false;
    this.slots[Slot.StartMessage] = { type, vatID };
    sc.pos = end;
    return true;
  }

  /**
   * A send's head is its type alone (entries.ts messageHead): the rest of
   * the message (its target and msg, the most bytes of a crank-start) is not
   * read, so a type given again there is not seen, as in any derived
   * value's rest (docs/architecture.md, the fast path).
   */
  private sendHead(end: number): boolean {
    if (this.sc.buf[end - 1] !== 125) return false;
    this.lenient = true;
    this.slots[Slot.StartMessage] = { type: 'send', vatID: undefined };
    this.sc.pos = end;
    return true;
  }

  private wholeHead(at: number, end: number): boolean {
    const value = this.parse(at, end);
    if (value === FAIL) return false;
    const head = messageHead(value);
    if (head === undefined) return false;
    this.slots[Slot.StartMessage] = head;
    this.sc.pos = end;
    return true;
  }

  /** dr[0], dr[1] unless ok, dr[2].compute and dr[2].timestamps, read without parsing the whole `dr`. */
  private drFigures(at: number, end: number): boolean {
    const sc = this.sc;
    const buf = sc.buf;
    sc.pos = at;
    if (buf[at] !== 91 || buf[at + 1] !== 34) return false;
    sc.pos = at + 2;
    const status = sc.word();
    if (status === undefined || buf[sc.pos] !== 44) return false;
    this.slots[Slot.DrStatus] = status;
    sc.pos += 1;
    const problemAt = sc.pos;
    if (!sc.skipValue() || buf[sc.pos] !== 44) return false;
    if (status !== 'ok') {
      const problem = this.parse(problemAt, sc.pos);
      if (problem === FAIL) return false;
      this.slots[Slot.DrProblem] = problem;
    }
    sc.pos += 1;
    let compute: number | undefined;
    let timestamps: number[] | undefined;
    if (sc.lit(NULL_CLOSE)) {
      compute = undefined;
    } else if (buf[sc.pos] === 123 && buf[sc.pos + 1] !== 125) {
      // Member by member: the last "compute" (and "timestamps") counts, as in JSON.parse.
      do {
        sc.pos += 1;
        const keyAt = sc.pos;
        if (!sc.skipStr() || buf[sc.pos] !== 58) return false;
        const isCompute = sameBytes(buf, keyAt, sc.pos, COMPUTE_BYTES);
        // A key with an escape may be "compute" or "timestamps" all the same: the plain path reads it.
        if (!isCompute && hasEscape(buf, keyAt, sc.pos)) return false;
        const isTimestamps = !isCompute && sameBytes(buf, keyAt, sc.pos, TIMESTAMPS_BYTES);
        sc.pos += 1;
        if (isTimestamps) {
          timestamps = this.numberList();
          if (timestamps === undefined) return false;
          continue;
        }
        if (isCompute) {
          const c = buf[sc.pos] as number;
          if (c === 45 || (c >= 48 && c <= 57)) {
            const n = sc.num();
            if (n !== n) return false;
            compute = Number.isFinite(n) ? n : undefined;
            continue;
          }
          compute = undefined;
        }
        if (!sc.skipValue()) return false;
      } while (buf[sc.pos] === 44);
      if (buf[sc.pos] !== 125) return false;
      sc.pos += 1;
      if (buf[sc.pos++] !== 93) return false;
    } else {
      if (!sc.skipValue() || buf[sc.pos++] !== 93) return false;
    }
    if (sc.pos !== end) return false;
    this.slots[Slot.DrComputrons] = compute;
    this.slots[Slot.DrTimestamps] = timestamps;
    return true;
  }

  /**
   * `[n,n,...]` of plain JSON numbers, as timestampsOf reads it (a number
   * too big for a double is NaN there); undefined for any other value (a
   * space, null, a string...): the line then goes to the plain path.
   */
  private numberList(): number[] | undefined {
    const sc = this.sc;
    const buf = sc.buf;
    if (buf[sc.pos] !== 91) return undefined;
    sc.pos += 1;
    const list: number[] = [];
    if (buf[sc.pos] === 93) {
      sc.pos += 1;
      return list;
    }
    for (;;) {
      const n = sc.num();
      if (n !== n) return undefined;
      list.push(Number.isFinite(n) ? n : NaN);
      const c = buf[sc.pos++];
      if (c === 93) return list;
      if (c !== 44) return undefined;
    }
  }

  /** The first element of an array value, a short string: `["ok",...`. */
  firstWord(at: number): string | undefined {
    const sc = this.sc;
    if (sc.buf[at] !== 91 || sc.buf[at + 1] !== 34) return undefined;
    const back = sc.pos;
    sc.pos = at + 2;
    const w = sc.word();
    sc.pos = back;
    return w;
  }

  private parse(start: number, end: number): unknown {
    try {
      return JSON.parse(batchText(this.batch as LineBatch, start, end)) as unknown;
    } catch {
      return FAIL;
    }
  }
}

/** The head steps (up to the name) of several programs, reading what any of them reads, and the name itself. */
function headProgram(programs: Program[], nameStep: number): Program {
  const base = programs[0] as Program;
  const steps = base.steps.map((s, i) => {
    if (i > nameStep) return s;
    const slot = programs.map((p) => (p.steps[i] as CompiledStep).slot).find((x) => x >= 0) ?? (i === nameStep ? Slot.SyscallName : -1);
    return { ...s, slot };
  });
  const wanted = base.wanted.map((w, i) => w || programs.some((p) => p.wanted[i] === true) || i === Slot.SyscallName);
  return { type: base.type, steps, last: nameStep, wanted };
}

/**
 * Do bytes [from, to) hold one of `keys` (each in its quotes) or a `\\u`
 * escape (a key written otherwise)? Inside a string a quote is escaped, so a
 * match is a key, or a string of that text (then read the slow way).
 */
function mayRepeat(buf: Uint8Array, from: number, to: number, keys: readonly Uint8Array[]): boolean {
  for (let i = from; i < to; i += 1) {
    const c = buf[i];
    if (c === 92) {
      if (buf[i + 1] === 117) return true;
      i += 1;
    } else if (c === 34) {
      for (const key of keys) if (i + key.length <= to && sameBytes(buf, i, i + key.length, key)) return true;
    }
  }
  return false;
}

/** Do bytes [start, end) hold a backslash (an escape)? */
function hasEscape(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (buf[i] === 92) return true;
  return false;
}

function sameBytes(buf: Uint8Array, start: number, end: number, bytes: Uint8Array): boolean {
  return end - start === bytes.length && bytesAt(buf, start, end, bytes);
}

/** Spans longer than this are searched natively. */
const NATIVE_SEARCH_FROM = 4096;

/**
 * Do bytes [from, to) hold `bytes`? A plain loop over a span of a line's
 * usual size (some hundreds of bytes), where Node's native search cost more
 * in making a view and calling out than in searching; the native search
 * over a longer one (a message with kilobytes of arguments).
 */
function contains(buf: Uint8Array, from: number, to: number, bytes: Uint8Array): boolean {
  if (to - from > NATIVE_SEARCH_FROM) return (buf as Buffer).subarray(from, to).indexOf(bytes) >= 0;
  const n = bytes.length;
  const first = bytes[0] as number;
  const last = to - n;
  outer: for (let i = from; i <= last; i += 1) {
    if (buf[i] !== first) continue;
    for (let k = 1; k < n; k += 1) if (buf[i + k] !== bytes[k]) continue outer;
    return true;
  }
  return false;
}
