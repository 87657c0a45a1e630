/**
 * The kernel's own counts, from its `kernel-stats` entries (a chain node
 * logs one before each run-finish): the last value of each gauge `growth`
 * follows. A block a restart abandoned had its entries logged but not
 * committed: `restore` puts back the values from before it.
 */

/** The gauges followed, as the kernel names them. */
export const KERNEL_GAUGES = ['kernelObjects', 'kernelPromises', 'kpUnresolved', 'clistEntries'] as const;
export type KernelGauge = (typeof KERNEL_GAUGES)[number];

export type GaugeValues = Partial<Record<KernelGauge, number>>;

export class KernelStatsReading {
  /** `kernel-stats` entries read. */
  entries = 0;
  last: GaugeValues = {};

  note(entry: object): void {
    const stats = (entry as { stats?: unknown }).stats;
    if (stats === null || typeof stats !== 'object') return;
    this.entries += 1;
    const next: GaugeValues = { ...this.last };
    for (const gauge of KERNEL_GAUGES) {
      const value = (stats as Record<string, unknown>)[gauge];
      if (typeof value === 'number' && Number.isFinite(value)) next[gauge] = value;
    }
    this.last = next;
  }

  restore(values: GaugeValues): void {
    this.last = values;
  }
}
