/**
 * Turns a staging CSV file (csv-text.ts, no header) into a Parquet file
 * with DuckDB: `COPY (SELECT * FROM read_csv(...)) TO ... (FORMAT parquet,
 * COMPRESSION snappy)`, each column with its table's type, through DuckDB's
 * bindings (duckdb.ts, duckdbBindings). Used on a worker
 * thread (parquet-worker.ts) or, where there is no compiled worker (tests
 * run from the TypeScript sources), on this thread.
 */
import { rmSync } from 'node:fs';
import { duckdbBindings, readCsvSql, sqlString, type ColumnsOf, type DuckDBBindings } from '../duckdb.js';

export interface ConvertJob {
  columns: Array<{ name: string; type: string }>;
  /** The staging CSV (removed once converted). */
  csv: string;
  /** The Parquet file to write. */
  parquet: string;
}

export interface ConverterSettings {
  threads: number;
  /** DuckDB's memory_limit, e.g. `160MB`. */
  memoryLimit: string;
  /** Where DuckDB may spill. */
  tempDirectory: string;
}

export interface Converter {
  /** Loads DuckDB now (it loads on first use otherwise). */
  warm(): void;
  convert(job: ConvertJob): Promise<void>;
  /** Closes DuckDB once the conversions sent are done. */
  close(): Promise<void>;
  /**
   * Stops now (a signal): the running conversion is interrupted, DuckDB
   * closed once it has loaded and its work has settled; conversions sent
   * after are refused. Resolves once nothing of DuckDB runs any more.
   */
  stop(): Promise<void>;
}

/**
 * Rows per row group. DuckDB holds a row group of each column while it
 * writes one, so this is what bounds its memory for a big part: with
 * DuckDB's 122,880, 8 copies of the big slog end to end peaked at 267 MB
 * (the slog itself at 160 MB, whose parts are smaller); with 65,536 at
 * 226 MB, for files 7% bigger.
 */
const ROW_GROUP_ROWS = 65_536;

/**
 * The Parquet codec. Snappy, Parquet's usual default: on big-local-1200 its
 * conversions cost DuckDB 11% fewer instructions than ZSTD's (1.97 G against
 * 2.21 G, callgrind: ZSTD's compressor was 0.28 G of them), for files of
 * 4.5 MB instead of 2.4 MB (a quarter of the slog's gzip).
 */
const CODEC = 'snappy';

/** DuckDB's CSV read buffer (its default, 32 MB, cost 30 MB more peak RSS); rows may be up to 2 MB. */
const CSV_BUFFER_BYTES = 4 << 20;

/** The COPY statement of one job. */
export function convertSql(job: ConvertJob): string {
  const table: ColumnsOf = { columns: job.columns };
  return (
    `COPY (SELECT * FROM ${readCsvSql(table, [job.csv], { header: false, hive: false, bufferBytes: CSV_BUFFER_BYTES })}) ` +
    `TO ${sqlString(job.parquet)} (FORMAT parquet, COMPRESSION ${CODEC}, ROW_GROUP_SIZE ${ROW_GROUP_ROWS})`
  );
}

type Database = DuckDBBindings.Database;
type Connection = DuckDBBindings.Connection;

/** An in-memory DuckDB with the converter's settings. */
function openDatabase(duckdb: typeof DuckDBBindings, settings: ConverterSettings): Promise<Database> {
  const config = duckdb.create_config();
  duckdb.set_config(config, 'threads', String(settings.threads));
  duckdb.set_config(config, 'memory_limit', settings.memoryLimit);
  duckdb.set_config(config, 'temp_directory', settings.tempDirectory);
  duckdb.set_config(config, 'preserve_insertion_order', 'true');
  return duckdb.open(':memory:', config);
}

/** A converter on this thread; DuckDB opens on first use. */
export function localConverter(settings: ConverterSettings): Converter {
  let duckdb: typeof DuckDBBindings | undefined;
  let db: Promise<Database> | undefined;
  let stopped = false;
  /** The connections converting now (interrupted by stop), and every conversion not yet settled. */
  const active = new Set<Connection>();
  const running = new Set<Promise<void>>();
  const bindings = (): typeof DuckDBBindings => (duckdb ??= duckdbBindings());
  const instance = (): Promise<Database> => (db ??= Promise.resolve().then(() => openDatabase(bindings(), settings)));
  const stoppedError = (job: ConvertJob): Error => new Error(`writing ${job.parquet}: stopped`);
  const convert = async (job: ConvertJob): Promise<void> => {
    if (stopped) throw stoppedError(job);
    const con = await bindings().connect(await instance());
    try {
      if (stopped) throw stoppedError(job);
      active.add(con);
      await bindings().query(con, convertSql(job));
    } catch (err) {
      // DuckDB's message, first line (the rest is advice on settings).
      throw new Error(`writing ${job.parquet}: ${((err as Error).message ?? String(err)).split('\n')[0]}`);
    } finally {
      active.delete(con);
      bindings().disconnect_sync(con);
    }
    rmSync(job.csv, { force: true });
  };
  return {
    warm() {
      instance().catch(() => undefined);
    },
    convert(job) {
      const work = convert(job);
      running.add(work);
      const forget = (): void => void running.delete(work);
      work.then(forget, forget);
      return work;
    },
    async close() {
      const instance = db;
      db = undefined;
      if (instance) bindings().close_sync(await instance);
    },
    async stop() {
      stopped = true;
      for (const con of active) bindings().interrupt(con);
      await Promise.allSettled([...running]);
      // DuckDB still loading: closed once loaded.
      const instance = db;
      db = undefined;
      if (instance) await instance.then((d) => bindings().close_sync(d), () => undefined);
    },
  };
}
