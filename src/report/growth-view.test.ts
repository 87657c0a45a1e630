/**
 * The growth chart's edges (hand-made growth results; the real slogs'
 * charts are checked by test/report-growth.test.ts): more periods than a
 * chart has points (neighbours merged, each point the mean of its blocks,
 * the band their minimum to maximum), block heights that do not grow
 * (periods counted instead), two runs whose figures come from different
 * places, and a run without periods (no line of its own).
 */
import { describe, expect, it } from 'vitest';
import type { GrowthResult } from '../analyses/growth/growth-result.js';
import type { PeriodRow } from '../analyses/growth/periods.js';
import { growthChart, growthView } from './growth-view.js';
import { MAX_POINTS } from './series.js';

/** A run of blocks at these heights, its c-list count at each block's end `entries(i)`; kernel-stats gauges when `stats`. */
function run(heights: number[], entries: (i: number) => number, stats: boolean): GrowthResult {
  const periods: PeriodRow[] = heights.map((h, i) => {
    const figures = { clistEntries: entries(i), kernelObjects: 3, kernelPromises: 0, kpUnresolved: 0 };
    return {
      label: `block ${h}`,
      cranks: 1,
      firstCrank: i,
      lastCrank: i,
      start: { kernel: {}, kernelStats: {} },
      end: { kernel: figures, kernelStats: stats ? { ...figures, clistEntries: entries(i) + 100 } : {} },
      finished: true,
    };
  });
  const figure = { figure: 'clistEntries', start: 0, end: 0, change: 0, perPeriod: 0 };
  return {
    version: 1,
    slog: 'x.slog',
    cranks: heights.length,
    firstCrank: 0,
    lastCrank: heights.length - 1,
    unit: heights.length ? 'block' : null,
    periods,
    kernel: { source: stats ? 'kernel-stats' : 'c-list model', kernelStatsEntries: stats ? heights.length : 0, kernelStats: stats ? [figure] : [], model: [figure] },
    vats: [],
    growing: [],
    unresolved: { total: 0, byDecider: [], byMethod: [] },
  };
}

describe('growthChart', () => {
  it('merges neighbouring periods past MAX_POINTS: the mean drawn, the minimum to maximum as a band', () => {
    const n = 2 * MAX_POINTS + 10;
    const heights = Array.from({ length: n }, (_, i) => 100 + i);
    const chart = growthChart([{ role: 'slog', growth: run(heights, (i) => i, false) }]);
    expect(chart?.axis).toBe('block');
    // Full at MAX_POINTS, halved, then two blocks a point: n / 2 points and the last one's.
    expect(chart?.x.length).toBeLessThanOrEqual(MAX_POINTS);
    const line = chart?.series.find((s) => s.label === 'clistEntries');
    expect(chart?.x[0]).toBe(100);
    // The first point covers blocks 100 and 101 at least: entries 0 and 1.
    expect(line?.min?.[0]).toBe(0);
    expect(line?.max?.[0]).toBeGreaterThanOrEqual(1);
    expect(line?.mean[0]).toBe(((line?.min?.[0] as number) + (line?.max?.[0] as number)) / 2);
    expect(chart?.labels[0]).toMatch(/^block 100 \.\.\. block 10\d$/);
  });

  it('counts periods when the heights do not grow (a block begun twice)', () => {
    const chart = growthChart([{ role: 'slog', growth: run([5, 6, 6, 7], (i) => i, false) }]);
    expect(chart?.axis).toBe('period');
    expect(chart?.x).toEqual([1, 2, 3, 4]);
    expect(chart?.labels).toEqual(['block 5', 'block 6', 'block 6', 'block 7']);
  });

  it('two runs: each its own source (kernel-stats, or the c-lists), the base first; a run without periods draws nothing', () => {
    const base = run([1, 2, 3], (i) => i, true);
    const head = run([2, 3, 4], (i) => 10 * i, false);
    const chart = growthChart([
      { role: 'base', growth: base },
      { role: 'head', growth: head },
    ]);
    expect(chart?.x).toEqual([1, 2, 3, 4]);
    const line = (label: string): Array<number | null> | undefined => chart?.series.find((s) => s.label === label)?.mean;
    expect(line('base clistEntries')).toEqual([100, 101, 102, null]);
    expect(line('head clistEntries')).toEqual([null, 0, 10, 20]);
    expect(chart?.series.filter((s) => s.key === 'clistEntries').map((s) => s.side)).toEqual([0, 1]);
    expect(chart?.note).toBe("Base: from the kernel's own kernel-stats entries; head: counted from the c-lists (no kernel-stats entries). Each vat's c-list and heap: the tables below, and slogulate growth.");
    const alone = growthChart([
      { role: 'base', growth: base },
      { role: 'head', growth: run([], () => 0, false) },
    ]);
    expect(alone?.series.every((s) => s.side === 0)).toBe(true);
    expect(growthChart([{ role: 'slog', growth: run([], () => 0, false) }])).toBeUndefined();
    expect(growthView(run([], () => 0, false), 'slog')).toMatchObject({ hasPeriods: false, growing: [] });
  });
});
