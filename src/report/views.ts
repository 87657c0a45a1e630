/**
 * The shapes of what the report's page draws that more than one builder
 * makes (report-data.ts, growth-view.ts): tables and charts.
 */
import type { Table } from '../analyses/common/table.js';

/** A table; its last `footer` rows (totals) stay at the bottom when it is sorted. */
export interface ReportTable extends Table {
  id: string;
  footer: number;
}

export type ChartUnit = 'ms' | 'count' | 'computrons' | 'bytes';

export interface ChartSeries {
  label: string;
  /** Index into ReportData.sides. */
  side: number;
  /** The vat of a per-vat line. */
  vatID?: string;
  /** What the line shows, where several runs show it (a figure of the growth chart): its lines share a color. */
  key?: string;
  /** Per x: the mean of the point's buckets (null: no value). */
  mean: Array<number | null>;
  /** Per x, when points cover more than one bucket. */
  min?: Array<number | null>;
  max?: Array<number | null>;
}

export interface ChartView {
  id: string;
  title: string;
  unit: ChartUnit;
  /** Its lines are parts of a whole, drawn stacked (each line's `mean` is its own part, not the running sum). */
  stacked?: boolean;
  /** What a person must know to read it (drawn under it): per-crank values, a bucket left out. */
  note?: string;
  /** Its own x axis's title (the growth chart's rounds or blocks): not zoomed with the other charts, which share ReportData.axis. */
  axis?: string;
  /** Growing. */
  x: number[];
  /** The buckets each x covers, for hover. */
  labels: string[];
  series: ChartSeries[];
}
