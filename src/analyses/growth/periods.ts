/**
 * The periods `growth` measures change over: benchmark rounds, chain
 * blocks, or groups of N cranks. At each period's start and end the
 * collector hands over every figure it follows (`Figures`, keyed
 * `subject\tfigure`: `v7\tclistEntries`, `kernel\tkernelObjects`); a
 * PeriodLog folds them into one Series per figure (the start of the first
 * period is point 0, the end of period i point i) and keeps a row per
 * period of the kernel's figures only.
 *
 * Memory: a Series per figure, and a small row per period.
 */
import { Series } from './series.js';

export type PeriodUnit = 'round' | 'block' | 'cranks';

/** Figures at one moment: `subject\tfigure` -> value. */
export type Figures = ReadonlyMap<string, number>;

export const figureKey = (subject: string, figure: string): string => `${subject}\t${figure}`;

/** The subject and figure of a key. */
export function splitKey(key: string): [string, string] {
  const tab = key.indexOf('\t');
  return [key.slice(0, tab), key.slice(tab + 1)];
}

export interface PeriodRow {
  /** `block 85`, `"open vault" round 2`, `cranks 0-99`. */
  label: string;
  /** The period's cranks, and the lowest and highest crank numbers (null: none). */
  cranks: number;
  firstCrank: number | null;
  lastCrank: number | null;
  /** The kernel's figures at its start and end: counted from the c-lists (`kernel`), and its own kernel-stats gauges (`kernelStats`). */
  start: KernelFigures;
  end: KernelFigures;
  /** False: the slog ends inside it (a round without its end mark, a block cut short). */
  finished: boolean;
}

interface OpenPeriod {
  label: string;
  start: Figures;
  cranks: number;
  low?: number;
  high?: number;
}

/** The kernel's figures of a period's row: `figure` -> value. */
export interface KernelFigures {
  kernel: Record<string, number>;
  kernelStats: Record<string, number>;
}

/** Only the kernel's figures go into a row. */
function kernelFigures(figures: Figures): KernelFigures {
  const out: KernelFigures = { kernel: {}, kernelStats: {} };
  for (const [key, value] of figures) {
    const [subject, figure] = splitKey(key);
    if (subject === 'kernel') out.kernel[figure] = value;
    else if (subject === 'kernel-stats') out.kernelStats[figure] = value;
  }
  return out;
}

export class PeriodLog {
  readonly series = new Map<string, Series>();
  readonly rows: PeriodRow[] = [];
  private open: OpenPeriod | undefined;

  constructor(
    readonly unit: PeriodUnit,
    /** Told of each period as it ends, with its figures at the start and the end (the export's rows). */
    private readonly onPeriod?: (row: PeriodRow, start: Figures, end: Figures, unit: PeriodUnit) => void,
  ) {}

  /** Periods ended. */
  get count(): number {
    return this.rows.length;
  }

  get isOpen(): boolean {
    return this.open !== undefined;
  }

  begin(label: string, figures: Figures): void {
    if (this.rows.length === 0 && this.series.size === 0) this.addPoints(0, figures);
    this.open = { label, start: figures, cranks: 0 };
  }

  crank(crankNum: number): void {
    const open = this.open;
    if (!open) return;
    open.cranks += 1;
    if (Number.isFinite(crankNum)) {
      open.low = Math.min(open.low ?? crankNum, crankNum);
      open.high = Math.max(open.high ?? crankNum, crankNum);
    }
  }

  /** Cranks in the open period so far. */
  get openCranks(): number {
    return this.open?.cranks ?? 0;
  }

  /** The open period ends; `label` names it when only its cranks can (`cranks 0-99`). */
  end(figures: Figures, options: { finished?: boolean; label?: (low: number | undefined, high: number | undefined) => string } = {}): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.addPoints(this.rows.length + 1, figures);
    const row: PeriodRow = {
      label: options.label ? options.label(open.low, open.high) : open.label,
      cranks: open.cranks,
      firstCrank: open.low ?? null,
      lastCrank: open.high ?? null,
      start: kernelFigures(open.start),
      end: kernelFigures(figures),
      finished: options.finished ?? true,
    };
    this.rows.push(row);
    this.onPeriod?.(row, open.start, figures, this.unit);
  }

  /** The open period is dropped (a block a restart abandoned): no row, no point. */
  discard(): void {
    this.open = undefined;
  }

  private addPoints(x: number, figures: Figures): void {
    for (const [key, value] of figures) {
      let series = this.series.get(key);
      if (!series) {
        series = new Series();
        this.series.set(key, series);
      }
      series.add(x, value);
    }
  }
}
