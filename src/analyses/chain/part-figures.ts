/**
 * Where a block's, a run's or a group's crank time went (docs/time-split.md):
 * its cranks' parts summed (PartsTally, analyses/common/parts-tally.ts), as
 * the JSON keys of `blocks --json` and `runs --json` (exact µs) and as the
 * columns of their `--split` tables (readable units).
 *
 * `crankMicros` is the sum of the totals of the cranks that have parts; the
 * parts that are not within another (every part but replay and gc) add up
 * to it exactly, `unknownMicros` holding vat and pipe where a worker's list
 * is unusable. Cranks without parts (no crank-start or no crank-finish) are
 * counted in `cranksWithoutParts`, their time in no figure.
 */
import { PARTS, type PartSpec } from '../../model/parts.js';
import { readableMicros } from '../../render/format.js';
import type { PartsTally } from '../common/parts-tally.js';
import type { CellColumn } from './chain-table.js';

/** A part's JSON key: its CrankParts field and `Micros` (`pageInMicros`, `snapshotMicros`). */
export function partKey(part: PartSpec): string {
  return `${part.key}Micros`;
}

/** A group's crank time by part, µs, keyed as in the JSON (`crankMicros`, `pageInMicros`, ...). */
export interface PartFigures {
  /** The sum of the totals of the cranks with parts. */
  crankMicros: number;
  /** Cranks without parts (no crank-start or no crank-finish): their time is in no figure. */
  cranksWithoutParts: number;
  /** Each part's sum, by its JSON key (partKey), in PARTS order. */
  parts: Record<string, number>;
}

/** The figures of a tally (copied: the tally may go on counting). */
export function partFigures(tally: PartsTally): PartFigures {
  const parts: Record<string, number> = {};
  for (const part of PARTS) parts[partKey(part)] = tally.part(part.name).micros;
  return { crankMicros: tally.totalMicros, cranksWithoutParts: tally.withoutParts, parts };
}

/** The figures as JSON keys: `crankMicros`, each part's, then `cranksWithoutParts`. */
export function partsJson(figures: PartFigures): Record<string, number> {
  return { crankMicros: figures.crankMicros, ...figures.parts, cranksWithoutParts: figures.cranksWithoutParts };
}

/** µs as a cell: readable (`1.84 s`, `36.21 ms`, `902 µs`), and a bare `0` for none, so that what is there stands out. */
const cell = (us: number): string => (us === 0 ? '0' : readableMicros(us));

/** The `--sort` keys of the parts: `crank-time` and each part's name, and a row's figure for one. */
export const PART_SORT_KEYS: readonly string[] = ['crank-time', ...PARTS.map((p) => p.name)];

/** A row's figure for a PART_SORT_KEYS key (undefined: not such a key). */
export function partSortValue(figures: PartFigures, key: string): number | undefined {
  if (key === 'crank-time') return figures.crankMicros;
  const part = PARTS.find((p) => p.name === key);
  return part === undefined ? undefined : (figures.parts[partKey(part)] ?? 0);
}

/** The `--split` columns of rows that carry part figures: the crank time, then each part (readable: `1.84 s`, `36.21 ms`). */
export function partColumns<R>(figuresOf: (row: R) => PartFigures): Array<CellColumn<R>> {
  return [
    { header: 'crank time', align: 'right', width: 10, cell: (r) => cell(figuresOf(r).crankMicros) },
    ...PARTS.map(
      (part): CellColumn<R> => ({
        header: part.name,
        align: 'right',
        width: 9,
        cell: (r) => cell(figuresOf(r).parts[partKey(part)] ?? 0),
      }),
    ),
  ];
}
