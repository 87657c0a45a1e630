/**
 * The short growth section of `slogulate stats`: the kernel's row of
 * `slogulate growth` (c-list entries, kernel objects and promises,
 * unresolved promises: start -> end, change, and the slope per round or
 * block), where the slog has benchmark rounds or chain blocks. The
 * kernel's own `kernel-stats` gauges where the slog has them, else counted
 * from the c-lists, as `growth` says. The figures are of the whole slog,
 * whatever the selection (a c-list holds all that came before).
 */
import type { FigureChange, GrowthResult } from '../growth/growth-result.js';
import { signed, signedSlope } from '../growth/growth-text.js';
import { left, right, type StatsTable } from './table-cells.js';

/** The kernel's figures in the order of `growth`'s kernel table, in stats' --json. */
export const STATS_GROWTH_FIGURES = ['clistEntries', 'kernelObjects', 'kernelPromises', 'kpUnresolved'] as const;

/** What `stats --json` holds of growth: what the periods are, where the figures come from, and each. */
export interface StatsGrowth {
  unit: 'round' | 'block';
  periods: number;
  source: GrowthResult['kernel']['source'];
  kernel: FigureChange[];
}

/** The kernel's growth of a slog with rounds or blocks; undefined: it has neither. */
export function statsGrowth(growth: GrowthResult | undefined): StatsGrowth | undefined {
  if (!growth || (growth.unit !== 'round' && growth.unit !== 'block') || growth.periods.length === 0) return undefined;
  const rows = growth.kernel.kernelStats.length ? growth.kernel.kernelStats : growth.kernel.model;
  const kernel = STATS_GROWTH_FIGURES.map((f) => rows.find((c) => c.figure === f)).filter((c): c is FigureChange => c !== undefined);
  return { unit: growth.unit, periods: growth.periods.length, source: growth.kernel.source, kernel };
}

const cell = (n: number | null): string => (n === null ? '' : String(n));

export function growthTable(growth: StatsGrowth): StatsTable {
  const from = growth.source === 'kernel-stats' ? 'from its kernel-stats entries' : 'counted from the c-lists';
  return {
    title: `Growth per ${growth.unit} (the kernel, ${from}; ${growth.periods} ${growth.unit}s)`,
    columns: [left('figure'), right('start'), right('end'), right('change'), right(`per ${growth.unit}`)],
    rows: growth.kernel.map((f) => [f.figure, cell(f.start), cell(f.end), f.change === null ? '' : signed(f.change), f.perPeriod === null ? '' : signedSlope(f.perPeriod)]),
    totals: 0,
    note: 'the whole slog, whatever the selection; slogulate growth for each vat and what is alive (docs/growth.md)',
  };
}
