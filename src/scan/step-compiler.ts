/**
 * The byte reader's reads (fast-reader.ts), compiled: for one crank type and
 * one set of fields, the whole read of a line after its type and tail (the
 * walk over its keys, then the entry made) as one straight JavaScript
 * function, written out from the key-order table when the first line of
 * the type is read. Each key is compared with constants (eight bytes at a
 * time, as a double), the values asked for read into the function's own
 * variables, the others passed; what a JSON value needs goes back to the
 * reader (`host.jsonStep`, which leaves its values in `host.slots`). The
 * entry's maker is called with those variables.
 *
 * Why a function written out rather than a loop over the table: a loop
 * looks up each step's kind, key and slot at every line, and keeps the
 * values in an array of slots to clear, fill and read back, each number
 * boxed on its way to the entry; here the steps are code, the keys
 * constants and the values local variables (docs/performance.md has what
 * each way cost).
 */
import { asciiBytes, type ByteScanner } from './json-bytes.js';
import type { CrankEntry } from './entry-types.js';

/** What the compiled read needs of the reader. */
export interface StepHost {
  readonly sc: ByteScanner;
  /** Where `jsonStep` leaves the values it reads (by slot). */
  readonly slots: unknown[];
  /**
   * The line's fields derived from its kernel-space form were read (a
   * delivery's method, target and result promise from kd; a syscall's
   * target and method from ksc): its vat-space form, which a replay has
   * instead, is not read for them again.
   */
  derivedRead: boolean;
  /**
   * The line was taken with bytes after the walk left unchecked (the rest
   * of a value a field was derived from, or the keys after the last one
   * asked for): damage there makes it a bad line for JSON.parse, not here
   * (docs/architecture.md, "What the fast path checks").
   */
  lenient: boolean;
  /** A JSON value asked for (unless not `keep`), or fields read from one (the step's derivation). */
  jsonStep(step: CompiledStep, lastKey: boolean, keep: boolean): boolean;
  /** A delivery's or syscall's pieces (a derivation of StepCodes.HEADS) read from the value's bytes at `sc.pos`, the value not kept. */
  headsStep(derive: number, lastKey: boolean): boolean;
  /** A delivery's method from the head of the kd at `sc.pos`, the rest of the line not read (`methodOnlyFrom`). */
  methodFromHead(): boolean;
  /** The first element of an array value, a short string. */
  firstWord(at: number): string | undefined;
}

/** What the reader does at one key (fast-reader.ts makes them from key-order.ts). */
export interface CompiledStep {
  key: string;
  kind: number;
  optional: boolean;
  /** Where its value goes in the slots (-1: not kept). */
  slot: number;
  /** What is read from its value besides (NO_DERIVE: nothing). */
  derive: number;
  /** The key is a kernel-space form (ksc, ksr, kd): a step kept alone looks for it. */
  kernelForm: boolean;
  /**
   * A vat-space form asked for alone (vscWithoutKsc, vsrWithoutKsr,
   * vdWithoutKd): its value is kept only when the line had no kernel-space
   * form.
   */
  keptAlone: boolean;
  /** `"key":`, to look for the key elsewhere in the line when it is not where the table puts it. */
  keyBytes: Uint8Array;
}

/** Kinds, derivations and the name's slot, as fast-reader.ts numbers them. */
export interface StepCodes {
  INT: number;
  WORD: number;
  BOOL: number;
  NO_DERIVE: number;
  DERIVE_NAME: number;
  DERIVE_METHOD: number;
  /** Derivations made once per line, from the kernel-space form, else the vat-space one (StepHost.derivedRead). */
  DERIVED_ONCE: readonly number[];
  /** Derivations read from the bytes by host.headsStep when the value is not kept (else by jsonStep from the value). */
  HEADS: readonly number[];
  /** The slot a syscall's name is read into (its variable: `v` and the number). */
  NAME_SLOT: number;
}

/** The entry (or undefined: the line goes to the plain path), given the values of the slots read before (a syscall's head). */
export type CompiledRead = (host: StepHost, ...head: unknown[]) => CrankEntry | undefined;

/** One compiled read: which steps, what the entry gets, and what follows. */
export interface ReadSpec {
  steps: readonly CompiledStep[];
  from: number;
  to: number;
  /** The type's slot count (its maker's arguments). */
  slotCount: number;
  /** Slots 0 .. given-1 come as arguments (a read that goes on from another's `then`). */
  given: number;
  /** The slots each derivation writes into `host.slots` (by derive code), besides the step's own. */
  derivedSlots: Readonly<Record<number, readonly number[]>>;
  /** Slots that must have been read, else the line goes to the plain path. */
  required: readonly number[];
  /**
   * The entry: the maker, and for each slot whether the entry gets it
   * (else undefined), or where the tail gives it (readTail's `time`,
   * `monotime()`, `seconds()`). Not used with `then`.
   */
  make: (...args: never[]) => CrankEntry;
  fields: ReadonlyArray<'slot' | 'none' | 'time' | 'monotime' | 'seconds'>;
  /**
   * Instead of making the entry: the read to go on with, chosen by the value
   * of slot `bySlot` (a syscall's name), slots 0 .. bySlot passed on (its `given`).
   */
  then?: { bySlot: number; reads: Map<string, CompiledRead>; otherwise: CompiledRead };
}

/** `pos` holds `bytes`: as doubles of eight bytes, then byte by byte. */
function matchBytes(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts = [`pos + ${bytes.length} <= end`];
  let i = 0;
  for (; i + 8 <= bytes.length; i += 8) parts.push(`view.getFloat64(pos + ${i}, true) === ${String(view.getFloat64(i, true))}`);
  for (; i < bytes.length; i += 1) parts.push(`buf[pos + ${i}] === ${bytes[i]}`);
  return parts.join(' && ');
}

/** The slots a JSON step leaves in `host.slots`. */
function jsonSlots(step: CompiledStep, spec: ReadSpec): number[] {
  const out = [...(spec.derivedSlots[step.derive] ?? [])];
  if (step.slot >= 0 && !out.includes(step.slot)) out.push(step.slot);
  return out;
}

/**
 * From step `i` (a delivery's kd, read for its method) on, the read wants
 * nothing but the method: no later step up to the read's last keeps a
 * value or derives anything else (a vd, read for the method only when the
 * line has no kd). Then the method is taken from kd's head and the walk
 * goes straight to the tail, over the rest of kd and vd unread (kd holds a
 * message's arguments: kilobytes, on every delivery).
 */
function methodOnlyFrom(spec: ReadSpec, i: number, codes: StepCodes): boolean {
  const step = spec.steps[i] as CompiledStep;
  if (step.derive !== codes.DERIVE_METHOD || step.slot >= 0 || step.keptAlone || !step.kernelForm || i >= spec.steps.length - 1) return false;
  for (let j = i + 1; j <= spec.to; j += 1) {
    const later = spec.steps[j] as CompiledStep;
    if (later.slot >= 0 || (later.derive !== codes.NO_DERIVE && later.derive !== codes.DERIVE_METHOD)) return false;
  }
  return true;
}

/** Code past a value not read: skipped, its grammar checked; the last key's, not looked at (the walk goes to the tail, the line lenient). */
const SKIP_VALUE = 'sc.pos = pos; if (!sc.skipValue()) return undefined; pos = sc.pos;';
const passCode = (last: boolean): string => (last ? 'pos = sc.tailStart; host.lenient = true;' : SKIP_VALUE);

/** Code that takes the slots a JSON step left in `host.slots` into its variables. */
function backCode(step: CompiledStep, spec: ReadSpec): string {
  return jsonSlots(step, spec)
    .map((s) => ` v${s} = slots[${s}];`)
    .join('');
}

/** The code of one step: `v<slot>` variables for values, `return undefined` for a line the table does not fit. */
function stepCode(spec: ReadSpec, i: number, codes: StepCodes): string[] {
  const step = spec.steps[i] as CompiledStep;
  const lit = asciiBytes(`,"${step.key}":`);
  const wanted = step.slot >= 0 || step.derive !== codes.NO_DERIVE;
  const last = i === spec.steps.length - 1;
  const v = `v${step.slot}`;
  const lines = [`// ${step.key}`, `if (${matchBytes(lit)}) {`, `  pos += ${lit.length};`];
  if (step.kernelForm) lines.push('  kernelForm = true;');
  if (step.kind === codes.INT) {
    if (step.slot < 0) lines.push('  sc.pos = pos; if (!sc.skipInt()) return undefined; pos = sc.pos;');
    else lines.push(`  sc.pos = pos; ${v} = sc.int(); if (${v} !== ${v}) return undefined; pos = sc.pos;`);
  } else if (step.kind === codes.WORD) {
    lines.push('  if (buf[pos] !== 34) return undefined;');
    if (step.slot < 0) lines.push('  sc.pos = pos + 1; if (!sc.skipWord()) return undefined; pos = sc.pos;');
    else lines.push(`  sc.pos = pos + 1; ${v} = sc.word(); if (${v} === undefined) return undefined; pos = sc.pos;`);
  } else if (step.kind === codes.BOOL) {
    lines.push(`  sc.pos = pos; w = sc.bool(); if (w === undefined) return undefined;${step.slot >= 0 ? ` ${v} = w;` : ''} pos = sc.pos;`);
  } else if (step.derive === codes.DERIVE_NAME && step.slot < 0) {
    // Only the name: the array's first word; its rest not read unless a later key is.
    lines.push(`  w = host.firstWord(pos); if (w === undefined) return undefined; v${codes.NAME_SLOT} = w;`);
    if (i === spec.to) lines.push('  break steps;');
    else lines.push(`  ${SKIP_VALUE}`);
  } else if (methodOnlyFrom(spec, i, codes)) {
    lines.push(`  sc.pos = pos; if (!host.methodFromHead()) return undefined;${backCode(step, spec)} pos = sc.tailStart;`, '  break steps;');
  } else if (!wanted) {
    lines.push(`  ${passCode(last)}`);
  } else {
    const back = backCode(step, spec);
    const json = (keep: string): string => `sc.pos = pos; if (!host.jsonStep(STEPS[${i}], ${last}, ${keep})) return undefined;${back} pos = sc.pos;`;
    const heads = codes.HEADS.includes(step.derive);
    const headsStep = `sc.pos = pos; if (!host.headsStep(${step.derive}, ${last})) return undefined;${back} pos = sc.pos;`;
    if (heads && !step.kernelForm && (step.keptAlone || step.slot < 0)) {
      // A vat-space form after the kernel-space one, which gave the pieces: passed.
      lines.push(`  if (kernelForm) { ${passCode(last)} } else { ${step.slot < 0 ? headsStep : json('true')} }`);
    } else if (!step.keptAlone) {
      lines.push(`  ${heads && step.slot < 0 ? headsStep : json('true')}`);
    } else if (step.derive === codes.NO_DERIVE) {
      // A vat-space form asked for alone: skipped when the line had its kernel-space form.
      lines.push(`  if (kernelForm) { ${passCode(last)} } else { ${json('true')} }`);
    } else {
      // One that also derives a field (a replay's vd, for its method): derived either way, kept only without the kernel-space form.
      lines.push(`  ${json('!kernelForm')}`);
    }
  }
  lines.push('} else {');
  if (!step.optional) lines.push('  return undefined;');
  // A key the line may lack (a replay's crankNum); but one asked for may also stand
  // elsewhere in a line written otherwise: that is for the plain path to read.
  else if (wanted) lines.push(`  if (contains(buf, pos, end, KEYS[${i}])) return undefined;`);
  lines.push('}', 'if (pos > sc.tailStart) return undefined;');
  return lines;
}

/** What follows the walk: the entry made, or the read chosen by a slot's value. */
function endCode(spec: ReadSpec): string[] {
  const slots = Array.from({ length: spec.slotCount }, (_, s) => `v${s}`);
  const lines = spec.required.map((s) => `if (v${s} === undefined) return undefined;`);
  if (spec.then) {
    // The slot is required: a string (a word) by now.
    lines.push(`const next = READS.get(v${spec.then.bySlot});`);
    lines.push(`return (next === undefined ? OTHERWISE : next)(host, ${slots.slice(0, spec.then.bySlot + 1).join(', ')});`);
    return lines;
  }
  const args = spec.fields.map((f, s) => {
    if (f === 'slot') return `v${s}`;
    if (f === 'none') return 'undefined';
    return f === 'time' ? 'sc.time' : `sc.${f}()`;
  });
  lines.push(`return make(${args.join(', ')});`);
  return lines;
}

/** Compiles one read (see ReadSpec); `contains` looks for a key elsewhere in the line. */
export function compileRead(spec: ReadSpec, codes: StepCodes, contains: (buf: Uint8Array, from: number, to: number, bytes: Uint8Array) => boolean): CompiledRead {
  const steps = spec.steps.slice(spec.from, spec.to + 1);
  const written = new Set<number>();
  for (const step of steps) if (step.kind !== codes.INT && step.kind !== codes.WORD && step.kind !== codes.BOOL) for (const s of jsonSlots(step, spec)) written.add(s);
  const params = Array.from({ length: spec.given }, (_, s) => `v${s}`);
  const locals = Array.from({ length: spec.slotCount }, (_, s) => `v${s}`).filter((v) => !params.includes(v));
  const lines: string[] = [
    'const sc = host.sc; const buf = sc.buf; const view = sc.view; const end = sc.end; const slots = host.slots;',
    'let pos = sc.pos; let w; let kernelForm = false;',
    'host.lenient = false;',
    // A read chosen by a syscall's `syscall` field: the name the line ends with (its ksc[0]) must be that one, whose reads these are.
    ...(spec.given > 5 ? ['const dispatched = v5;'] : []),
    ...(locals.length > 0 ? [`let ${locals.join(', ')};`] : []),
    // What jsonStep may write is cleared first: it tells "not read" from "read" by undefined.
    ...[...written].map((s) => `slots[${s}] = undefined;`),
    ...(steps.some((s) => codes.DERIVED_ONCE.includes(s.derive)) ? ['host.derivedRead = false;'] : []),
    'steps: {',
  ];
  for (let i = spec.from; i <= spec.to; i += 1) lines.push(...stepCode(spec, i, codes));
  lines.push(
    '}',
    ...(spec.given > codes.NAME_SLOT ? [`if (v${codes.NAME_SLOT} !== dispatched) return undefined;`] : []),
    'if (pos < sc.tailStart) host.lenient = true;',
    'sc.pos = pos;',
    ...endCode(spec),
  );
  const keys = spec.steps.map((s) => s.keyBytes);
  const make = new Function('contains', 'KEYS', 'STEPS', 'make', 'READS', 'OTHERWISE', `return function read(${['host', ...params].join(', ')}) {\n${lines.join('\n')}\n};`) as (
    c: typeof contains,
    k: Uint8Array[],
    s: readonly CompiledStep[],
    m: ReadSpec['make'],
    r: Map<string, CompiledRead> | undefined,
    o: CompiledRead | undefined,
  ) => CompiledRead;
  return make(contains, keys, spec.steps, spec.make, spec.then?.reads, spec.then?.otherwise);
}
