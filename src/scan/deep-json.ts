/**
 * JSON.stringify's text of a value from the slog, also of one nested too
 * deep for JSON.stringify's recursion (which JSON.parse reads: a value
 * nested 20,000 deep), written then from a stack: the same text.
 */
import { BigString } from './big-string.js';

/** JSON.stringify's text of `value` (undefined where it gives none). */
export function json(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return deepJson(value);
  }
}

/** JSON.stringify's text of JSON values (and BigStrings), from a stack of what is left to write. */
function deepJson(value: unknown): string {
  let out = '';
  const work: Array<{ v: unknown; inArray: boolean } | string> = [{ v: value, inArray: false }];
  while (work.length > 0) {
    const item = work.pop() as { v: unknown; inArray: boolean } | string;
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    const v = item.v instanceof BigString ? item.v.toJSON() : item.v;
    if (v === null || typeof v !== 'object') {
      out += JSON.stringify(v) ?? (item.inArray ? 'null' : '');
    } else if (Array.isArray(v)) {
      work.push(']');
      for (let i = v.length - 1; i >= 0; i -= 1) work.push({ v: v[i], inArray: true }, ...(i > 0 ? [','] : []));
      work.push('[');
    } else {
      const members = Object.entries(v as Record<string, unknown>).filter(([, m]) => m !== undefined && typeof m !== 'function');
      work.push('}');
      for (let i = members.length - 1; i >= 0; i -= 1) {
        const [k, m] = members[i] as [string, unknown];
        work.push({ v: m, inArray: false }, `${JSON.stringify(k)}:`, ...(i > 0 ? [','] : []));
      }
      work.push('{');
    }
  }
  return out;
}
