/**
 * The CSV rows the export writes (csv-text.ts's csvRowWriter into
 * writers/text-file.ts's TextFile, byte by byte) against RFC 4180 as a
 * plain loop here spells it: every kind of cell, and cells that take the
 * slow ways (quoting, text beyond ASCII, a cell bigger than the buffer,
 * a value of another type than its column's), so that the bytes are
 * those of the text made whole and encoded as UTF-8.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRowWriter } from './csv-text.js';
import type { AnyTableDef, ColumnType } from './schema.js';
import { TextFile } from './writers/text-file.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-csv-text-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TYPES: ColumnType[] = ['BIGINT', 'DOUBLE', 'VARCHAR', 'BOOLEAN'];

/** A table of one column per type, named by it. */
const TABLE = {
  name: 't',
  sqliteName: 't',
  doc: '',
  columns: TYPES.map((type) => ({ name: type, type, nullable: true, doc: '' })),
  rows: () => ({}),
} as AnyTableDef;

/** RFC 4180 as the export's docs say it: NULL empty, '' as `""`, a field with `,` `"` CR LF quoted with its quotes doubled. */
function expectedLine(row: Record<string, unknown>): string {
  const field = (type: ColumnType, v: unknown): string => {
    if (v === null || v === undefined) return '';
    if (type === 'VARCHAR' && typeof v === 'string') {
      if (v === '') return '""';
      return /[,"\r\n]/.test(v) ? `"${v.split('"').join('""')}"` : v;
    }
    if (type === 'BOOLEAN') return v ? 'true' : 'false';
    return String(v);
  };
  return `${TYPES.map((t) => field(t, row[t])).join(',')}\n`;
}

function written(rows: Array<Record<string, unknown>>): { text: string; chars: number } {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.csv`);
  const file = new TextFile(path);
  const write = csvRowWriter(TABLE);
  for (const row of rows) write(file, row);
  const chars = file.written;
  file.close();
  return { text: readFileSync(path, 'utf8'), chars };
}

const NUMBERS = [0, -0, 7, 10, 99, 100, 2 ** 31 - 1, 2 ** 31, -1, -(2 ** 31), 2 ** 53, 1e21, 1.5, -0.25, 1700000000.123456, 1e-7, NaN, Infinity, -Infinity];
const STRINGS = ['', 'v1', 'send', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', 'é', 'kp40 ✓', '😀', ',', '"', 'x'.repeat(1000)];

describe('csvRowWriter', () => {
  it('writes every kind of cell as the plain text of RFC 4180 would be', () => {
    const rows: Array<Record<string, unknown>> = [];
    for (const n of NUMBERS) rows.push({ BIGINT: n, DOUBLE: n, VARCHAR: null, BOOLEAN: n > 0 });
    for (const s of STRINGS) rows.push({ BIGINT: null, DOUBLE: undefined, VARCHAR: s, BOOLEAN: false });
    rows.push({});
    // Values of another type than the column's print as their text (a number in a text column is not quoted), a boolean column's as true or false.
    rows.push({ BIGINT: 'a,b', DOUBLE: true, VARCHAR: 12.5, BOOLEAN: 'yes' });
    const expected = rows.map(expectedLine).join('');
    const { text, chars } = written(rows);
    expect(text).toBe(expected);
    // `written` counts characters (UTF-16 units), as for text written whole: the Parquet parts are cut by it.
    expect(chars).toBe(expected.length);
  });

  it('fills and flushes the buffer many times over, cells bigger than the buffer included', () => {
    const rows: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 40_000; i += 1) rows.push({ BIGINT: i * 7919, DOUBLE: i / 3, VARCHAR: `kp${i}`, BOOLEAN: i % 2 === 0 });
    rows.splice(1000, 0, { BIGINT: 1, DOUBLE: 2, VARCHAR: 'k'.repeat(300_000), BOOLEAN: true });
    rows.splice(2000, 0, { BIGINT: 1, DOUBLE: 2, VARCHAR: 'é'.repeat(100_000), BOOLEAN: true });
    rows.splice(3000, 0, { BIGINT: 1, DOUBLE: 2, VARCHAR: `"${'q'.repeat(200_000)}"`, BOOLEAN: true });
    const expected = rows.map(expectedLine).join('');
    const { text, chars } = written(rows);
    expect(text.length).toBe(expected.length);
    expect(text).toBe(expected);
    expect(chars).toBe(expected.length);
  });
});
