/**
 * The kernel's growth as the tests compute it, apart from
 * analyses/growth/: its gauges at each committed block's end, read by a
 * plain loop over the slog's lines, and the least-squares slope by the
 * plain formula.
 */
import { readFileSync } from 'node:fs';

export const KERNEL_FIGURES = ['clistEntries', 'kernelObjects', 'kernelPromises', 'kpUnresolved'] as const;

/** The kernel's own gauges at the end of each committed block (the bootstrap block's finish, each commit-block-finish): the last kernel-stats before it. */
export function gaugesAtBlockEnds(path: string): Record<string, number[]> {
  const out: Record<string, number[]> = Object.fromEntries(KERNEL_FIGURES.map((f) => [f, []]));
  let last: Record<string, number> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { type: string; stats?: Record<string, number> };
    if (e.type === 'kernel-stats' && e.stats) last = e.stats;
    if (e.type === 'cosmic-swingset-bootstrap-block-finish' || e.type === 'cosmic-swingset-commit-block-finish') {
      for (const f of KERNEL_FIGURES) out[f]?.push(last[f] as number);
    }
  }
  return out;
}

/** The least-squares slope of values at x = 0, 1, 2... */
export function slope(ys: readonly number[]): number {
  const mx = (ys.length - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  ys.forEach((y, x) => {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  });
  return sxy / sxx;
}
