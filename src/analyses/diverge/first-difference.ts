/**
 * Where two sides' normalized entries of one crank (crank-digest.ts) first
 * differ: the entry (its index and label) and, inside it, the first field
 * (a JSON path such as `ksc[3]` or `dr[2].compute`), said in words for the
 * verdict: `syscall 3 vatstoreSet value differs`.
 */
import type { NormalEntry } from './crank-digest.js';

export interface EntryDifference {
  /** Index of the first entry that differs (or that one side lacks). */
  index: number;
  /** Its label on each side (undefined: that side has no entry there). */
  labelA: string | undefined;
  labelB: string | undefined;
  /** The first differing field's path inside the entry (`` when the entries' types differ or one is missing). */
  path: string;
  /** The field's value on each side, as JSON (undefined: absent). */
  valueA: string | undefined;
  valueB: string | undefined;
  /** In words: `syscall 3 vatstoreSet value differs`. */
  what: string;
}

/** The first path (depth first, keys in A's order then B's extra keys) at which `a` and `b` differ; undefined when equal. */
export function firstPath(a: unknown, b: unknown, path = ''): string | undefined {
  if (a === b) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      const p = firstPath(a[i], b[i], `${path}[${i}]`);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    for (const k of keys) {
      const p = firstPath(a[k], b[k], path === '' ? k : `${path}.${k}`);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  return path;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** The value at `path` (as firstPath writes it), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  if (path === '') return value;
  let v = value;
  for (const step of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (v === null || typeof v !== 'object') return undefined;
    v = step.startsWith('[') ? (v as unknown[])[Number(step.slice(1, -1))] : (v as Record<string, unknown>)[step];
  }
  return v;
}

/** Argument names of a syscall's kernel-space form (`ksc`), by position (model/syscall-call.ts has the same table). */
const KSC_ARGS: Record<string, readonly string[]> = {
  send: ['name', 'target', 'message'],
  resolve: ['name', 'vat', 'resolutions'],
  invoke: ['name', 'device', 'method', 'args'],
  subscribe: ['name', 'vat', 'promise'],
  vatstoreGet: ['name', 'vat', 'key'],
  vatstoreGetNextKey: ['name', 'vat', 'key'],
  vatstoreDelete: ['name', 'vat', 'key'],
  vatstoreSet: ['name', 'vat', 'key', 'value'],
  vatstoreGetAfter: ['name', 'vat', 'priorKey', 'lowerBound', 'upperBound'],
  exit: ['name', 'vat', 'failure', 'info'],
};

/** A field's path in words: `ksc[3]` of a vatstoreSet is `value`, `dr[2].compute` is `computrons`, `ksr[1]` the result. */
export function fieldWords(entry: Record<string, unknown>, path: string): string {
  const head = /^(\w+)(?:\[(\d+)\])?/.exec(path);
  if (!head) return 'its type';
  const [, field, index] = head;
  if (field === 'ksc' && index !== undefined && Array.isArray(entry.ksc)) {
    const names = KSC_ARGS[String(entry.ksc[0])];
    const name = names?.[Number(index)];
    if (name !== undefined) return name === 'name' ? 'syscall name' : name;
  }
  if ((field === 'ksr' || field === 'vsr') && index !== undefined) return index === '0' ? 'result status' : 'result';
  if (field === 'dr') {
    if (path.startsWith('dr[2].compute')) return 'computrons';
    if (index === '0') return 'delivery status';
    if (index === '1') return 'delivery problem';
    // dr[2]: the worker's report (XS: computrons, heap, allocation; none from a local worker).
    return path === 'dr[2]' ? "worker's report (dr[2])" : `worker's ${path.slice('dr[2].'.length)}`;
  }
  if (field === 'kd' || field === 'vd') return 'delivery';
  return path;
}

/** The first difference of two crank's entry lists, or undefined when they are the same. */
export function firstDifference(a: readonly NormalEntry[], b: readonly NormalEntry[]): EntryDifference | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i];
    const y = b[i];
    if (x !== undefined && y !== undefined && x.json === y.json) continue;
    if (x === undefined || y === undefined) {
      const has = (x ?? y) as NormalEntry;
      const side = x ? 'A' : 'B';
      return { index: i, labelA: x?.label, labelB: y?.label, path: '', valueA: x?.json, valueB: y?.json, what: `only ${side} has ${has.label} (and ${Math.abs(a.length - b.length) - 1} more entries)` };
    }
    const va = JSON.parse(x.json) as Record<string, unknown>;
    const vb = JSON.parse(y.json) as Record<string, unknown>;
    // Another kind of entry, or another syscall, there: said as such, not as a field.
    if (va.type !== vb.type || x.label !== y.label) {
      return { index: i, labelA: x.label, labelB: y.label, path: '', valueA: x.json, valueB: y.json, what: `entry ${i}: ${x.label} on A, ${y.label} on B` };
    }
    const path = firstPath(va, vb) ?? '';
    const show = (v: unknown): string | undefined => (v === undefined ? undefined : JSON.stringify(v));
    return { index: i, labelA: x.label, labelB: y.label, path, valueA: show(valueAt(va, path)), valueB: show(valueAt(vb, path)), what: `${x.label} ${fieldWords(va, path)} differs` };
  }
  return undefined;
}

/** Is the crank's only difference (from `d` on) a deliver-result's computrons (told apart, as a computron mismatch)? */
export function onlyComputrons(a: readonly NormalEntry[], b: readonly NormalEntry[], d: EntryDifference): boolean {
  if (d.path !== 'dr[2].compute') return false;
  const x = JSON.parse((a[d.index] as NormalEntry).json) as { dr: [unknown, unknown, Record<string, unknown>] };
  const y = JSON.parse((b[d.index] as NormalEntry).json) as { dr: [unknown, unknown, Record<string, unknown>] };
  delete x.dr[2].compute;
  delete y.dr[2].compute;
  if (firstPath(x, y) !== undefined) return false;
  const rest = firstDifference(a.slice(d.index + 1), b.slice(d.index + 1));
  return rest === undefined || onlyComputrons(a.slice(d.index + 1), b.slice(d.index + 1), rest);
}
