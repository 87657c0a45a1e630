/**
 * `slogulate query`'s output: a query's rows as an aligned text table, CSV,
 * a markdown table, or JSON (an array of objects), written chunk by chunk
 * as DuckDB hands them over. The text table takes its column widths from
 * the first chunk (2048 rows): a longer value later only pushes its line
 * out of line, and the output stays a stream.
 */
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
  end(): void;
}

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

export function rowWriter(format: QueryFormat, columns: readonly ResultColumn[], write: (text: string) => void): RowWriter {
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
    case 'text': {
      const right = columns.map(isNumeric);
      let widths: number[] | undefined;
      const line = (cells: readonly string[]): string =>
        cells
          .map((cell, i) => pad(cell, (widths as number[])[i] as number, right[i] as boolean))
          .join('  ')
          .trimEnd();
      const start = (rows: readonly string[][]): void => {
        widths = columns.map((c, i) => Math.max([...c.name].length, ...rows.map((r) => [...(r[i] as string)].length)));
        write(`${line(columns.map((c) => c.name))}\n`);
      };
      return {
        rows(rows) {
          const cells = rows.map((row) => row.map((v) => cellText(v, 'NULL').replace(/\r?\n/g, ' ')));
          if (!widths) start(cells);
          let text = '';
          for (const row of cells) text += `${line(row)}\n`;
          write(text);
        },
        end() {
          if (!widths) start([]);
        },
      };
    }
  }
}
