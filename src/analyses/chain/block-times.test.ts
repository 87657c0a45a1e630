/**
 * A block's times beyond SwingSet's (block-times.ts) on hand-made lines: the
 * edge cases the real slogs (test/chain-split.test.ts) do not all show: a
 * gap in heights, a height run twice, a block that ends before its
 * end-block-finish, an interval of 0, and trailing averages over a window
 * whose blocks lack some figures.
 */
import { describe, expect, it } from 'vitest';
import type { SlogEntry } from '../../scan/entry-types.js';
import { TrailingAverages } from './block-times.js';
import { BlocksCollector, type BlockRow } from './blocks.js';

/** A block's lines: begin-block at `t`, end-block-start 0.1 s on, end-block-finish `busy` s on, commit, after-commit-stats. */
function block(height: number, t: number, busy = 0.5): SlogEntry[] {
  const b = { blockHeight: height, blockTime: 1700000000 + 6 * height };
  return [
    { type: 'cosmic-swingset-begin-block', ...b, time: t },
    { type: 'cosmic-swingset-end-block-start', ...b, time: t + 0.1 },
    { type: 'cosmic-swingset-end-block-finish', ...b, time: t + busy },
    { type: 'cosmic-swingset-commit-block-start', ...b, time: t + busy + 0.1 },
    { type: 'cosmic-swingset-commit-block-finish', ...b, time: t + busy + 0.2 },
    { type: 'cosmic-swingset-after-commit-stats', ...b, time: t + busy + 0.3 },
  ];
}

function rowsOf(entries: SlogEntry[], average?: number): BlockRow[] {
  const rows: BlockRow[] = [];
  const c = new BlocksCollector({ onBlock: (row) => rows.push(row), ...(average === undefined ? {} : { average }) });
  for (const e of entries) c.entry(e);
  c.end();
  return rows;
}

describe('a block\'s cosmos time, interval and processing share', () => {
  it('cosmos: begin-block to end-block-start; interval: from height - 1\'s end-block-finish; share: begin-block to end-block-finish over it', () => {
    const rows = rowsOf([...block(10, 100), ...block(11, 106, 2), ...block(13, 118)]);
    expect(rows.map((r) => r.height)).toEqual([10, 11, 13]);
    rows.forEach((r) => expect(r.cosmosSeconds).toBeCloseTo(0.1, 9));
    // Block 10: no block 9 in the slog.
    expect([rows[0]?.intervalSeconds, rows[0]?.processingShare]).toEqual([null, null]);
    // Block 11: from 100.5 to 108: 7.5 s, of it 2 s processing.
    expect(rows[1]?.intervalSeconds).toBeCloseTo(7.5, 9);
    expect(rows[1]?.processingShare).toBeCloseTo(2 / 7.5, 9);
    // Block 13: height 12 is missing: no interval (the script would repeat block 11's figures).
    expect([rows[2]?.intervalSeconds, rows[2]?.processingShare]).toEqual([null, null]);
  });

  it('a height run twice (a restart): the second execution\'s interval is from height - 1, and the next height\'s from the second', () => {
    const restart: SlogEntry = { type: 'kernel-init-start', time: 107 };
    const first = block(11, 106).slice(0, 3);
    const rows = rowsOf([{ type: 'kernel-init-start', time: 99 } as SlogEntry, ...block(10, 100), ...first, restart, { type: 'kernel-init-finish', time: 108 } as SlogEntry, ...block(11, 110), ...block(12, 116)]);
    expect(rows.map((r) => [r.height, r.abandoned, r.again])).toEqual([
      [10, false, false],
      [11, true, false],
      [11, false, true],
      [12, false, false],
    ]);
    expect(rows[1]?.intervalSeconds).toBeCloseTo(106.5 - 100.5, 9);
    expect(rows[2]?.intervalSeconds).toBeCloseTo(110.5 - 100.5, 9);
    expect(rows[3]?.intervalSeconds).toBeCloseTo(116.5 - 110.5, 9);
  });

  it('a block the slog ends inside, before its end-block-finish, has cosmos time and no interval; an interval of 0 has no share', () => {
    const cut = rowsOf([...block(10, 100), ...block(11, 106).slice(0, 2)]);
    expect(cut[1]).toMatchObject({ finished: false, intervalSeconds: null, processingShare: null });
    expect(cut[1]?.cosmosSeconds).toBeCloseTo(0.1, 9);
    // Two end-block-finishes at the same instant (a damaged clock): an interval of 0, no share.
    const same = block(11, 100);
    const rows = rowsOf([...block(10, 100), ...same]);
    expect(rows[1]?.intervalSeconds).toBe(0);
    expect(rows[1]?.processingShare).toBeNull();
  });
});

describe('trailing averages', () => {
  it('over the last N blocks that began and finished, each figure over the blocks that have it', () => {
    const rows = rowsOf([...block(10, 100), ...block(11, 106, 1), ...block(12, 112, 2), ...block(13, 118).slice(0, 2)], 2);
    const avg = rows.map((r) => r.averages);
    expect(avg[0]).toMatchObject({ blocks: 1, cranks: 0, intervalSeconds: null, processingShare: null });
    // end-block: end-block-start to -finish (these lines have no `seconds`: their times).
    expect(avg[0]?.seconds).toBeCloseTo(0.4, 9);
    expect(avg[0]?.cosmosSeconds).toBeCloseTo(0.1, 9);
    // Block 11: the window is 10 and 11; only 11 has an interval.
    expect(avg[1]?.blocks).toBe(2);
    expect(avg[1]?.intervalSeconds).toBeCloseTo(106 + 1 - 100.5, 9);
    // Block 12: 11 and 12 (10 left the window).
    // 11: 100.5 to 107, of it 1 s processing; 12: 107 to 114, of it 2 s.
    expect(avg[2]?.intervalSeconds).toBeCloseTo((6.5 + 7) / 2, 9);
    expect(avg[2]?.processingShare).toBeCloseTo((1 / 6.5 + 2 / 7) / 2, 9);
    // Block 13 never finished: not in the window, which stays 11 and 12.
    expect(avg[3]).toEqual(avg[2]);
  });

  it('takes whole numbers above 0', () => {
    expect(() => new TrailingAverages(0)).toThrow(RangeError);
    expect(() => new TrailingAverages(1.5)).toThrow(RangeError);
    const t = new TrailingAverages(1);
    t.add({ cranks: 3, seconds: 1, cosmosSeconds: null, processingShare: 0.5, intervalSeconds: 2 });
    t.add({ cranks: 5, seconds: null, cosmosSeconds: null, processingShare: null, intervalSeconds: null });
    expect(t.averages()).toEqual({ blocks: 1, cranks: 5, seconds: null, cosmosSeconds: null, processingShare: null, intervalSeconds: null });
  });
});
