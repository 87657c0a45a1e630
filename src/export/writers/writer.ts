/**
 * What the formats have in common: a dataset is written source by source
 * (one input slog each), table by table, row by row as the slog streams,
 * into a folder (or, for SQLite, a file) that the caller renames into place
 * once everything is written.
 */
import type { AnyTableDef } from '../schema.js';

export type ExportFormat = 'parquet' | 'csv' | 'sqlite';

export const EXPORT_FORMATS: readonly ExportFormat[] = ['parquet', 'csv', 'sqlite'];

/** The rows of one input slog. */
export interface SourceWriter {
  /** Where one table's rows go (call once per table, before the pass). */
  rows(table: AnyTableDef): (row: object) => void;
  /** Awaited after each batch of slog lines: a writer may wait there for its work to catch up. */
  afterBatch(): Promise<void> | void;
  /** The source's last row was written. */
  close(): Promise<void>;
}

export interface DatasetWriter {
  /** Starts the rows of one input, named `source` in the dataset. */
  source(source: string): Promise<SourceWriter>;
  /** Every source is written: complete the files (footers, indexes). */
  finish(): Promise<void>;
  /** Gives up: releases what it holds (the caller removes what it wrote). */
  abort(): Promise<void>;
}

/** `DIR/TABLE/source=NAME`: a table's folder for one source (hive partitioning). */
export function partitionDir(root: string, table: AnyTableDef, source: string): string {
  return `${root}/${table.name}/source=${source}`;
}
