/**
 * What `compare` and `report --compare` say about a growth threshold where
 * one side has no growth (no benchmark rounds or chain blocks to measure it
 * over): that side counts as 0. Where neither has any, the threshold is
 * refused instead (metrics.ts `missing`).
 */
import type { SideData } from './compare-side.js';
import { growthKernelFigure } from './metrics.js';
import type { Threshold } from './thresholds.js';

/** One line per growth threshold that one side (not both) cannot measure. */
export function growthThresholdWarnings(thresholds: readonly Threshold[], base: SideData, head: SideData): string[] {
  const out: string[] = [];
  for (const t of thresholds) {
    if (t.metric.kind !== 'growth') continue;
    const figure = t.metric.name.slice('growth.'.length);
    const missing = ([['base', base], ['head', head]] as const).filter(([, side]) => (growthKernelFigure(side.growth, figure)?.perPeriod ?? null) === null);
    if (missing.length !== 1) continue;
    const [which, side] = missing[0] as (typeof missing)[number];
    out.push(`--fail-on '${t.text}': ${which} ${side.slog} has no benchmark rounds or chain blocks to measure growth over: its growth counts as 0`);
  }
  return out;
}
