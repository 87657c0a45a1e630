/**
 * Damage done to a line's bytes, as fast-check arbitraries: bytes cut (at
 * either end, or a span out of the middle), flipped, replaced or put in
 * (quotes, brackets, NUL, invalid UTF-8, a raw lone surrogate, a BOM, a
 * `\r`), a span written twice, a number written otherwise (`1e400`, `-0`,
 * `1E+2`, `007`), a character written as a `\u` escape or a surrogate
 * escape, a value nested thousands deep. Positions are fractions of the
 * line, so that a mutation shrinks and applies to any line.
 */
import fc from 'fast-check';
import { EXOTIC_NUMBERS } from './slog-grammar.js';

export type Mutation =
  | { kind: 'cut-end'; at: number }
  | { kind: 'cut-start'; at: number }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'flip'; at: number; bit: number }
  | { kind: 'set'; at: number; byte: number }
  | { kind: 'insert'; at: number; bytes: number[] }
  | { kind: 'repeat'; at: number; length: number; to: number }
  | { kind: 'number'; which: number; text: string }
  | { kind: 'escape'; which: number; style: 'u' | 'surrogate' | 'lone-high' | 'lone-low' | 'slash' }
  | { kind: 'nest'; which: number; depth: number; open: '[' | '{"a":' }
  | { kind: 'member-twice'; which: number; value: string | undefined }
  | { kind: 'escape-key'; which: number };

/** Bytes a reader treats specially. */
const SPECIAL_BYTES = [0x00, 0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x0d, 0x20, 0x09, 0x2d, 0x2e, 0x30, 0x31, 0x39, 0x65, 0x45, 0x2b, 0x6e, 0x74, 0x66, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff];

/** Byte runs worth putting anywhere: invalid UTF-8, a raw (CESU) lone surrogate, a BOM, escapes, tokens. */
const SPECIAL_RUNS: number[][] = [
  [0xff, 0xfe],
  [0xc0, 0xaf],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xed, 0xa0, 0x80],
  [0xed, 0xb0, 0x80],
  [0xef, 0xbb, 0xbf],
  [0xf0, 0x9f, 0x98, 0x80],
  [0xc3, 0xa9],
  [0x0d],
  [0x00],
  ...['\\u0000', '\\ud800', '\\udc00', '\\ud83d\\ude00', '\\"', '\\\\', '\\x', '\\u12', '"', '",', '":', ',"', '{}', '[]', 'null', 'true', ' ', ',"time":1,"monotime":2}', '{"type":"syscall"'].map((s) => [...Buffer.from(s, 'latin1')]),
];

const fraction = fc.nat({ max: 1_000_000 });

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cut-end' as const), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cut-start' as const), at: fraction }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fraction, length: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('flip' as const), at: fraction, bit: fc.nat(7) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fraction, byte: fc.constantFrom(...SPECIAL_BYTES) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fraction, bytes: fc.oneof(fc.constantFrom(...SPECIAL_RUNS), fc.array(fc.nat(255), { minLength: 1, maxLength: 4 })) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fraction, length: fc.integer({ min: 1, max: 80 }), to: fraction }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('number' as const), which: fc.nat(), text: fc.constantFrom(...EXOTIC_NUMBERS) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('escape' as const), which: fc.nat(), style: fc.constantFrom('u' as const, 'surrogate' as const, 'lone-high' as const, 'lone-low' as const, 'slash' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nest' as const), which: fc.nat(), depth: fc.oneof(fc.integer({ min: 1, max: 70 }), fc.constantFrom(1000, 5000, 20000)), open: fc.constantFrom('[' as const, '{"a":' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('member-twice' as const),
      which: fc.nat(),
      value: fc.option(fc.constantFrom('"v9"', '"notify"', '"send"', '7', 'null', '{}', '{"body":"#[\\"other\\",[]]","slots":[]}', '["message","ko1",{"methargs":{"body":"#[\\"other\\",[]]","slots":[]}}]'), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('escape-key' as const), which: fc.nat() }) },
);

const place = (frac: number, n: number): number => Math.floor((frac / 1_000_001) * (n + 1));

/** Number tokens outside strings: [start, end) of each. */
function numberTokens(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
      if (m) {
        out.push([i, i + m[0].length]);
        i += m[0].length - 1;
      }
    }
  }
  return out;
}

/** Characters inside strings (not quotes, not in escapes): their index. */
function stringChars(text: string): number[] {
  const out: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (!inString) {
      if (c === '"') inString = true;
      continue;
    }
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (c === '"') inString = false;
    else out.push(i);
  }
  return out;
}

/** Keys (at any depth): where each key's opening quote is, and where its value starts. */
function keyStarts(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let inString = false;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') {
        inString = false;
        if (text[i + 1] === ':') out.push([start, i + 2]);
      }
      continue;
    }
    if (c === '"') {
      inString = true;
      start = i;
    }
  }
  return out;
}

/** Where values start after a colon (outside strings). */
function valueStarts(text: string): number[] {
  const out: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === ':') out.push(i + 1);
  }
  return out;
}

/** The end of the JSON value starting at `at` in `text` (a rough scan: strings and brackets), or -1. */
function valueEnd(text: string, at: number): number {
  let depth = 0;
  let inString = false;
  for (let i = at; i < text.length; i += 1) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') i += 1;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth += 1;
    else if (c === ']' || c === '}') {
      if (depth === 0) return i;
      depth -= 1;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && c === ',') return i;
  }
  return -1;
}

const hex4 = (code: number): string => `\\u${code.toString(16).padStart(4, '0')}`;

/** A line's bytes with one mutation done. Text-level mutations read the bytes as latin1 (each byte one character), so invalid UTF-8 stays as it is. */
export function mutate(bytes: Buffer, m: Mutation): Buffer {
  const n = bytes.length;
  switch (m.kind) {
    case 'cut-end':
      return bytes.subarray(0, place(m.at, n));
    case 'cut-start':
      return bytes.subarray(place(m.at, n));
    case 'delete': {
      const at = place(m.at, n);
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(n, at + m.length))]);
    }
    case 'flip': {
      if (n === 0) return bytes;
      const out = Buffer.from(bytes);
      const at = Math.min(n - 1, place(m.at, n));
      out[at] = (out[at] as number) ^ (1 << m.bit);
      return out;
    }
    case 'set': {
      if (n === 0) return bytes;
      const out = Buffer.from(bytes);
      out[Math.min(n - 1, place(m.at, n))] = m.byte;
      return out;
    }
    case 'insert': {
      const at = place(m.at, n);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
    }
    case 'repeat': {
      const at = place(m.at, n);
      const span = bytes.subarray(at, Math.min(n, at + m.length));
      const to = place(m.to, n);
      return Buffer.concat([bytes.subarray(0, to), span, bytes.subarray(to)]);
    }
    default:
      return Buffer.from(mutateText(bytes.toString('latin1'), m), 'latin1');
  }
}

function mutateText(text: string, m: Mutation): string {
  switch (m.kind) {
    case 'number': {
      const tokens = numberTokens(text);
      if (tokens.length === 0) return text;
      const [s, e] = tokens[m.which % tokens.length] as [number, number];
      return text.slice(0, s) + m.text + text.slice(e);
    }
    case 'escape': {
      const chars = stringChars(text);
      if (chars.length === 0) return text;
      const i = chars[m.which % chars.length] as number;
      const c = text.charCodeAt(i);
      let by: string;
      if (m.style === 'u') by = c < 0x80 ? hex4(c) : text[i] as string;
      else if (m.style === 'surrogate') by = '\\ud83d\\ude00';
      else if (m.style === 'lone-high') by = '\\ud800';
      else if (m.style === 'lone-low') by = '\\udfff';
      else by = text[i] === '/' ? '\\/' : '\\/' + (text[i] as string);
      return text.slice(0, i) + by + text.slice(i + 1);
    }
    case 'member-twice': {
      // The member again right after itself, with its value or another (JSON.parse keeps the last).
      const keys = keyStarts(text);
      if (keys.length === 0) return text;
      const [k, v] = keys[m.which % keys.length] as [number, number];
      const e = valueEnd(text, v);
      if (e < 0) return text;
      return `${text.slice(0, e)},${text.slice(k, v)}${m.value ?? text.slice(v, e)}${text.slice(e)}`;
    }
    case 'escape-key': {
      // A key's first character written as a \\u escape: the same key to JSON.parse.
      const keys = keyStarts(text);
      if (keys.length === 0) return text;
      const [k] = keys[m.which % keys.length] as [number, number];
      const c = text.charCodeAt(k + 1);
      if (c === 34 || c === 92 || c >= 0x80) return text;
      return `${text.slice(0, k + 1)}${hex4(c)}${text.slice(k + 2)}`;
    }
    case 'nest': {
      const starts = valueStarts(text);
      if (starts.length === 0) return text;
      const s = starts[m.which % starts.length] as number;
      const e = valueEnd(text, s);
      if (e < 0) return text;
      const close = m.open === '[' ? ']' : '}';
      return text.slice(0, s) + m.open.repeat(m.depth) + text.slice(s, e) + close.repeat(m.depth) + text.slice(e);
    }
    default:
      return text;
  }
}

/** A line's bytes after each of the mutations in turn. */
export function mutateAll(bytes: Buffer, ms: readonly Mutation[]): Buffer {
  return ms.reduce((b, m) => mutate(b, m), bytes);
}
