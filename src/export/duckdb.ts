/**
 * DuckDB (the official `@duckdb/node-api`), loaded only by the commands
 * that use it, and the SQL that reads slogulate's CSV and Parquet files.
 */
import { createRequire } from 'node:module';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type * as DuckDBBindings from '@duckdb/node-bindings';

export type { DuckDBConnection, DuckDBInstance, DuckDBBindings };

/** An in-memory DuckDB with these settings (`threads`, `memory_limit`, `temp_directory`...). */
export async function openDuckDB(settings: Record<string, string> = {}): Promise<DuckDBInstance> {
  // require, not import(): the package is CommonJS, and import() of it first has Node.js scan each of its
  // 120-odd modules for their exports (cjs-module-lexer), 80 ms of the export's Parquet thread.
  const { DuckDBInstance: Instance } = createRequire(import.meta.url)('@duckdb/node-api') as typeof import('@duckdb/node-api');
  return Instance.create(':memory:', settings);
}

/**
 * DuckDB's own bindings (`@duckdb/node-bindings`: the C API that node-api
 * wraps; package.json pins the version node-api depends on, so that both
 * load one copy of DuckDB). The export's Parquet thread uses them alone:
 * node-api's 180 modules cost that thread some 0.15 s of CPU to load, the
 * bindings a tenth of it.
 */
export function duckdbBindings(): typeof DuckDBBindings {
  return createRequire(import.meta.url)('@duckdb/node-bindings') as typeof DuckDBBindings;
}

/** A SQL string literal. */
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A SQL identifier, quoted. */
export function sqlName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** `['a', 'b']`: a list of paths for read_csv/read_parquet. */
function pathList(paths: readonly string[]): string {
  return `[${paths.map(sqlString).join(', ')}]`;
}

/** A table's columns (all read_csv needs: a TableDef, or its columns sent to a worker). */
export interface ColumnsOf {
  columns: ReadonlyArray<{ name: string; type: string }>;
}

/** The table's columns and types for read_csv: `{'crankNum': 'BIGINT', ...}`. */
function csvColumns(table: ColumnsOf): string {
  return `{${table.columns.map((c) => `${sqlString(c.name)}: ${sqlString(c.type)}`).join(', ')}}`;
}

/**
 * read_csv of files written by csv-text.ts, with the table's own types (no
 * guessing); `header`: whether each file starts with the column names;
 * `hive`: add the `source` of each file's `source=NAME` folder.
 */
export function readCsvSql(table: ColumnsOf, paths: readonly string[], options: { header: boolean; hive: boolean; bufferBytes?: number }): string {
  const hive = options.hive ? `, hive_partitioning = true, hive_types = {'source': 'VARCHAR'}` : '';
  const buffer = options.bufferBytes === undefined ? '' : `, buffer_size = ${options.bufferBytes}`;
  return (
    `read_csv(${pathList(paths)}, auto_detect = false, header = ${options.header}, delim = ',', quote = '"', escape = '"', ` +
    `new_line = '\\n', allow_quoted_nulls = false${buffer}, columns = ${csvColumns(table)}${hive})`
  );
}

/** read_parquet of a table's files, with the `source` of each file's `source=NAME` folder. */
export function readParquetSql(paths: readonly string[]): string {
  return `read_parquet(${pathList(paths)}, hive_partitioning = true, hive_types = {'source': 'VARCHAR'})`;
}
