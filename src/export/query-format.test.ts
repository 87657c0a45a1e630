/**
 * `query`'s output formats on a result with every kind of cell: numbers
 * (BIGINT and HUGEINT come from DuckDB as strings), NULL, text that needs
 * quoting, a nested value; and a result without rows. The text table is
 * aligned over every chunk of rows, and the same when its rows are held in
 * a spill file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowWriter, type JsonValue, type QueryFormat, type ResultColumn, type RowWriterOptions } from './query-format.js';

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

  it('text: aligned over every chunk, a wider cell in a later one included', () => {
    const columns: ResultColumn[] = [
      { name: 'vatName', type: 'VARCHAR' },
      { name: 'count_star()', type: 'BIGINT' },
    ];
    let text = '';
    const out = rowWriter('text', columns, (t) => (text += t));
    out.rows([['vattp', '4']]);
    out.rows([['bootstrap', '75'], ['vatAdmin', '11']]);
    out.rows([]);
    expect(out.end()).toBeUndefined();
    expect(text).toBe(['vatName    count_star()', 'vattp                 4', 'bootstrap            75', 'vatAdmin             11', ''].join('\n'));
  });

  it('text: rows held in a spill file print as rows held in memory (multi-byte cells, line breaks, across read chunks)', async () => {
    const columns: ResultColumn[] = [
      { name: 'name', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
      { name: 'share', type: 'DOUBLE' },
    ];
    // Over 2 MB of spilled rows: the file is read back in 1 MB chunks, cut inside rows and characters.
    const chunks: JsonValue[][][] = [];
    for (let c = 0; c < 20; c += 1) {
      const rows: JsonValue[][] = [];
      for (let i = 0; i < 2048; i += 1) {
        const k = c * 2048 + i;
        rows.push([k % 7 === 0 ? null : `vät😀${'é'.repeat(k % 13)}${k % 101 === 0 ? '\r\nx' : ''}`, String(k), k % 5 === 0 ? null : k / 8]);
      }
      chunks.push(rows);
    }
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-query-format-'));
    try {
      const print = async (options: RowWriterOptions): Promise<string> => {
        let text = '';
        let waits = 0;
        const out = rowWriter('text', columns, (t) => (text += t), { ...options, drained: () => Promise.resolve(void (waits += 1)) });
        for (const rows of chunks) out.rows(rows);
        // Nothing is written before the last row is in: the widths are not known.
        expect(text).toBe('');
        await out.end();
        // Read back from the file: the reader is waited for between chunks.
        if (options.spillFile !== undefined && existsSync(options.spillFile)) expect(waits).toBeGreaterThan(1);
        return text;
      };
      const held = await print({});
      const lines = held.split('\n');
      expect(lines.length).toBe(20 * 2048 + 2);
      expect(new Set(lines.slice(0, -1).map((l) => [...l].length)).size).toBe(1);
      expect(lines[1]).toBe('NULL                    0      NULL');
      const spillFile = join(dir, 'rows.jsonl');
      expect(await print({ spillFile, holdChars: 0 })).toBe(held);
      expect(existsSync(spillFile)).toBe(true);
      const later = join(dir, 'later.jsonl');
      expect(await print({ spillFile: later, holdChars: 100_000 })).toBe(held);
      // Under the bound, no file.
      expect(await print({ spillFile: join(dir, 'none.jsonl') })).toBe(held);
      expect(existsSync(join(dir, 'none.jsonl'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
