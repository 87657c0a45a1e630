/**
 * `stats` prints the kernel's growth per round or block (and `--json` holds
 * it) where the slog has benchmark rounds or chain blocks: the figures of
 * `slogulate growth --json`'s kernel row, checked against a plain loop over
 * chain-A's kernel-stats entries at each committed block's end, and left
 * out of a slog with neither.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, slogPath, withRoundMarks } from './helpers.js';
import { runInProcess } from './run-main.js';
import { gaugesAtBlockEnds, KERNEL_FIGURES, slope } from './growth-oracle.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');
const FIGURES = KERNEL_FIGURES;

const dir = mkdtempSync(join(tmpdir(), 'slogulate-stats-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Figure {
  figure: string;
  start: number | null;
  end: number | null;
  change: number | null;
  perPeriod: number | null;
}
interface StatsJson {
  growth?: { unit: string; periods: number; source: string; kernel: Figure[] };
}



async function statsJson(path: string): Promise<StatsJson> {
  const r = await runInProcess(['stats', '--growth', '--json', path]);
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as StatsJson;
}

async function growthKernel(path: string): Promise<Figure[]> {
  const r = await runInProcess(['growth', '--json', path]);
  const g = JSON.parse(r.stdout) as { kernel: { kernelStats: Figure[]; model: Figure[] } };
  return g.kernel.kernelStats.length ? g.kernel.kernelStats : g.kernel.model;
}

describe('stats: the kernel\'s growth', () => {
  it('chain-A: per block, from kernel-stats: start, end and slope as the plain loop, and as growth --json', async () => {
    const json = await statsJson(CHAIN_A);
    const plain = gaugesAtBlockEnds(CHAIN_A);
    expect(json.growth).toMatchObject({ unit: 'block', periods: 170, source: 'kernel-stats' });
    const kernel = json.growth?.kernel ?? [];
    expect(kernel.map((f) => f.figure)).toEqual([...FIGURES]);
    for (const f of kernel) {
      const ys = plain[f.figure] as number[];
      expect([f.start, f.end], f.figure).toEqual([ys[0], ys.at(-1)]);
      expect(f.perPeriod as number, f.figure).toBeCloseTo(slope(ys), 12);
    }
    const fromGrowth = await growthKernel(CHAIN_A);
    expect(kernel).toEqual(FIGURES.map((name) => fromGrowth.find((f) => f.figure === name)));
    const text = await runInProcess(['stats', '--growth', CHAIN_A]);
    expect(text.stdout).toContain('Growth per block (the kernel, from its kernel-stats entries; 170 blocks):');
    const c = plain.clistEntries as number[];
    expect(text.stdout).toMatch(new RegExp(`^clistEntries +${c[0]} +${c.at(-1)} +0 +0\\.0$`, 'm'));
  });

  it('a-local-3 with round marks: per round, counted from the c-lists, as growth --json; without marks no growth at all', async () => {
    const marked = join(dir, 'rounds.slog');
    writeFileSync(
      marked,
      withRoundMarks(readFileSync(slogPath('a-local-3'), 'utf8'), [
        [20, 80],
        [81, 160],
        [161, 240],
      ]),
    );
    const json = await statsJson(marked);
    expect(json.growth).toMatchObject({ unit: 'round', periods: 3, source: 'c-list model' });
    const fromGrowth = await growthKernel(marked);
    expect(json.growth?.kernel).toEqual(FIGURES.map((name) => fromGrowth.find((f) => f.figure === name)));
    const text = (await runInProcess(['stats', '--growth', marked])).stdout;
    expect(text).toContain('Growth per round (the kernel, counted from the c-lists; 3 rounds):');
    const plain = await statsJson(slogPath('a-local-3'));
    expect(plain.growth).toBeUndefined();
    expect((await runInProcess(['stats', slogPath('a-local-3')])).stdout).not.toContain('Growth per');
    // Without --growth, not followed at all: not on a chain slog either.
    expect((await runInProcess(['stats', CHAIN_A])).stdout).not.toContain('Growth per');
  });
});
