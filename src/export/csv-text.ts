/**
 * Rows as CSV text (RFC 4180): a header line of column names, then one line
 * per row, `\n` ends each. NULL is an empty field; an empty string is `""`;
 * a field with a comma, a quote, CR or LF is quoted, its quotes doubled;
 * booleans are `true`/`false`; numbers as JavaScript prints them (integers
 * as digits, times with every digit they have). DuckDB reads it back with
 * `allow_quoted_nulls=false` (duckdb.ts).
 */
import type { AnyTableDef, Cell, ColumnType } from './schema.js';

/** A string field. */
export function csvString(text: string): string {
  if (text === '') return '""';
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 44 || c === 34 || c === 10 || c === 13) return `"${text.replaceAll('"', '""')}"`;
  }
  return text;
}

/** One field of any type (as csvRowWriter writes it). */
export function csvField(value: Cell | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return csvString(value);
  return String(value);
}

/** The header line (with its `\n`). */
export function csvHeader(table: AnyTableDef): string {
  return `${table.columns.map((c) => csvString(c.name)).join(',')}\n`;
}

/**
 * Where rows are written: a byte buffer and the first free byte in it
 * (writers/text-file.ts). `room(n)` makes at least `n` bytes free after
 * `used` (writing the buffer out if need be) and returns `used`; `text`
 * writes text of any length as UTF-8 (through the buffer).
 */
export interface RowBytes {
  readonly buf: Uint8Array;
  used: number;
  room(bytes: number): number;
  text(text: string): void;
}

/** Free bytes a row is given to start with: enough for every number and boolean of a row of up to ROW_ROOM / 32 columns. */
const ROW_ROOM = 8192;
/** A string longer than this goes through RowBytes.text, not the byte loop. */
const SHORT = 256;

/**
 * A string field at `p`: ASCII with no comma, quote, CR or LF byte by byte
 * (the usual field: a vat ID, a kref, a method); else, as csvString gives
 * it, through `out.text`, after which the row again has ROW_ROOM bytes.
 * Returns the next free byte.
 */
function stringAt(b: Uint8Array, p: number, s: string, out: RowBytes): number {
  const n = s.length;
  if (n === 0 || n > SHORT) return slow(p, csvString(s), out);
  for (let i = 0; i < n; i += 1) {
    const c = s.charCodeAt(i);
    if (c > 127 || c === 44 || c === 34 || c === 10 || c === 13) return slow(p, csvString(s), out);
    b[p + i] = c;
  }
  return p + n;
}

/** Text written as it is (a number's or a boolean's): ASCII byte by byte, else through `out.text`. */
function rawAt(b: Uint8Array, p: number, s: string, out: RowBytes): number {
  const n = s.length;
  if (n > SHORT) return slow(p, s, out);
  for (let i = 0; i < n; i += 1) {
    const c = s.charCodeAt(i);
    if (c > 127) return slow(p, s, out);
    b[p + i] = c;
  }
  return p + n;
}

function slow(p: number, text: string, out: RowBytes): number {
  out.used = p;
  out.text(text);
  return out.room(ROW_ROOM);
}

/** A whole number from 0 to 2^31 - 1 in decimal digits at `p`, at least `width` of them (zeros first); returns the next free byte. */
function digitsAt(b: Uint8Array, p: number, n: number, width: number): number {
  let digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : n < 1000000 ? 6 : n < 10000000 ? 7 : n < 100000000 ? 8 : n < 1000000000 ? 9 : 10;
  if (digits < width) digits = width;
  // Whole 32-bit arithmetic (no `%`, which V8 may do on doubles, by a call).
  let rest = n | 0;
  let q = p + digits;
  do {
    q -= 1;
    const tens = (rest / 10) | 0;
    b[q] = 48 + rest - tens * 10;
    rest = tens;
  } while (q > p);
  return p + digits;
}

/** 2^31: whole numbers below it are written digit by digit. */
const INT_LIMIT = 2147483648;

/**
 * A number as `'' + v` prints it. Digit by digit: a whole number of fewer
 * than 11 digits; a positive number below 2^31 with at most 6 decimals (a
 * slog's times, in seconds) when those decimals read back as `v` (then
 * they are JavaScript's own digits: below 2^33 two numbers of 6 decimals
 * are further apart than two doubles, so no other number of 6 decimals or
 * fewer reads back as `v`, and JavaScript prints the shortest that does,
 * here without its trailing zeros). Anything else through its text.
 */
function numberAt(b: Uint8Array, p: number, v: unknown, out: RowBytes): number {
  if (typeof v === 'number') {
    if ((v | 0) === v) {
      if (v >= 0) return digitsAt(b, p, v | 0, 1);
      if (v > -INT_LIMIT) {
        b[p] = 45;
        return digitsAt(b, p + 1, -v | 0, 1);
      }
    } else if (v > 0 && v < INT_LIMIT) {
      const micros = Math.round(v * 1e6);
      if (micros / 1e6 === v) {
        const whole = Math.floor(micros / 1e6);
        let fraction = (micros - whole * 1e6) | 0;
        let width = 6;
        while (fraction !== 0 && ((fraction / 10) | 0) * 10 === fraction) {
          fraction = (fraction / 10) | 0;
          width -= 1;
        }
        p = digitsAt(b, p, whole, 1);
        b[p] = 46;
        return digitsAt(b, p + 1, fraction, width);
      }
    }
  }
  return rawAt(b, p, `${v as string}`, out);
}

/** The code writing one field of row `r` at `p` (NULL: nothing), by column type. */
function fieldCode(name: string, type: ColumnType): string {
  const read = `v = r[${JSON.stringify(name)}];`;
  switch (type) {
    case 'VARCHAR':
      return `${read} if (v != null) p = str(b, p, v, out);`;
    case 'BOOLEAN':
      return `${read} if (v != null) p = v ? raw(b, p, 'true', out) : raw(b, p, 'false', out);`;
    default:
      return `${read} if (v != null) p = num(b, p, v, out);`;
  }
}

/**
 * A function writing one row's line (with its `\n`) into `out`'s bytes:
 * made once per table from its columns, one statement per field, so that a
 * row costs no loop over columns, no test of each cell's type, and no
 * string for the line (the strings a line was joined from, and its UTF-8
 * copy, were most of the export's garbage).
 */
export function csvRowWriter(table: AnyTableDef): (row: object, out: RowBytes) => void {
  const fields = table.columns.map((c) => fieldCode(c.name, c.type as ColumnType));
  if (fields.length * 32 + 64 > ROW_ROOM) throw new Error(`${table.name}: too many columns for one row's room`);
  const body = `return (r, out) => {\n  const b = out.buf;\n  let p = out.room(${ROW_ROOM});\n  let v;\n  ${fields.join('\n  b[p++] = 44;\n  ')}\n  b[p++] = 10;\n  out.used = p;\n};`;
  const make = new Function('str', 'raw', 'num', body) as (
    str: typeof stringAt,
    raw: typeof rawAt,
    num: typeof numberAt,
  ) => (row: object, out: RowBytes) => void;
  return make(stringAt, rawAt, numberAt);
}
