import { describe, expect, it } from 'vitest';
import { limitRows, MAX_TABLE_ROWS, MAX_TEXT_LINES, pointLabel, truncateText } from './report-data.js';

describe('report data helpers', () => {
  it('labels a point by the cranks or buckets it covers', () => {
    const p = (from: string, to: string): Parameters<typeof pointLabel>[0] => ({ x: 0, from, to, buckets: 2, columns: [] });
    expect(pointLabel(p('cranks 0-249', 'cranks 0-249'))).toBe('cranks 0-249');
    expect(pointLabel(p('cranks 0-249', 'cranks 750-999'))).toBe('cranks 0-999');
    expect(pointLabel(p('crank 5', 'cranks 6-9'))).toBe('cranks 5-9');
    expect(pointLabel(p('"demo" round 1: cranks 10-20', '"demo" round 4: cranks 70-90'))).toBe('"demo" round 1: cranks 10-20 ... "demo" round 4: cranks 70-90');
    expect(pointLabel(p('block 1 (bootstrap): cranks 0-128', 'block 2: no cranks'))).toBe('blocks 1-2');
    expect(pointLabel(p('block 84: no cranks', 'block 91 (run again after a restart): cranks 300-340'))).toBe('blocks 84-91');
  });

  it('keeps at most MAX_TEXT_LINES lines of a crank, saying how many more there are', () => {
    const short = `${Array.from({ length: MAX_TEXT_LINES }, (_, i) => `line ${i}`).join('\n')}\n`;
    expect(truncateText(short)).toBe(short);
    const long = `${Array.from({ length: MAX_TEXT_LINES + 7 }, (_, i) => `line ${i}`).join('\n')}\n`;
    const cut = truncateText(long);
    expect(cut.split('\n').slice(0, MAX_TEXT_LINES)).toEqual(long.split('\n').slice(0, MAX_TEXT_LINES));
    expect(cut.split('\n')[MAX_TEXT_LINES]).toBe('... 7 more lines (slogulate --nonoise --novatstore --timing shows them)');
  });

  it('keeps at most MAX_TABLE_ROWS rows of a table, and its totals', () => {
    const rows = Array.from({ length: MAX_TABLE_ROWS + 3 }, (_, i) => [`r${i}`]);
    const table = limitRows({ title: 't', columns: [{ header: 'h', align: 'left' }], rows: [...rows, ['all']] }, 'id', 1);
    expect(table.rows.length).toBe(MAX_TABLE_ROWS + 1);
    expect(table.rows.at(-1)).toEqual(['all']);
    expect(table.note).toBe(`${MAX_TABLE_ROWS} of ${MAX_TABLE_ROWS + 3} rows shown (the largest first); slogulate stats has them all`);
    expect(limitRows({ title: 't', columns: [], rows: [['a'], ['all']] }, 'id', 1).rows).toEqual([['a'], ['all']]);
  });
});
