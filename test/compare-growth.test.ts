/**
 * `compare` gates on growth: `growth.clistEntries`, `growth.kernelObjects`,
 * `growth.kernelPromises`, `growth.kpUnresolved` (the kernel's slope per
 * round or block) in the Growth section and in `--fail-on`, with `max=N`
 * (the head's own value at most N). The figures are checked against what
 * `slogulate growth --json` prints for the same slog, and against plain
 * loops over the slog's lines: the kernel's own kernel-stats gauges at
 * each committed block's end (chain-A), and the slope added by c-list
 * imports written into later rounds by hand (a-local-3 with round marks).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareJson, CompareRow } from '../src/analyses/compare/compare.js';
import { ROOT, slogPath, withRoundMarks } from './helpers.js';
import { runInProcess } from './run-main.js';
import { gaugesAtBlockEnds, KERNEL_FIGURES, slope, withImports } from './growth-oracle.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const FIGURES = KERNEL_FIGURES;
const ROUNDS: Array<[number, number]> = [
  [20, 80],
  [81, 160],
  [161, 240],
];

const dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));



async function compareJson(args: string[]): Promise<{ json: CompareJson; status: number | null }> {
  const r = await runInProcess(['compare', '--format', 'json', ...args]);
  return { json: JSON.parse(r.stdout) as CompareJson, status: r.status };
}

const growthRows = (json: CompareJson): CompareRow[] => json.sections.find((s) => s.id === 'growth')?.rows ?? [];

/** The kernel row's slope per figure as `slogulate growth --json` prints it (kernel-stats where the slog has them). */
async function growthSlopes(path: string): Promise<Record<string, number>> {
  const r = await runInProcess(['growth', '--json', path]);
  expect(r.status).toBe(0);
  const g = JSON.parse(r.stdout) as { kernel: { kernelStats: Array<{ figure: string; perPeriod: number }>; model: Array<{ figure: string; perPeriod: number }> } };
  const rows = g.kernel.kernelStats.length ? g.kernel.kernelStats : g.kernel.model;
  return Object.fromEntries(rows.map((c) => [c.figure, c.perPeriod]));
}

describe('compare: growth per block (chain-A, the kernel\'s kernel-stats)', () => {
  it('each figure is the slope of the kernel\'s gauges at block ends; max=0 fails exactly where that slope is above 0', async () => {
    const plain = gaugesAtBlockEnds(CHAIN_A);
    const fromGrowth = await growthSlopes(CHAIN_A);
    const gates = FIGURES.map((f) => `growth.${f}:max=0`);
    const { json, status } = await compareJson([...gates.flatMap((g) => ['--fail-on', g]), CHAIN_A, CHAIN_A]);
    const rows = growthRows(json);
    expect(rows.map((r) => r.key)).toEqual(FIGURES.map((f) => `growth.${f}`));
    for (const f of FIGURES) {
      const row = rows.find((r) => r.key === `growth.${f}`) as CompareRow;
      const ys = plain[f] as number[];
      expect(ys.length, f).toBe(170);
      expect(row.base, f).toBeCloseTo(slope(ys), 12);
      expect(row.head, f).toBe(row.base);
      expect(row.base, f).toBe(fromGrowth[f]);
    }
    // The c-list rose and fell back within blocks (27 at both ends): its slope is above 0; kernelObjects' is 0.
    expect(slope(plain.clistEntries as number[])).toBeGreaterThan(0);
    expect(slope(plain.kernelObjects as number[])).toBe(0);
    for (const t of json.thresholds) {
      const f = t.metric.replace('growth.', '');
      expect(t.exceeded, t.expression).toBe(slope(plain[f] as number[]) > 0);
      expect(t.limit).toBe('max=0');
    }
    expect(status).toBe(json.thresholds.some((t) => t.exceeded) ? 1 : 0);
  });
});

describe('compare: growth per benchmark round (a-local-3 with round marks)', () => {
  let base: string;
  let head: string;
  beforeAll(() => {
    const marked = withRoundMarks(readFileSync(slogPath('a-local-3'), 'utf8'), ROUNDS);
    base = join(dir, 'base.slog');
    writeFileSync(base, marked);
    // 5 imports in round 2 (crank 120), 10 in round 3 (crank 200): the c-list total at the round boundaries grows by 0, 0, 5, 15 more.
    head = join(dir, 'head.slog');
    writeFileSync(head, withImports(marked, new Map([[120, 5], [200, 10]])));
  });

  it('a slog against itself: the figures are growth --json\'s, and a max=0 gate passes exactly where its own slope is <= 0', async () => {
    const fromGrowth = await growthSlopes(base);
    for (const f of FIGURES) {
      const { json, status } = await compareJson(['--fail-on', `growth.${f}:max=0`, base, base]);
      const row = growthRows(json).find((r) => r.key === `growth.${f}`) as CompareRow;
      expect(row.base, f).toBe(fromGrowth[f]);
      expect(status, f).toBe((fromGrowth[f] as number) > 0 ? 1 : 0);
      // The relative limit compares the head with the base: the same slog never exceeds it.
      expect((await compareJson(['--fail-on', `growth.${f}:+0`, base, base])).status, f).toBe(0);
    }
  });

  it('a head whose c-list grows in later rounds fails growth.clistEntries (exit 1, the metric named); its slope is 5 more', async () => {
    const { json, status } = await compareJson(['--fail-on', 'growth.clistEntries:+0', '--fail-on', 'growth.kernelPromises:+0', base, head]);
    expect(status).toBe(1);
    const row = growthRows(json).find((r) => r.key === 'growth.clistEntries') as CompareRow;
    // The imports add 0, 0, 5, 15 at the four boundaries (the start of round 1, the end of each round).
    expect(row.head - row.base).toBeCloseTo(slope([0, 0, 5, 15]), 12);
    expect(row.head).toBe((await growthSlopes(head)).clistEntries);
    expect(json.thresholds.map((t) => [t.metric, t.exceeded])).toEqual([
      ['growth.clistEntries', true],
      ['growth.kernelPromises', false],
    ]);
    const text = await runInProcess(['compare', '--fail-on', 'growth.clistEntries:+0', base, head]);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('1 of 1 threshold exceeded: growth.clistEntries:+0');
    expect(text.stdout).toMatch(/^growth\.clistEntries .* \+0 +EXCEEDED$/m);
  });

  it('max=N bounds the head\'s own value: at its slope it passes, below it fails', async () => {
    const s = (await growthSlopes(head)).clistEntries as number;
    const at = await runInProcess(['compare', '--fail-on', `growth.clistEntries:max=${Math.ceil(s)}`, base, head]);
    const below = await runInProcess(['compare', '--fail-on', `growth.clistEntries:max=${Math.floor(s)}`, base, head]);
    expect([at.status, below.status]).toEqual([0, 1]);
    expect(below.stdout).toMatch(new RegExp(`^growth\\.clistEntries .* max=${Math.floor(s)} +EXCEEDED$`, 'm'));
  });

  it('a side without rounds or blocks counts as 0, and stderr says so', async () => {
    const r = await runInProcess(['compare', '--fail-on', 'growth.clistEntries:max=0', base, slogPath('a-local-3')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(
      `slogulate: --fail-on 'growth.clistEntries:max=0': head ${slogPath('a-local-3')} has no benchmark rounds or chain blocks to measure growth over: its growth counts as 0\n`,
    );
  });

  it('refuses a scope, and a malformed max= (exit 2)', async () => {
    const runs = await Promise.all([
      runInProcess(['compare', '--fail-on', 'growth.clistEntries,vat=v1:max=0', base, head]),
      runInProcess(['compare', '--fail-on', 'growth.clistEntries:max=x', base, head]),
      runInProcess(['compare', '--fail-on', 'growth.clistEntries:max=0', slogPath('a-local-3'), slogPath('a-local-3')]),
    ]);
    expect(runs.map((r) => r.status)).toEqual([2, 2, 2]);
    expect(runs[0]?.stderr).toContain("growth.clistEntries is the kernel's, per round or block: it cannot be scoped by vat or method");
    expect(runs[1]?.stderr).toContain('bad limit "max=x"');
    expect(runs[2]?.stderr).toContain('neither slog has benchmark rounds or chain blocks');
  });
});
