/**
 * The byte reader's steps (fast-reader.ts), compiled: for one crank type and
 * one set of fields, the walk over a line's keys as one straight JavaScript
 * function, written out from the key-order table when the reader is made.
 * Each key is compared with constants (eight bytes at a time, as a double),
 * the values asked for read, the others passed; what a JSON value needs
 * goes back to the reader (`host.jsonStep`). The same walk as
 * `FastReader.run`, step for step, without looking each step up (measured:
 * the interpreted walk cost three times the old hand-written readers).
 */
import { asciiBytes, type ByteScanner } from './json-bytes.js';

/** What the compiled walk needs of the reader. */
export interface StepHost {
  readonly sc: ByteScanner;
  readonly slots: unknown[];
  /** The line has its kernel-space form (ksc, ksr, kd). */
  kernelForm: boolean;
  /** A JSON value asked for (unless not `keep`), or fields read from one (the step's derivation). */
  jsonStep(step: CompiledStep, lastKey: boolean, keep: boolean): boolean;
  /** The first element of an array value, a short string. */
  firstWord(at: number): string | undefined;
}

/** A step as the compiler needs it (fast-reader.ts's Step). */
export interface CompiledStep {
  key: string;
  kind: number;
  optional: boolean;
  slot: number;
  derive: number;
  kernelForm: boolean;
  /** Kept only when the line had no kernel-space form (a vat-space form asked for alone). */
  keptAlone: boolean;
  keyBytes: Uint8Array;
}

/** Kinds and derivations, as fast-reader.ts numbers them. */
export interface StepCodes {
  INT: number;
  WORD: number;
  BOOL: number;
  NO_DERIVE: number;
  DERIVE_NAME: number;
}

export type CompiledWalk = (host: StepHost) => boolean;

/** `pos` holds `bytes`: as doubles of eight bytes, then byte by byte. */
function matchBytes(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parts = [`pos + ${bytes.length} <= end`];
  let i = 0;
  for (; i + 8 <= bytes.length; i += 8) parts.push(`view.getFloat64(pos + ${i}, true) === ${String(view.getFloat64(i, true))}`);
  for (; i < bytes.length; i += 1) parts.push(`buf[pos + ${i}] === ${bytes[i]}`);
  return parts.join(' && ');
}

/** Compiles steps `from`..`to` (inclusive) of a program of `count` steps. */
export function compileSteps(steps: readonly CompiledStep[], from: number, to: number, codes: StepCodes, contains: (buf: Uint8Array, from: number, to: number, bytes: Uint8Array) => boolean): CompiledWalk {
  const lines: string[] = [
    'const sc = host.sc; const buf = sc.buf; const view = sc.view; const end = sc.end; const slots = host.slots;',
    'let pos = sc.pos; let n = 0; let w;',
  ];
  for (let i = from; i <= to; i += 1) {
    const step = steps[i] as CompiledStep;
    const lit = asciiBytes(`,"${step.key}":`);
    const wanted = step.slot >= 0 || step.derive !== codes.NO_DERIVE;
    const last = i === steps.length - 1;
    lines.push(`// ${step.key}`);
    lines.push(`if (${matchBytes(lit)}) {`);
    lines.push(`  pos += ${lit.length};`);
    if (step.kernelForm) lines.push('  host.kernelForm = true;');
    if (step.kind === codes.INT) {
      if (step.slot < 0) lines.push('  sc.pos = pos; if (!sc.skipInt()) return false; pos = sc.pos;');
      else lines.push(`  sc.pos = pos; n = sc.int(); if (n !== n) return false; slots[${step.slot}] = n; pos = sc.pos;`);
    } else if (step.kind === codes.WORD) {
      lines.push('  if (buf[pos] !== 34) return false;');
      if (step.slot < 0) lines.push('  sc.pos = pos + 1; if (!sc.skipWord()) return false; pos = sc.pos;');
      else lines.push(`  sc.pos = pos + 1; w = sc.word(); if (w === undefined) return false; slots[${step.slot}] = w; pos = sc.pos;`);
    } else if (step.kind === codes.BOOL) {
      lines.push('  sc.pos = pos; w = sc.bool(); if (w === undefined) return false;');
      if (step.slot >= 0) lines.push(`  slots[${step.slot}] = w;`);
      lines.push('  pos = sc.pos;');
    } else if (step.derive === codes.DERIVE_NAME && step.slot < 0) {
      // Only the name: the array's first word; its rest not read unless a later key is.
      lines.push('  w = host.firstWord(pos); if (w === undefined) return false; slots[5] = w;');
      if (i === to) lines.push('  sc.pos = pos; return true;');
      else lines.push('  sc.pos = pos; if (!sc.skipValue()) return false; pos = sc.pos;');
    } else if (!wanted) {
      lines.push(last ? '  pos = sc.tailStart;' : '  sc.pos = pos; if (!sc.skipValue()) return false; pos = sc.pos;');
    } else {
      const json = (keep: string): string => `sc.pos = pos; if (!host.jsonStep(STEPS[${i}], ${last}, ${keep})) return false; pos = sc.pos;`;
      if (!step.keptAlone) {
        lines.push(`  ${json('true')}`);
      } else if (step.derive === codes.NO_DERIVE) {
        // A vat-space form asked for alone: skipped when the line had its kernel-space form.
        const skip = last ? 'pos = sc.tailStart;' : 'sc.pos = pos; if (!sc.skipValue()) return false; pos = sc.pos;';
        lines.push(`  if (host.kernelForm) { ${skip} } else { ${json('true')} }`);
      } else {
        // One that also derives a field (a replay's vd, for its method): derived either way, kept only without the kernel-space form.
        lines.push(`  ${json('!host.kernelForm')}`);
      }
    }
    lines.push('} else {');
    if (!step.optional) lines.push('  return false;');
    // A key the line may lack (a replay's crankNum); but one asked for may also stand
    // elsewhere in a line written otherwise: that is for the plain path to read.
    else if (wanted) lines.push(`  if (contains(buf, pos, end, KEYS[${i}])) return false;`);
    lines.push('}');
    lines.push('if (pos > sc.tailStart) return false;');
  }
  lines.push('sc.pos = pos;', 'return true;');
  const keys = steps.map((s) => s.keyBytes);
  const make = new Function('contains', 'KEYS', 'STEPS', `return function walk(host) {\n${lines.join('\n')}\n};`) as (
    c: typeof contains,
    k: Uint8Array[],
    s: readonly CompiledStep[],
  ) => CompiledWalk;
  return make(contains, keys, steps);
}
