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

/** One field of any type. */
export function csvField(value: Cell | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return csvString(value);
  return String(value);
}

/** The header line (with its `\n`). */
export function csvHeader(table: AnyTableDef): string {
  return `${table.columns.map((c) => csvString(c.name)).join(',')}\n`;
}

/** Where csvRowWriter writes: writers/text-file.ts's TextFile (each writes the bytes `write` would of the same text). */
export interface CsvOut {
  /** Any text, as UTF-8. */
  write(text: string): void;
  /** One ASCII character. */
  byte(code: number): void;
  /** A number as `'' + value` prints it. */
  number(value: number): void;
  /** Text known to be ASCII. */
  ascii(text: string): void;
  /** A string cell, as `quoted` (csvString) makes it. */
  csvString(text: string, quoted: (text: string) => string): void;
}

/**
 * The statements writing one field of row `r` to `out`, by column type:
 * NULL (or undefined) nothing, a string csvString's text, a number or a
 * boolean as JavaScript prints it, a boolean column's value `true` or
 * `false` by its truth (a value of another type than the column's: its
 * text, as a number's, unquoted).
 */
function fieldWriteCode(name: string, type: ColumnType): string {
  const v = `r[${JSON.stringify(name)}]`;
  switch (type) {
    case 'VARCHAR':
      return `v = ${v}; if (v != null) { if (typeof v === 'string') out.csvString(v, str); else out.write('' + str(v)); }`;
    case 'BOOLEAN':
      return `v = ${v}; if (v != null) out.ascii(v ? 'true' : 'false');`;
    default:
      return `v = ${v}; if (v != null) { if (typeof v === 'number') out.number(v); else out.write('' + v); }`;
  }
}

/**
 * A function writing one row's line (with its `\n`) to `out`, straight
 * into its buffer: no line string is made (joining its pieces, printing
 * the numbers and flattening the line to encode it were most of the CSV
 * text's cost), and a row costs no loop and no test of each column's type
 * (one statement per field, made once per table).
 */
export function csvRowWriter(table: AnyTableDef): (out: CsvOut, row: object) => void {
  const fields = table.columns.map((c) => fieldWriteCode(c.name, c.type as ColumnType));
  const body = `let v;\n${fields.join('\nout.byte(44);\n')}\nout.byte(10);`;
  const make = new Function('str', `return (out, r) => {\n${body}\n};`) as (str: (s: string) => string) => (out: CsvOut, row: object) => void;
  return make(csvString);
}
