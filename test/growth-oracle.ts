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

/** `extra` c-list imports into vat v6 written just before the crank-finish of each crank named: a c-list that grows by hand. */
export function withImports(text: string, extra: ReadonlyMap<number, number>): string {
  let next = 9000;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    const e = JSON.parse(line) as { type: string; crankNum?: number; time: number; monotime: number };
    const n = e.type === 'crank-finish' ? (extra.get(e.crankNum as number) ?? 0) : 0;
    for (let i = 0; i < n; i += 1, next += 1) {
      out.push(JSON.stringify({ type: 'clist', crankNum: e.crankNum, mode: 'import', vatID: 'v6', kobj: `ko${next}`, vobj: `o-${next}`, time: e.time, monotime: e.monotime }));
    }
    out.push(line);
  }
  return `${out.join('\n')}\n`;
}
