/**
 * The CSV rows (csv-text.ts csvRowWriter, through writers/text-file.ts's
 * buffer) against RFC 4180 text made here by a plain loop (`'' + v` for
 * numbers, quotes doubled), on cells of every kind: NULL, empty, text to
 * quote, non-ASCII, long text (past the byte loop, past the buffer), whole
 * numbers in and out of the digit loop's range, fractions, -0, NaN,
 * booleans; many rows, so that the buffer is written out between them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvRowWriter } from './csv-text.js';
import type { AnyTableDef, ColumnType } from './schema.js';
import { TextFile } from './writers/text-file.js';

const scratch = mkdtempSync(join(tmpdir(), 'slogulate-csv-text-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const COLUMNS: Array<[string, ColumnType]> = [
  ['id', 'BIGINT'],
  ['name', 'VARCHAR'],
  ['time', 'DOUBLE'],
  ['flag', 'BOOLEAN'],
  ['note', 'VARCHAR'],
];
const TABLE = {
  name: 't',
  doc: '',
  columns: COLUMNS.map(([name, type]) => ({ name, type, nullable: true, doc: '' })),
  rows: () => ({}),
} as unknown as AnyTableDef;

/** The expected line: every field by hand. */
function expectedLine(row: Record<string, unknown>): string {
  return `${COLUMNS.map(([name, type]) => {
    const v = row[name];
    if (v === null || v === undefined) return '';
    if (type === 'BOOLEAN') return v ? 'true' : 'false';
    if (type !== 'VARCHAR') return String(v);
    const s = v as string;
    if (s === '') return '""';
    return /[",\r\n]/.test(s) ? `"${s.split('"').join('""')}"` : s;
  }).join(',')}\n`;
}

const NUMBERS = [0, -0, 7, 9, 10, 99, 100, 12345, 999999999, 1000000000, 2147483647, 2147483648, 2 ** 53 - 1, -1, -2147483648, 1.5, 1795308042.123456, 1e21, 1e-7, NaN, Infinity];
const STRINGS = ['v1', 'ko22', '', 'a,b', 'say "hi"', 'two\nlines', 'cr\r', 'µs', 'é,"', '\u{1F600}', 'x'.repeat(256), 'y'.repeat(257), 'z,'.repeat(400)];
/** Longer than the buffer (256 KB). */
const HUGE = 'big,'.repeat(70_000);

function rowsOf(): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 2000; i += 1) {
    rows.push({
      id: i % 7 === 0 ? null : (NUMBERS[i % NUMBERS.length] as number),
      name: i % 11 === 0 ? null : (STRINGS[i % STRINGS.length] as string),
      time: i % 5 === 0 ? null : (NUMBERS[(i * 3) % NUMBERS.length] as number),
      flag: i % 3 === 0 ? null : i % 2 === 0,
      note: i === 1000 ? HUGE : (STRINGS[(i * 7) % STRINGS.length] as string),
    });
  }
  rows.push({ id: 1, name: HUGE, time: 2.5, flag: true, note: HUGE });
  return rows;
}

describe('csvRowWriter', () => {
  it('writes each row as the plain loop does, across buffer flushes', () => {
    const path = join(scratch, 'rows.csv');
    const file = new TextFile(path);
    const write = csvRowWriter(TABLE);
    const rows = rowsOf();
    for (const row of rows) write(row, file);
    const written = file.written;
    file.close();
    const text = readFileSync(path, 'utf8');
    const expected = rows.map(expectedLine).join('');
    expect(text).toBe(expected);
    expect(written).toBe(Buffer.byteLength(expected));
  });

  it('writes numbers as JavaScript prints them: times of 6 decimals or fewer, random doubles, whole numbers', () => {
    const table = { ...TABLE, columns: [{ name: 'x', type: 'DOUBLE', nullable: true, doc: '' }] } as unknown as AnyTableDef;
    const values: number[] = [0.1, 0.000001, 0.0000015, 1e-7, 5.9999999, 2147483647.999999, 2147483648.5, 1795308042.1, 1795308042.000001, -1.5, -2147483647, -2147483648, -0.000001];
    // A fixed generator (no Math.random: the same values every run).
    let seed = 12345;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let i = 0; i < 20_000; i += 1) {
      const whole = next();
      values.push(whole + next() / 2147483648);
      values.push(whole + (next() % 1_000_000) / 1e6);
      values.push(Number(`${whole % 10_000_000}.${String(next() % 1_000_000).padStart(6, '0')}`));
      values.push((next() % 1000) / 1000);
      values.push(whole * 1024);
    }
    const path = join(scratch, 'numbers.csv');
    const file = new TextFile(path);
    const write = csvRowWriter(table);
    for (const x of values) write({ x }, file);
    file.close();
    expect(readFileSync(path, 'utf8')).toBe(values.map((x) => `${String(x)}\n`).join(''));
  });

  it('writes a row of only NULLs as commas', () => {
    const path = join(scratch, 'nulls.csv');
    const file = new TextFile(path);
    csvRowWriter(TABLE)({}, file);
    file.close();
    expect(readFileSync(path, 'utf8')).toBe(',,,,\n');
  });
});
