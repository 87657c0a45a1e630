/**
 * The blocks collector on the shapes older nodes write (hand-made lines, as
 * agoric-sdk's launch-chain.js of 2023 wrote them: run-starts without a
 * phase, no after-commit-stats, -finish entries without `seconds`): when
 * each block's row is handed over, and what it says. The real slogs are in
 * test/chain-view.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { SlogEntry } from '../../scan/entry-types.js';
import { runsText } from './block-text.js';
import { BlocksCollector, type BlockRow } from './blocks.js';

function block(height: number, t: number): SlogEntry[] {
  const b = { blockHeight: height, blockTime: 1700000000 + 6 * height };
  return [
    { type: 'cosmic-swingset-begin-block', ...b, time: t },
    { type: 'cosmic-swingset-end-block-start', ...b, time: t + 0.1 },
    { type: 'cosmic-swingset-run-start', blockHeight: height, runNum: 0, time: t + 0.2 },
    { type: 'cosmic-swingset-run-finish', blockHeight: height, runNum: 0, time: t + 0.3 },
    { type: 'cosmic-swingset-end-block-finish', ...b, time: t + 0.5 },
    { type: 'cosmic-swingset-commit-block-start', ...b, time: t + 0.6 },
    { type: 'cosmic-swingset-commit-block-finish', ...b, time: t + 0.8 },
  ];
}

describe('BlocksCollector on older nodes\' slogs', () => {
  it('without after-commit-stats: the first block ends at the next, the others at their commit', () => {
    const rows: BlockRow[] = [];
    const c = new BlocksCollector({ onBlock: (row) => rows.push(row) });
    const feed = (entries: SlogEntry[]): void => entries.forEach((e) => c.entry(e));
    feed(block(10, 100));
    // Does this slog write after-commit-stats? Not known yet: block 10 waits.
    expect(rows).toEqual([]);
    feed(block(11, 106).slice(0, 1));
    expect(rows.map((r) => r.height)).toEqual([10]);
    feed(block(11, 106).slice(1));
    // Now known: block 11 is handed over at its commit.
    expect(rows.map((r) => r.height)).toEqual([10, 11]);
    expect(rows[1]).toMatchObject({ committed: true, finished: true, runs: { unknown: 1 }, heapUsed: null });
    expect(rows[1]?.seconds).toBeCloseTo(0.4, 9);
    expect(rows[1]?.commitSeconds).toBeCloseTo(0.2, 9);
    expect(runsText(rows[1]?.runs ?? {})).toBe('?');
    c.end();
    expect(rows.length).toBe(2);
  });

  it('a slog that starts inside a block: its entries before the next begin-block make no row', () => {
    const rows: BlockRow[] = [];
    const c = new BlocksCollector({ onBlock: (row) => rows.push(row) });
    for (const e of [...block(10, 100).slice(3), ...block(11, 106)]) c.entry(e);
    c.end();
    expect(rows.map((r) => r.height)).toEqual([11]);
  });
});
