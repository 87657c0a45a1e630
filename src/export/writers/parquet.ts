/**
 * `--format parquet` (the default): `DIR/TABLE/source=NAME/part-K.parquet`,
 * ZSTD-compressed, written by DuckDB.
 *
 * How: this thread writes each table's rows as CSV text (csv-text.ts) to a
 * staging file, and DuckDB turns each staging file into a Parquet file
 * (parquet-convert.ts) on a worker thread (parquet-threads.ts), which loads
 * DuckDB while this thread reads the slog. A staging file is closed and
 * sent to be converted once it holds `partChars` of text (the next rows
 * start a new part), and at the end of the source; at most one conversion
 * per source waits at a time (afterBatch). Memory stays flat: a piece of
 * text per table here, a row group in DuckDB (memory_limit).
 *
 * Why not DuckDB's appender, or a Parquet writer in JavaScript: see
 * docs/export.md, "Choices" (both cost this thread more than CSV text).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { csvLineMaker } from '../csv-text.js';
import type { AnyTableDef } from '../schema.js';
import type { ConvertJob, Converter } from './parquet-convert.js';
import { threadConverter } from './parquet-threads.js';
import { TextFile } from './text-file.js';
import { partitionDir, type DatasetWriter, type SourceWriter } from './writer.js';

/**
 * DuckDB's memory for a conversion: a row group of each column, and it
 * spills to the staging folder beyond. 160 MB cost 10 MB more peak RSS on
 * the big slog than this, for the same time.
 */
const MEMORY_LIMIT = '64MB';

/** A part's staging text before it is converted (about 100 bytes a row: some 1.3M syscalls). */
const PART_CHARS = 128 << 20;

export interface ParquetOptions {
  /** Staging text per part (tests make it small to see several parts). */
  partChars?: number;
  /** DuckDB's threads (default 2). */
  threads?: number;
}

export function parquetDataset(root: string, options: ParquetOptions = {}): DatasetWriter {
  const staging = `${root}/.staging`;
  mkdirSync(staging, { recursive: true });
  const partChars = options.partChars ?? PART_CHARS;
  const converter: Converter = threadConverter({
    threads: options.threads ?? 2,
    memoryLimit: MEMORY_LIMIT,
    tempDirectory: `${staging}/duckdb`,
  });
  converter.warm();
  /** Conversions run one at a time: four at once took 40 MB more for no time saved on two cores. */
  let queue: Promise<void> = Promise.resolve();
  const convert = (job: ConvertJob): Promise<void> => {
    const run = queue.then(() => converter.convert(job));
    queue = run.catch(() => undefined);
    return run;
  };
  let stagingSeq = 0;
  const open = new Set<TextFile>();

  return {
    async source(source) {
      const jobs: Promise<void>[] = [];
      const lastParts: Array<() => void> = [];
      const writer: SourceWriter = {
        rows(table: AnyTableDef) {
          const dir = partitionDir(root, table, source);
          mkdirSync(dir, { recursive: true });
          const columns = table.columns.map((c) => ({ name: c.name as string, type: c.type as string }));
          const line = csvLineMaker(table);
          let part = 0;
          let file: TextFile | undefined;
          const startPart = (): TextFile => {
            stagingSeq += 1;
            const f = new TextFile(`${staging}/${stagingSeq}-${table.name}.csv`);
            open.add(f);
            return f;
          };
          /** Closes the staging file and sends it to be converted. */
          const endPart = (): void => {
            const f = file ?? startPart();
            file = undefined;
            f.close();
            open.delete(f);
            const job = convert({ columns, csv: f.path, parquet: `${dir}/part-${part}.parquet` });
            // Awaited in afterBatch or close; until then, not an unhandled rejection.
            job.catch(() => undefined);
            jobs.push(job);
            part += 1;
          };
          // The last part; a table without rows still gets its (empty) file, with its columns.
          lastParts.push(() => {
            if (file || part === 0) endPart();
          });
          return (row) => {
            file ??= startPart();
            file.write(line(row));
            if (file.written >= partChars) endPart();
          };
        },
        async afterBatch() {
          while (jobs.length > 1) await jobs.shift();
        },
        async close() {
          for (const end of lastParts) end();
          await Promise.all(jobs.splice(0));
        },
      };
      return writer;
    },
    async finish() {
      await converter.close();
      rmSync(staging, { recursive: true, force: true });
    },
    async abort() {
      for (const f of open) {
        try {
          f.close();
        } catch {
          // gone already: the caller removes the folder
        }
      }
      open.clear();
      await converter.close().catch(() => undefined);
    },
  };
}
