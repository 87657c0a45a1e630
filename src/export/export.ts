/**
 * `slogulate export`: the tables of one or more slogs, in one streaming
 * pass each, written as a Parquet or CSV dataset (`DIR/TABLE/source=NAME/
 * part-K.parquet`, hive-partitioned by input: the same layout for one input
 * as for many, so that exports made apart merge by copying folders) or one
 * SQLite file. Written beside the target and renamed into place at the end
 * (target.ts).
 */
import { writeFileSync } from 'node:fs';
import type { CrankSink, EntryObserver } from '../model/assembler.js';
import { STALL_SECONDS } from '../model/stalls.js';
import type { SlogEntry } from '../scan/entry-types.js';
import type { SelectionSpec } from '../analyses/common/selection.js';
import { RowExtractor } from './extract.js';
import type { AnyTableDef } from './schema.js';
import type { Reads } from '../scan/reads.js';
import { exportReads } from './reads.js';
import { DEFAULT_TABLES } from './tables/index.js';
import { ExportError, isStopping, MANIFEST, prepareTarget, sourceNames, type PreparedTarget } from './target.js';
import { csvDataset } from './writers/csv.js';
import { parquetDataset, type ParquetOptions } from './writers/parquet.js';
import { sqliteDataset } from './writers/sqlite.js';
import type { DatasetWriter, ExportFormat } from './writers/writer.js';

/**
 * One streaming pass over a slog, handed in by the caller (run/export.ts's
 * exportPass): `file` undefined reads stdin; `observe`, when given, sees
 * every entry in slog order before the crank model (the stalls table).
 */
export type SlogPass = (
  file: string | undefined,
  sink: CrankSink,
  afterBatch: () => Promise<void> | void,
  observe: EntryObserver | undefined,
  reads: Reads,
) => Promise<{ name: string }>;

export interface ExportRequest {
  /** The slogs; empty: standard input. */
  inputs: readonly string[];
  /** The dataset folder (parquet, csv) or database file (sqlite). */
  to: string;
  format: ExportFormat;
  /** Replace an earlier export at `to`. */
  replace?: boolean;
  /** Put before every source name (a node's name, when exports of several nodes will be merged). */
  sourcePrefix?: string;
  pass: SlogPass;
  /** Default: every table but the opt-in ones (tables/index.ts, DEFAULT_TABLES). */
  tables?: readonly AnyTableDef[];
  parquet?: ParquetOptions;
  /** The stalls table's threshold: more than this many seconds between two consecutive entries (default STALL_SECONDS, 1). */
  stallSeconds?: number;
  /** Only these cranks' rows in the tables of cranks (extract.ts); the other tables whole. */
  selection?: SelectionSpec;
}

export interface SourceSummary {
  source: string;
  /** The slog's name as the pass reports it. */
  slog: string;
  /** Rows per table. */
  rows: Record<string, number>;
}

export interface ExportSummary {
  to: string;
  format: ExportFormat;
  sources: SourceSummary[];
}

export interface Manifest {
  slogulate: string;
  format: ExportFormat;
  tables: string[];
  /** The sources it wrote: `--replace` removes these partitions and no others (target.ts). */
  sources: string[];
  /** The stalls table's threshold it was written with, seconds (`--gap`). */
  stallSeconds: number;
}

/**
 * How long the pass may run without a turn of the event loop: a file is
 * read synchronously, so that a signal's handler (cli/commands/export.ts:
 * stop, remove the temporary folder, exit 130) runs only when the loop
 * turns.
 */
const TURN_MS = 50;

async function openDataset(format: ExportFormat, root: string, tables: readonly AnyTableDef[], parquet?: ParquetOptions): Promise<DatasetWriter> {
  switch (format) {
    case 'parquet':
      return parquetDataset(root, parquet);
    case 'csv':
      return csvDataset(root);
    case 'sqlite':
      return sqliteDataset(root, tables);
  }
}

export async function exportSlogs(request: ExportRequest): Promise<ExportSummary> {
  const tables = request.tables ?? DEFAULT_TABLES;
  const reads = exportReads(tables);
  const inputs: Array<string | undefined> = request.inputs.length ? [...request.inputs] : [undefined];
  const names = sourceNames(inputs, request.sourcePrefix ?? '');
  const target: PreparedTarget = prepareTarget(request.to, request.format === 'sqlite' ? 'file' : 'dir', {
    replace: request.replace === true,
    inputs,
    tables: tables.map((t) => t.name),
    sources: names,
  });
  let dataset: DatasetWriter | undefined;
  try {
    dataset = await openDataset(request.format, target.temp, tables, request.parquet);
    const sources: SourceSummary[] = [];
    for (let i = 0; i < inputs.length; i += 1) {
      const source = names[i] as string;
      const writer = await dataset.source(source);
      const rows: Record<string, number> = {};
      const counters: Array<{ table: string; rows: number }> = [];
      const extractor = new RowExtractor({
        source,
        tables,
        stallSeconds: request.stallSeconds,
        ...(request.selection ? { selection: request.selection } : {}),
        sink: (table) => {
          const write = writer.rows(table);
          const counter = { table: table.name, rows: 0 };
          counters.push(counter);
          return (row) => {
            counter.rows += 1;
            write(row);
          };
        },
      });
      let lastTurn = Date.now();
      const afterBatch = async (): Promise<void> => {
        await writer.afterBatch();
        if (Date.now() - lastTurn >= TURN_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          lastTurn = Date.now();
        }
        // A signal came: the pass ends here (its handler ends the process once the export's work has stopped).
        if (isStopping()) throw new ExportError('stopped', false);
      };
      const run = await request.pass(inputs[i], extractor, afterBatch, extractor.observe, reads);
      extractor.end();
      await writer.close();
      for (const c of counters) rows[c.table] = c.rows;
      sources.push({ source, slog: run.name, rows });
    }
    await dataset.finish();
    if (request.format !== 'sqlite') {
      const manifest: Manifest = {
        slogulate: '1',
        format: request.format,
        tables: tables.map((t) => t.name),
        sources: names,
        stallSeconds: request.stallSeconds ?? STALL_SECONDS,
      };
      writeFileSync(`${target.temp}/${MANIFEST}`, `${JSON.stringify(manifest, null, 2)}\n`);
    }
    target.commit();
    return { to: target.target, format: request.format, sources };
  } catch (err) {
    await dataset?.abort().catch(() => undefined);
    target.abort();
    throw err;
  }
}
