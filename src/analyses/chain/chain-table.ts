/**
 * Tables that stream: the rows of `slogulate blocks` and `runs` are written
 * as each block ends, so the text cannot wait for the widest cell to align
 * its columns. Each column has a set width (wide enough for a busy chain's
 * figures); a cell wider than that pushes the rest of its line right, never
 * truncated. The last column (inbound actions, a run's trigger) is free.
 *
 * Formats: `text` (columns two spaces apart, as the other tables), `markdown`
 * (a GitHub pipe table: its header, then a line per row) and `csv` (RFC 4180:
 * a header line, then the same cells, quoted where needed).
 */
import { markdownEscape, type Align } from '../common/table.js';

export type RowsFormat = 'text' | 'markdown' | 'csv';
export const ROWS_FORMATS: readonly RowsFormat[] = ['text', 'markdown', 'csv'];

/** A column: its header, alignment, least width (text), and how a row fills it. */
export interface CellColumn<R> {
  header: string;
  align: Align;
  width: number;
  cell: (row: R) => string;
}

const width = (text: string): number => [...text].length;

function pad(text: string, size: number, align: Align): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return align === 'right' ? fill + text : text + fill;
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export class RowWriter<R> {
  private readonly widths: number[];

  constructor(
    private readonly columns: ReadonlyArray<CellColumn<R>>,
    private readonly format: RowsFormat,
  ) {
    this.widths = columns.map((c) => Math.max(c.width, width(c.header)));
  }

  /** The header: its line(s), each ending with a newline. */
  head(): string {
    const headers = this.columns.map((c) => c.header);
    switch (this.format) {
      case 'text':
        return `${this.textLine(headers)}\n`;
      case 'markdown':
        return `${this.markdownLine(headers)}\n| ${this.columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |\n`;
      case 'csv':
        return `${headers.map(csvCell).join(',')}\r\n`;
    }
  }

  /** One row's line, ending with a newline. */
  line(row: R): string {
    const cells = this.columns.map((c) => c.cell(row));
    switch (this.format) {
      case 'text':
        return `${this.textLine(cells)}\n`;
      case 'markdown':
        return `${this.markdownLine(cells)}\n`;
      case 'csv':
        return `${cells.map(csvCell).join(',')}\r\n`;
    }
  }

  private textLine(cells: string[]): string {
    const last = cells.length - 1;
    return cells
      .map((cell, i) => (i === last ? cell : pad(cell, this.widths[i] as number, (this.columns[i] as CellColumn<R>).align)))
      .join('  ')
      .trimEnd();
  }

  private markdownLine(cells: string[]): string {
    return `| ${cells.map(markdownEscape).join(' | ')} |`;
  }
}

/** Seconds since the epoch as ISO 8601 UTC, without a fraction when there is none: `2024-06-10T09:16:46Z`. */
export function isoSeconds(seconds: number): string {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return String(seconds);
  const iso = d.toISOString();
  return Number.isInteger(seconds) ? iso.replace('.000Z', 'Z') : iso;
}

/** Seconds with three decimals (milliseconds). */
export function seconds3(seconds: number): string {
  return seconds.toFixed(3);
}
