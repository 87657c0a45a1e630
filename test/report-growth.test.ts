/**
 * What grows, in `slogulate report`: `report --growth` shows, per run, the
 * kernel's growth per round or block (its own kernel-stats gauges on
 * chain-A: start, end and slope against a plain loop over the slog's
 * kernel-stats entries at each committed block's end, growth-oracle.ts;
 * a chart of them per block, each point the loop's), and `report --compare
 * --fail-on growth.*` gates as `compare --fail-on growth.*` does: exit 1
 * naming the metric on a head whose c-list grows (c-list imports written
 * by hand into later rounds of a-local-3 with round marks), 0 otherwise.
 * Without --growth (or a growth threshold), none of it. The page itself is
 * opened in a browser by report-browser.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportData } from '../src/report/report-data.js';
import { ROOT, slogPath, withRoundMarks } from './helpers.js';
import { runInProcess } from './run-main.js';
import { chainFacts } from './slog-facts.js';
import { gaugesAtBlockEnds, KERNEL_FIGURES, slope, withImports } from './growth-oracle.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');

const dir = mkdtempSync(join(tmpdir(), 'slogulate-report-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The report's data, from the JSON inlined in its page. */
function dataOf(file: string): ReportData {
  const m = /<script type="application\/json" id="slog-report-data">(.*?)<\/script>/s.exec(readFileSync(file, 'utf8'));
  if (!m) throw new Error(`no report data in ${file}`);
  return JSON.parse(m[1] as string) as ReportData;
}

/** A slope as the tables print it, written apart from growth-text.ts: one decimal, signed when above 0. */
function slopeText(s: number): string {
  const text = (Math.round(s * 10) / 10).toFixed(1);
  return text === '-0.0' ? '0.0' : s > 0 && text !== '0.0' ? `+${text}` : text;
}

async function report(args: string[], name: string): Promise<{ status: number | null; stderr: string; data: ReportData }> {
  const file = join(dir, `${name}.html`);
  const r = await runInProcess(['report', ...args, '-o', file]);
  return { status: r.status, stderr: r.stderr, data: dataOf(file) };
}

describe('report --growth: chain-A, per block, from the kernel\'s own kernel-stats', () => {
  let data: ReportData;
  beforeAll(async () => {
    const r = await report(['--growth', CHAIN_A], 'chain-a');
    expect(r.status).toBe(0);
    data = r.data;
  }, 120_000);

  it('the kernel\'s table: each figure\'s start, end, change and slope per block as the plain loop makes them', () => {
    const plain = gaugesAtBlockEnds(CHAIN_A);
    const growth = data.sides[0]?.growth;
    expect(growth?.hasPeriods).toBe(true);
    expect(growth?.periods).toMatch(/^170 blocks \(block \d+ to block \d+\)$/);
    const table = growth?.tables.find((t) => t.id === 'slog-growth-kernelStats');
    expect(table?.columns.map((c) => c.header)).toEqual(['figure', 'start', 'end', 'change', 'per block']);
    const rows = new Map(table?.rows.map((r) => [r[0], r.slice(1)]));
    expect([...rows.keys()].sort()).toEqual([...KERNEL_FIGURES].sort());
    for (const f of KERNEL_FIGURES) {
      const ys = plain[f] as number[];
      expect(ys).toHaveLength(170);
      const change = (ys.at(-1) as number) - (ys[0] as number);
      expect(rows.get(f), f).toEqual([String(ys[0]), String(ys.at(-1)), change > 0 ? `+${change}` : String(change), slopeText(slope(ys))]);
    }
  });

  it('the chart: a point per committed block at its height, each figure the kernel-stats gauge at the block\'s end', () => {
    const plain = gaugesAtBlockEnds(CHAIN_A);
    const heights = chainFacts(CHAIN_A)
      .blocks.filter((b) => !b.abandoned)
      .map((b) => b.height);
    const chart = data.growthCharts[0];
    expect(data.growthCharts).toHaveLength(1);
    expect(chart?.axis).toBe('block');
    expect(chart?.x).toEqual(heights);
    expect(chart?.series.map((s) => s.label)).toEqual([...KERNEL_FIGURES]);
    for (const s of chart?.series ?? []) expect(s.mean, s.label).toEqual(plain[s.label]);
    // Its own axis: the other charts share the report's (blocks here too), the growth chart is not among them.
    expect(data.charts.map((c) => c.id)).not.toContain('growth');
  });

  it('what grew, as slogulate growth says it; the other tables of growth too', async () => {
    const text = (await runInProcess(['growth', CHAIN_A])).stdout;
    const growing = /^Growing[^\n]*:\n((?: {2}[^\n]*\n)+)/m.exec(text)?.[1]?.trimEnd().split('\n').map((l) => l.trim());
    const growth = data.sides[0]?.growth;
    expect(growth?.growing).toEqual(growing);
    expect(growth?.growing.length).toBeGreaterThan(0);
    expect(growth?.tables.map((t) => t.id)).toEqual(['kernelStats', 'kernelModel', 'clists', 'heaps', 'periods'].map((id) => `slog-growth-${id}`));
  });

  it('without --growth: nothing of it (growth is not followed)', async () => {
    const r = await report([CHAIN_A], 'chain-a-plain');
    expect(r.status).toBe(0);
    expect(r.data.sides[0]?.growth).toBeUndefined();
    expect(r.data.growthCharts).toEqual([]);
  });
});

describe('report --compare --fail-on growth.*: the gate of compare', () => {
  let base: string;
  let head: string;
  beforeAll(() => {
    const marked = withRoundMarks(readFileSync(slogPath('a-local-3'), 'utf8'), [
      [20, 80],
      [81, 160],
      [161, 240],
    ]);
    base = join(dir, 'base.slog');
    writeFileSync(base, marked);
    // 5 imports in round 2 (crank 120), 10 in round 3 (crank 200).
    head = join(dir, 'head.slog');
    writeFileSync(head, withImports(marked, new Map([[120, 5], [200, 10]])));
  });

  it('a head whose c-list grows in later rounds: exit 1, the metric named, as compare; per round 0, 5, 15 more entries than the base', async () => {
    const gates = ['--fail-on', 'growth.clistEntries:+0', '--fail-on', 'growth.kernelPromises:+0'];
    const r = await report(['--compare', ...gates, base, head], 'grows');
    const compare = await runInProcess(['compare', ...gates, base, head]);
    expect(r.status).toBe(1);
    expect(compare.status).toBe(1);
    const verdict = compare.stdout.trimEnd().split('\n').pop() as string;
    expect(verdict).toBe('1 of 2 thresholds exceeded: growth.clistEntries:+0');
    expect(r.stderr).toContain(`slogulate: ${verdict}\n`);
    expect(r.data.compare?.verdict).toBe(verdict);
    const thresholds = r.data.compare?.tables.find((t) => t.id === 'compare-thresholds');
    expect(thresholds?.rows.map((row) => [row[0], row.at(-1)])).toEqual([
      ['growth.clistEntries', 'EXCEEDED'],
      ['growth.kernelPromises', 'ok'],
    ]);
    // The compare table's growth rows are compare's.
    const json = JSON.parse((await runInProcess(['compare', '--format', 'json', ...gates, base, head])).stdout) as { sections: Array<{ id: string; rows: Array<{ key: string }> }> };
    const rows = r.data.compare?.tables.find((t) => t.id === 'compare-growth')?.rows.map((row) => `growth.${row[0]}`);
    expect(rows).toEqual(json.sections.find((s) => s.id === 'growth')?.rows.map((row) => row.key));
    // Both runs on the growth chart, per round: the head's c-list ends each round 0, 5, 15 entries above the base's.
    const chart = r.data.growthCharts[0];
    expect(chart?.axis).toBe('benchmark round');
    expect(chart?.x).toEqual([1, 2, 3]);
    const line = (label: string): number[] => chart?.series.find((s) => s.label === label)?.mean as number[];
    expect(line('head clistEntries').map((v, i) => v - (line('base clistEntries')[i] as number))).toEqual([0, 5, 15]);
    expect(r.data.sides.map((s) => s.growth?.per)).toEqual(['round', 'round']);
  });

  it('the same slog on both sides passes (exit 0); a max=0 gate on chain-A against itself fails exactly where the plain loop\'s slope is above 0', async () => {
    const same = await report(['--compare', '--fail-on', 'growth.clistEntries:+0', base, base], 'same');
    expect(same.status).toBe(0);
    const plain = gaugesAtBlockEnds(CHAIN_A);
    const gates = KERNEL_FIGURES.flatMap((f) => ['--fail-on', `growth.${f}:max=0`]);
    const r = await report(['--compare', ...gates, CHAIN_A, CHAIN_A], 'chain-gate');
    const rows = r.data.compare?.tables.find((t) => t.id === 'compare-thresholds')?.rows ?? [];
    expect(rows.map((row) => [row[0], row.at(-1)])).toEqual(KERNEL_FIGURES.map((f) => [`growth.${f}`, slope(plain[f] as number[]) > 0 ? 'EXCEEDED' : 'ok']));
    expect(KERNEL_FIGURES.some((f) => slope(plain[f] as number[]) > 0)).toBe(true);
    expect(r.status).toBe(1);
    expect(r.status).toBe((await runInProcess(['compare', ...gates, CHAIN_A, CHAIN_A])).status);
  }, 120_000);

  it('a side without rounds or blocks counts as 0, and stderr says so as compare does', async () => {
    const args = ['--fail-on', 'growth.clistEntries:max=0', base, slogPath('a-local-3')];
    const r = await report(['--compare', ...args], 'no-periods');
    const compare = await runInProcess(['compare', ...args]);
    expect([r.status, compare.status]).toEqual([0, 0]);
    const warning = `slogulate: --fail-on 'growth.clistEntries:max=0': head ${slogPath('a-local-3')} has no benchmark rounds or chain blocks to measure growth over: its growth counts as 0\n`;
    expect(compare.stderr).toBe(warning);
    expect(r.stderr).toContain(warning);
    // The head has no periods: only what is alive at its end, no chart line of its own.
    expect(r.data.sides[1]?.growth?.hasPeriods).toBe(false);
    expect(r.data.growthCharts[0]?.series.every((s) => s.side === 0)).toBe(true);
  });
});
