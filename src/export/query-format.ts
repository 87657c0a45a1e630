/**
 * `slogulate query`'s output: a query's rows as an aligned text table, CSV,
 * a markdown table, or JSON (an array of objects). CSV, markdown and JSON
 * are written chunk by chunk as DuckDB hands them over. The text table is
 * aligned over all its rows, so it is written once the last row is in: its
 * rows are held as text, up to HOLD_CHARS, and beyond that (given a spill
 * file) appended to the file and read back at the end, so that memory stays
 * bounded however long the result.
 */
import { appendFileSync, closeSync, openSync, readSync } from 'node:fs';
import { csvString } from './csv-text.js';

export type QueryFormat = 'text' | 'csv' | 'markdown' | 'json';

export const QUERY_FORMATS: readonly QueryFormat[] = ['text', 'csv', 'markdown', 'json'];

/** A value as DuckDB's JSON conversion gives it (BIGINT, HUGEINT, DECIMAL as strings). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ResultColumn {
  name: string;
  /** DuckDB's type name: `BIGINT`, `DOUBLE`, `DECIMAL(18,3)`, `VARCHAR`... */
  type: string;
}

export interface RowWriter {
  rows(rows: readonly JsonValue[][]): void;
  /** Writes what is left; a promise when it waits for the reader (a spilled text table). */
  end(): void | Promise<void>;
}

export interface RowWriterOptions {
  /** The text table: a file (not there yet) to hold its rows in beyond `holdChars`; without one, every row is held in memory. */
  spillFile?: string;
  /** The text table: how much cell text is held in memory before the rows go to `spillFile` (default HOLD_CHARS). */
  holdChars?: number;
  /** A wait for the reader (backpressure) while a spilled text table is written. */
  drained?: () => Promise<void>;
}

/** The text table's rows held in memory, in characters of cell text (each cell counted 16 more for its string and place). */
export const HOLD_CHARS = 8 << 20;

/** How many bytes of a spill file are read back at a time, and of text written between waits for the reader. */
const SPILL_CHUNK = 1 << 20;

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL(\(\d+,\d+\))?)$/;
const INTEGER = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/;

export const isNumeric = (column: ResultColumn): boolean => NUMERIC.test(column.type);

/** A cell as text: NULL (text, markdown) or empty (csv) for null; nested values as JSON. */
function cellText(value: JsonValue, nullText: string): string {
  if (value === null) return nullText;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** JSON output: a whole number exactly as a number where it fits one (BIGINT, HUGEINT come as strings), a DECIMAL as a number. */
function jsonCell(value: JsonValue, column: ResultColumn): JsonValue {
  if (typeof value !== 'string' || !isNumeric(column)) return value;
  const n = Number(value);
  if (INTEGER.test(column.type)) return Number.isSafeInteger(n) ? n : value;
  return Number.isFinite(n) ? n : value;
}

const pad = (text: string, width: number, right: boolean): string => {
  const fill = ' '.repeat(Math.max(0, width - [...text].length));
  return right ? fill + text : text + fill;
};

/**
 * Aligned text: the widths are the widest cell of each column over every
 * row (and its name); numbers right-aligned, the rest left-aligned.
 */
function textWriter(columns: readonly ResultColumn[], write: (text: string) => void, options: RowWriterOptions): RowWriter {
  const right = columns.map(isNumeric);
  const widths = columns.map((c) => [...c.name].length);
  const holdChars = options.holdChars ?? HOLD_CHARS;
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => pad(cell, widths[i] as number, right[i] as boolean))
      .join('  ')
      .trimEnd();
  let held: string[][] = [];
  let heldChars = 0;
  let spilled = false;
  const spill = (rows: readonly string[][]): void => {
    // One JSON array of cells a line: JSON escapes every line break inside a cell.
    let text = '';
    for (const row of rows) text += `${JSON.stringify(row)}\n`;
    appendFileSync(options.spillFile as string, text);
  };
  const writeHeld = (rows: readonly string[][]): void => {
    let text = '';
    for (const row of rows) {
      text += `${line(row)}\n`;
      if (text.length >= SPILL_CHUNK) {
        write(text);
        text = '';
      }
    }
    if (text) write(text);
  };
  const writeSpilled = async (file: string): Promise<void> => {
    const fd = openSync(file, 'r');
    try {
      let pending = Buffer.alloc(0);
      for (;;) {
        const chunk = Buffer.alloc(SPILL_CHUNK);
        const n = readSync(fd, chunk, 0, SPILL_CHUNK, null);
        const bytes = pending.length ? Buffer.concat([pending, chunk.subarray(0, n)]) : chunk.subarray(0, n);
        // A line is a JSON array of cells: no byte of a multi-byte character is a newline, so the bytes are cut at their last one.
        const last = n === 0 ? bytes.length : bytes.lastIndexOf(10) + 1;
        pending = bytes.subarray(last);
        let text = '';
        for (const json of bytes.toString('utf8', 0, last).split('\n')) if (json) text += `${line(JSON.parse(json) as string[])}\n`;
        if (text) {
          write(text);
          await options.drained?.();
        }
        if (n === 0) break;
      }
    } finally {
      closeSync(fd);
    }
  };
  return {
    rows(rows) {
      const cells = rows.map((row) => row.map((v) => cellText(v, 'NULL').replace(/\r?\n/g, ' ')));
      for (const row of cells) {
        row.forEach((cell, i) => {
          const width = [...cell].length;
          if (width > (widths[i] as number)) widths[i] = width;
          heldChars += cell.length + 16;
        });
      }
      if (spilled) {
        spill(cells);
        return;
      }
      held.push(...cells);
      if (options.spillFile !== undefined && heldChars > holdChars) {
        spill(held);
        held = [];
        spilled = true;
      }
    },
    end() {
      write(`${line(columns.map((c) => c.name))}\n`);
      if (spilled) return writeSpilled(options.spillFile as string);
      writeHeld(held);
      held = [];
      return undefined;
    },
  };
}

export function rowWriter(format: QueryFormat, columns: readonly ResultColumn[], write: (text: string) => void, options: RowWriterOptions = {}): RowWriter {
  switch (format) {
    case 'csv':
      write(`${columns.map((c) => csvString(c.name)).join(',')}\n`);
      return {
        rows(rows) {
          let text = '';
          for (const row of rows) text += `${row.map((v) => (v === null ? '' : csvString(cellText(v, '')))).join(',')}\n`;
          write(text);
        },
        end: () => undefined,
      };
    case 'markdown': {
      const escape = (text: string): string => text.replace(/[\\|]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
      write(`| ${columns.map((c) => escape(c.name)).join(' | ')} |\n`);
      write(`| ${columns.map((c) => (isNumeric(c) ? '---:' : '---')).join(' | ')} |\n`);
      return {
        rows(rows) {
          let text = '';
          for (const row of rows) text += `| ${row.map((v) => escape(cellText(v, 'NULL'))).join(' | ')} |\n`;
          write(text);
        },
        end: () => undefined,
      };
    }
    case 'json': {
      let first = true;
      write('[');
      return {
        rows(rows) {
          let text = '';
          for (const row of rows) {
            const object: Record<string, JsonValue> = {};
            columns.forEach((c, i) => {
              object[c.name] = jsonCell(row[i] ?? null, c);
            });
            text += `${first ? '\n' : ',\n'}  ${JSON.stringify(object)}`;
            first = false;
          }
          write(text);
        },
        end: () => write(first ? ']\n' : '\n]\n'),
      };
    }
    case 'text':
      return textWriter(columns, write, options);
  }
}
