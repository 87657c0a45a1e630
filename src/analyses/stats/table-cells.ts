/**
 * The cells every stats table writes the same way: vat names, columns,
 * shares; and readable times and sizes for the tables of where the crank
 * time went (`112.05 s`, `36.21 ms`, `14.1 MB`: render/format.ts).
 */
import { NO_NAME, NO_VAT } from '../../model/vats.js';
import { megabytes, readableMicros } from '../../render/format.js';
import type { Column, Table } from '../common/table.js';

/** A stats table, saying how many rows at its bottom are totals (the `all` row: the report pins them when sorting); 0: every row is a vat's, a stall's... */
export interface StatsTable extends Table {
  totals: number;
}

/** A share (0..1) as a percentage with two decimals. */
export const pct = (fraction: number): string => `${(fraction * 100).toFixed(2)}%`;

/** The name column: `<no name>` for a vat nothing names; empty for totals and `<no vat>`. */
export const vatName = (vatID: string | undefined, name: string | undefined): string =>
  vatID === undefined || vatID === NO_VAT ? '' : (name ?? NO_NAME);

export const left = (header: string): Column => ({ header, align: 'left' });
export const right = (header: string): Column => ({ header, align: 'right' });

/** Whole µs, readable: `112.05 s`, `36.21 ms`, `902 µs`. */
export const time = (micros: number): string => readableMicros(micros);

/** Bytes, readable (`14.1 MB`); empty when not known. */
export const size = (bytes: number | undefined): string => (bytes === undefined ? '' : megabytes(bytes));

/** A change of size, signed: `+1.2 MB`, `-300.0 kB`, `0.0 kB`. */
export const signedSize = (bytes: number): string => (bytes > 0 ? `+${megabytes(bytes)}` : megabytes(bytes));
