/**
 * `--format parquet` (the default): `DIR/TABLE/source=NAME/part-K.parquet`,
 * Snappy-compressed, written by DuckDB.
 *
 * How: this thread writes each table's rows as CSV (csv-text.ts) to a
 * staging file, and DuckDB turns each staging file into a Parquet file
 * (parquet-convert.ts) on a worker thread (parquet-threads.ts), which loads
 * DuckDB while this thread reads the slog. A staging file is closed and
 * sent to be converted after the batch of slog lines that made it hold a
 * part's text (the next rows start a new part: 1 MB, then twice the last,
 * up to 128 MB), and at the end of the source; a few parts may wait for
 * DuckDB while the pass goes on (afterBatch). Memory stays flat: a piece
 * of text per table here, a row group in DuckDB (memory_limit).
 *
 * Why not DuckDB's appender, or a Parquet writer in JavaScript: see
 * docs/export.md, "Choices" (both cost this thread more than CSV text).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { csvRowWriter } from '../csv-text.js';
import { ExportError, isStopping, trackStopper, untrackStopper } from '../target.js';
import type { AnyTableDef } from '../schema.js';
import type { ConvertJob, Converter } from './parquet-convert.js';
import { threadConverter } from './parquet-threads.js';
import { TextFile } from './text-file.js';
import { partitionDir, type DatasetWriter, type SourceWriter } from './writer.js';

/**
 * DuckDB's memory limit for a conversion (a limit, not a reservation: the
 * big slog's conversions use about 60 MB). DuckDB fails a query that
 * needs more than its limit (it did at 64 MB, with four conversions at
 * once), so this leaves room for wide rows (long vatstore keys).
 */
const MEMORY_LIMIT = '256MB';

/** Parts of a source that may wait for DuckDB while the pass goes on (each at most PART_CHARS on disk). */
const MAX_WAITING_PARTS = 8;

/** A part's staging text (bytes) before it is converted (about 100 bytes a row: some 1.3M syscalls). */
const PART_CHARS = 128 << 20;
/**
 * The first part's: each part is twice the last, up to PART_CHARS. Small
 * first parts are converted while the slog is still read (on the other
 * core), so that less is left to convert at the end; growing parts keep a
 * long slog's parts few (a 100 GB slog: some 60 per table).
 */
const FIRST_PART_CHARS = 1 << 20;

export interface ParquetOptions {
  /** Staging text of the first part and the most of any part (tests make them small to see several parts). */
  firstPartChars?: number;
  partChars?: number;
  /** DuckDB's threads (default 1: the main thread has the other core; two cost 50 MB more, no time saved). */
  threads?: number;
}

export function parquetDataset(root: string, options: ParquetOptions = {}): DatasetWriter {
  // A signal came (stopUnfinished): no DuckDB thread is started that the exit would have to wait for.
  if (isStopping()) throw new ExportError('stopped', false);
  const staging = `${root}/.staging`;
  mkdirSync(staging, { recursive: true });
  const maxPartChars = options.partChars ?? PART_CHARS;
  const firstPartChars = Math.min(options.firstPartChars ?? FIRST_PART_CHARS, maxPartChars);
  const converter: Converter = threadConverter({
    threads: options.threads ?? 1,
    memoryLimit: MEMORY_LIMIT,
    tempDirectory: `${staging}/duckdb`,
  });
  converter.warm();
  // On a signal, DuckDB stops before the process exits (target.ts: stopUnfinished).
  const stop = (): Promise<void> => converter.stop();
  trackStopper(stop);
  /** Conversions run one at a time: four at once took 40 MB more for no time saved on two cores. */
  let queue: Promise<void> = Promise.resolve();
  const convert = (job: ConvertJob): Promise<void> => {
    const run = queue.then(() => converter.convert(job)).catch((err: unknown) => {
      throw new ExportError((err as Error).message ?? String(err), false);
    });
    queue = run.catch(() => undefined);
    return run;
  };
  let stagingSeq = 0;
  const open = new Set<TextFile>();

  return {
    async source(source) {
      const jobs: Promise<void>[] = [];
      const settled = new WeakSet<Promise<void>>();
      const lastParts: Array<() => void> = [];
      const fullParts: Array<() => void> = [];
      const writer: SourceWriter = {
        rows(table: AnyTableDef) {
          const dir = partitionDir(root, table, source);
          mkdirSync(dir, { recursive: true });
          const columns = table.columns.map((c) => ({ name: c.name as string, type: c.type as string }));
          const write = csvRowWriter(table);
          let part = 0;
          let partChars = firstPartChars;
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
            job.then(
              () => settled.add(job),
              () => settled.add(job),
            );
            jobs.push(job);
            part += 1;
            partChars = Math.min(partChars * 2, maxPartChars);
          };
          // The last part; a table without rows still gets its (empty) file, with its columns.
          lastParts.push(() => {
            if (file || part === 0) endPart();
          });
          // A full part is sent after the batch of lines that filled it, not by the row: the row's function (inlined into
          // each table's row maker) then never meets a call it has not made before, which deoptimised them all at each
          // table's first part.
          fullParts.push(() => {
            if (file && file.written >= partChars) endPart();
          });
          return (row) => {
            file ??= startPart();
            write(row, file);
          };
        },
        async afterBatch() {
          for (const sendIfFull of fullParts) sendIfFull();
          // Parts waiting for DuckDB are staging files on disk, not memory: the pass goes on
          // while a few wait (waiting for each left this thread idle a tenth of the time), and
          // stops beyond.
          while (jobs.length > MAX_WAITING_PARTS) await jobs.shift();
          // A failed conversion ends the export now, not at the end.
          while (jobs.length > 0 && settled.has(jobs[0] as Promise<void>)) await jobs.shift();
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
      untrackStopper(stop);
      rmSync(staging, { recursive: true, force: true });
    },
    async abort() {
      // DuckDB's running conversion interrupted, the next ones refused, DuckDB closed in order
      // (closing it mid-query, or ending its thread, aborts the process).
      await converter.stop();
      untrackStopper(stop);
      await queue;
      for (const f of open) {
        try {
          f.close();
        } catch {
          // gone already: the caller removes the folder
        }
      }
      open.clear();
    },
  };
}
