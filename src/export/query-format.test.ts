/**
 * `query`'s output formats on a result with every kind of cell: numbers
 * (BIGINT and HUGEINT come from DuckDB as strings), NULL, text that needs
 * quoting, a nested value; and a result without rows.
 */
import { describe, expect, it } from 'vitest';
import { rowWriter, type JsonValue, type QueryFormat, type ResultColumn } from './query-format.js';

const COLUMNS: ResultColumn[] = [
  { name: 'vatID', type: 'VARCHAR' },
  { name: 'n', type: 'BIGINT' },
  { name: 'total', type: 'HUGEINT' },
  { name: 'share', type: 'DOUBLE' },
  { name: 'note', type: 'VARCHAR' },
  { name: 'list', type: 'INTEGER[]' },
];
const ROWS: JsonValue[][] = [
  ['v1', '12', '123456789012345678901', 0.25, 'a, "b"', [1, 2]],
  ['v10', '3', '7', null, null, []],
];

function print(format: QueryFormat, rows: JsonValue[][][] = [ROWS]): string {
  let text = '';
  const out = rowWriter(format, COLUMNS, (t) => (text += t));
  for (const chunk of rows) out.rows(chunk);
  out.end();
  return text;
}

describe('query output', () => {
  it('text: aligned, numbers right, NULL', () => {
    expect(print('text')).toBe(
      [
        'vatID   n                  total  share  note    list',
        'v1     12  123456789012345678901   0.25  a, "b"  [1,2]',
        'v10     3                      7   NULL  NULL    []',
        '',
      ].join('\n'),
    );
    expect(print('text', [])).toBe('vatID  n  total  share  note  list\n');
  });

  it('csv: quoted where needed, NULL empty', () => {
    expect(print('csv')).toBe('vatID,n,total,share,note,list\nv1,12,123456789012345678901,0.25,"a, ""b""","[1,2]"\nv10,3,7,,,[]\n');
  });

  it('markdown: numbers right-aligned', () => {
    expect(print('markdown')).toBe(
      '| vatID | n | total | share | note | list |\n| --- | ---: | ---: | ---: | --- | --- |\n| v1 | 12 | 123456789012345678901 | 0.25 | a, "b" | [1,2] |\n| v10 | 3 | 7 | NULL | NULL | [] |\n',
    );
  });

  it('json: whole numbers as numbers where exact, else strings; chunks make one array', () => {
    const text = print('json', [[ROWS[0] as JsonValue[]], [ROWS[1] as JsonValue[]]]);
    expect(JSON.parse(text)).toEqual([
      { vatID: 'v1', n: 12, total: '123456789012345678901', share: 0.25, note: 'a, "b"', list: [1, 2] },
      { vatID: 'v10', n: 3, total: 7, share: null, note: null, list: [] },
    ]);
    expect(print('json', [])).toBe('[]\n');
  });
});
