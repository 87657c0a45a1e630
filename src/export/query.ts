/**
 * `slogulate query 'SQL' [inputs...]`: SQL over the tables of slogs and of
 * export folders, with an in-process DuckDB. Slogs are exported on the fly
 * (CSV, to a temporary folder removed at the end); export folders are
 * read where they are. Each table is a view named after it (`deliveries`,
 * `syscalls`, `cranks`, `vats`), the union of every input's files, with
 * the `source` column of their `source=NAME` folders. The SQL is parsed
 * before any slog is read, so that a typo costs nothing.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuckDB, readCsvSql, readParquetSql, sqlName, type DuckDBConnection } from './duckdb.js';
import { exportSlogs, type SlogPass } from './export.js';
import { rowWriter, type JsonValue, type QueryFormat } from './query-format.js';
import type { AnyTableDef } from './schema.js';
import { TABLES } from './tables/index.js';
import { ExportError, trackUnfinished, untrackUnfinished } from './target.js';

export interface QueryRequest {
  sql: string;
  /** Slogs and export folders; none: a slog on standard input. */
  inputs: readonly string[];
  format: QueryFormat;
  pass: SlogPass;
  /** Where the result goes, and a wait for the reader (backpressure). */
  write: (text: string) => void;
  drained: () => Promise<void>;
  tables?: readonly AnyTableDef[];
}

export interface QueryOutcome {
  rows: number;
}

/** Every file under `dir` ending in `ext`, in name order (a folder that is not there: none). */
function filesUnder(dir: string, ext: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith('.') || name.startsWith('_')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path, ext));
    else if (name.endsWith(ext)) out.push(path);
  }
  return out;
}

/**
 * A view per table over its files in the export folders: Parquet and CSV
 * alike, with each file's `source` (hive partitioning). A table with no
 * files in any folder gets no view.
 */
export async function createViews(con: DuckDBConnection, folders: readonly string[], tables: readonly AnyTableDef[] = TABLES): Promise<void> {
  for (const table of tables) {
    const parquet = folders.flatMap((f) => filesUnder(join(f, table.name), '.parquet'));
    const csv = folders.flatMap((f) => filesUnder(join(f, table.name), '.csv'));
    const parts: string[] = [];
    if (parquet.length) parts.push(`SELECT * FROM ${readParquetSql(parquet)}`);
    if (csv.length) parts.push(`SELECT * FROM ${readCsvSql(table, csv, { header: true, hive: true })}`);
    if (parts.length) await con.run(`CREATE VIEW ${sqlName(table.name)} AS ${parts.join(' UNION ALL BY NAME ')}`);
  }
}

const isDir = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** DuckDB's own mistakes of the SQL (exit 2); anything else is a failure (exit 1). */
const SQL_MISTAKE = /\b(Parser|Binder|Catalog|Conversion|Invalid Input|Not implemented) Error\b/;

/** DuckDB's message as one line, classified: a mistake in the SQL (exit 2) or a failure. */
function queryError(err: unknown): ExportError {
  const message = (((err as Error).message ?? String(err)).split('\n')[0] ?? '').replace(/^Failed to extract statements: /, '');
  return new ExportError(`query: ${message}`, SQL_MISTAKE.test(message));
}

export async function runQuery(request: QueryRequest): Promise<QueryOutcome> {
  const tables = request.tables ?? TABLES;
  const folders = request.inputs.filter(isDir);
  const slogs = request.inputs.filter((input) => !isDir(input));
  for (const folder of folders) {
    if (!tables.some((t) => isDir(join(folder, t.name)))) {
      throw new ExportError(`${folder}: not an export folder (none of ${tables.map((t) => `${t.name}/`).join(', ')} in it)`, true);
    }
  }
  const scratch = mkdtempSync(join(tmpdir(), 'slogulate-query-'));
  trackUnfinished(scratch);
  try {
    const db = await openDuckDB({ temp_directory: join(scratch, 'duckdb') });
    const con = await db.connect();
    try {
      // A typo fails before any slog is read.
      try {
        await con.extractStatements(request.sql);
      } catch (err) {
        throw queryError(err);
      }
      if (slogs.length > 0 || request.inputs.length === 0) {
        // CSV: DuckDB reads it as fast as it would convert it to Parquet, and this query reads it once.
        const exported = join(scratch, 'tables');
        await exportSlogs({ inputs: slogs, to: exported, format: 'csv', pass: request.pass, tables });
        folders.push(exported);
      }
      await createViews(con, folders, tables);
      let result;
      try {
        result = await con.stream(request.sql);
      } catch (err) {
        throw queryError(err);
      }
      const names = result.columnNames();
      const types = result.columnTypes().map((t) => t.toString());
      const out = rowWriter(request.format, names.map((name, i) => ({ name, type: types[i] as string })), request.write);
      let count = 0;
      try {
        for await (const rows of result.yieldRowsJson()) {
          out.rows(rows as JsonValue[][]);
          count += rows.length;
          await request.drained();
        }
      } catch (err) {
        throw queryError(err);
      }
      out.end();
      return { rows: count };
    } finally {
      con.closeSync();
      db.closeSync();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    untrackUnfinished(scratch);
  }
}
