/**
 * Tables as plain text (columns aligned for a terminal, nothing but spaces)
 * or as GitHub markdown (for pasting into a pull request).
 */

export type Align = 'left' | 'right';

export interface Column {
  header: string;
  align: Align;
}

export interface Table {
  title: string;
  columns: Column[];
  /** One string per column. */
  rows: string[][];
  /** A line printed under the table (e.g. what a column means). */
  note?: string;
}

const width = (text: string): number => [...text].length;

function pad(text: string, size: number, align: Align): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** `title:` then the header and rows, columns two spaces apart; no trailing spaces. */
export function tableText(table: Table): string {
  const { columns, rows } = table;
  const widths = columns.map((c, i) => Math.max(width(c.header), ...rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: string[]): string =>
    columns
      .map((c, i) => pad(cells[i] ?? '', widths[i] as number, c.align))
      .join('  ')
      .trimEnd();
  const out = [`${table.title}:`, line(columns.map((c) => c.header)), ...rows.map(line)];
  if (table.note) out.push(table.note);
  return out.join('\n');
}

/** Backslash-escapes what markdown would otherwise read as markup (`<funcall>`, `|`, `*`, `_`). */
export function markdownEscape(text: string): string {
  return text.replace(/[\\`*_<>|[\]#]/g, (c) => `\\${c}`);
}

/** `### title`, a blank line, then a pipe table (numbers right-aligned). */
export function tableMarkdown(table: Table): string {
  const { columns, rows } = table;
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  const out = [
    `### ${markdownEscape(table.title)}`,
    '',
    line(columns.map((c) => markdownEscape(c.header))),
    line(columns.map((c) => (c.align === 'right' ? '---:' : '---'))),
    ...rows.map((r) => line(columns.map((_, i) => markdownEscape(r[i] ?? '')))),
  ];
  if (table.note) out.push('', markdownEscape(table.note));
  return out.join('\n');
}
