/**
 * `slogulate query 'SQL' [inputs...]`: SQL over the tables of slogs and of
 * export folders, with an in-process DuckDB. Slogs are exported on the fly
 * (CSV, to a temporary folder removed at the end); export folders are
 * read where they are. Each table is a view named after it (`deliveries`,
 * `syscalls`, `cranks`, `vats`), the union of every input's files, with
 * the `source` column of their `source=NAME` folders. A folder is an
 * export folder when it holds a table's folder or the export's manifest,
 * else a slog when it holds slog files (a node's per-block files, or
 * `*.slog`, `*.jsonl`...: source/inputs.ts), read in order as one slog
 * named after the folder, as every command reads it. The SQL is parsed
 * before any slog is read, so that a typo costs nothing. Each input is
 * its own source, as in `export`: two inputs that would give the same
 * source name (two slogs, a slog and an export folder holding its
 * partition, two export folders) are refused before anything is read.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { folderFiles } from '../source/inputs.js';
import { openDuckDB, readCsvSql, readParquetSql, sqlName, type DuckDBConnection } from './duckdb.js';
import { isSelecting, type SelectionSpec } from '../analyses/common/selection.js';
import { exportSlogs, type SlogPass } from './export.js';
import { rowWriter, type JsonValue, type QueryFormat } from './query-format.js';
import type { AnyTableDef } from './schema.js';
import { TABLES } from './tables/index.js';
import { ExportError, MANIFEST, sourceNames, trackUnfinished, untrackUnfinished } from './target.js';

export interface QueryRequest {
  sql: string;
  /** Slogs (files, or folders of slog files) and export folders; none: a slog on standard input. */
  inputs: readonly string[];
  format: QueryFormat;
  pass: SlogPass;
  /** Where the result goes, and a wait for the reader (backpressure). */
  write: (text: string) => void;
  drained: () => Promise<void>;
  tables?: readonly AnyTableDef[];
  /** The stalls table's threshold for slogs exported on the fly (default STALL_SECONDS, 1). */
  stallSeconds?: number;
  /** Only these cranks' rows in the tables of cranks of the slogs read here (export.ts); export folders are read as they are. */
  selection?: SelectionSpec;
  /** The text table's rows held in memory before they go to a file (query-format.ts's HOLD_CHARS); for tests. */
  textHoldChars?: number;
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

/**
 * What an input is: an export folder (a table's folder or the manifest in
 * it), or a slog: a file, stdin, or a folder of slog files (read as one
 * slog by the pass). A folder that is neither is a usage error.
 */
export function inputKind(input: string, tables: readonly AnyTableDef[] = TABLES): 'export' | 'slog' {
  if (!isDir(input)) return 'slog';
  if (existsSync(join(input, MANIFEST)) || tables.some((t) => isDir(join(input, t.name)))) return 'export';
  try {
    folderFiles(input);
  } catch {
    throw new ExportError(
      `${input}: not an export folder (none of ${tables.map((t) => `${t.name}/`).join(', ')} in it) nor a folder of slog files (slogfile_*_*.gz, *.slog, *.jsonl)`,
      true,
    );
  }
  return 'slog';
}

/**
 * Whether the SQL holds no statement: nothing but white space, comments
 * and semicolons (DuckDB's extractStatements fails on it with
 * `Error in native callback`).
 */
export function isBlankSql(sql: string): boolean {
  return (
    sql
      .replace(/--[^\n]*/g, '')
      .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
      .replace(/[\s;]+/g, '') === ''
  );
}

/** The source names of an export folder: its tables' `source=NAME` folders. */
export function exportSources(folder: string, tables: readonly AnyTableDef[] = TABLES): Set<string> {
  const names = new Set<string>();
  for (const table of tables) {
    let entries: string[];
    try {
      entries = readdirSync(join(folder, table.name));
    } catch {
      continue;
    }
    for (const entry of entries) if (entry.startsWith('source=') && isDir(join(folder, table.name, entry))) names.add(entry.slice('source='.length));
  }
  return names;
}

/**
 * Refuses inputs that would share a source name (their rows would be
 * counted as one source's): two slogs (sourceNames), or an export folder
 * and another input giving one of its sources.
 */
function checkSources(inputs: readonly string[], kinds: ReadonlyArray<'export' | 'slog'>, tables: readonly AnyTableDef[]): void {
  const slogs = inputs.filter((_, i) => kinds[i] === 'slog');
  const slogNames = sourceNames(slogs);
  const seen = new Map<string, { input: string; kind: 'export' | 'slog' }>();
  let s = 0;
  inputs.forEach((input, i) => {
    const kind = kinds[i] as 'export' | 'slog';
    const names = kind === 'slog' ? [slogNames[s++] as string] : [...exportSources(input, tables)].sort();
    for (const name of names) {
      const first = seen.get(name);
      if (first) {
        if (resolve(first.input) === resolve(input)) throw new ExportError(`${input}: given twice (each input is its own source: its rows would be counted twice)`, true);
        const how =
          first.kind === 'slog' || kind === 'slog'
            ? 'rename the slog, or export it with --source-prefix and query that folder'
            : 'export one of them again with --source-prefix';
        throw new ExportError(`${first.input} and ${input} would both be source=${name}: each input is its own source (${how})`, true);
      }
      seen.set(name, { input, kind });
    }
  });
}

export async function runQuery(request: QueryRequest): Promise<QueryOutcome> {
  const tables = request.tables ?? TABLES;
  // Before anything is read or opened.
  if (isBlankSql(request.sql)) throw new ExportError('query: no SQL statement', true);
  const kinds = request.inputs.map((input) => inputKind(input, tables));
  checkSources(request.inputs, kinds, tables);
  const folders = request.inputs.filter((_, i) => kinds[i] === 'export');
  const slogs = request.inputs.filter((_, i) => kinds[i] === 'slog');
  if (request.selection && isSelecting(request.selection) && folders.length > 0) {
    throw new ExportError(`${folders[0]}: an export folder holds the rows it was exported with: a selection (--cranks, --blocks, --since, --until, --vat) is for slogs read here; select in the SQL (WHERE crankNum BETWEEN ...)`, true);
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
        await exportSlogs({ inputs: slogs, to: exported, format: 'csv', pass: request.pass, tables, stallSeconds: request.stallSeconds, ...(request.selection ? { selection: request.selection } : {}) });
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
      // The text table is written once its widths are known: rows beyond what is held in memory wait in the scratch folder.
      const out = rowWriter(request.format, names.map((name, i) => ({ name, type: types[i] as string })), request.write, {
        spillFile: join(scratch, 'text-rows.jsonl'),
        holdChars: request.textHoldChars,
        drained: request.drained,
      });
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
      await out.end();
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
