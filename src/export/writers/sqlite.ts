/**
 * `--format sqlite`: one SQLite database file (better-sqlite3), its tables
 * named as agoric-sdk's mezzanine database names them (`delivery`,
 * `syscall`, ...; schema.ts's sqliteName), each with a `source` column
 * first (the input it came from), and a view under the dataset's name
 * (`deliveries`, ...) so that the same SQL runs here as on the Parquet.
 *
 * Rows are inserted with one prepared statement per table and committed
 * every COMMIT_ROWS rows, so the pass's memory stays flat; the indexes are
 * made at the end (faster than keeping them up to date row by row). The
 * file is written without a journal: it is a temporary file until the
 * export renames it into place.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { AnyTableDef, Cell, ColumnType } from '../schema.js';
import { sqlName } from '../duckdb.js';
import type { DatasetWriter, SourceWriter } from './writer.js';

const COMMIT_ROWS = 20_000;

const SQLITE_TYPES: Record<ColumnType, string> = {
  BIGINT: 'INTEGER',
  DOUBLE: 'REAL',
  VARCHAR: 'TEXT',
  BOOLEAN: 'INTEGER',
};

/** What better-sqlite3 binds: booleans as 1/0. */
const bindable = (value: Cell | undefined): number | string | null =>
  value === undefined || value === null ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value;

export async function sqliteDataset(file: string, tables: readonly AnyTableDef[]): Promise<DatasetWriter> {
  const { default: open } = await import('better-sqlite3');
  const db: Database = open(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  for (const table of tables) {
    const columns = table.columns.map((c) => `${sqlName(c.name)} ${SQLITE_TYPES[c.type as ColumnType]}${c.nullable ? '' : ' NOT NULL'}`);
    db.exec(`CREATE TABLE ${sqlName(table.sqliteName)} (source TEXT NOT NULL, ${columns.join(', ')})`);
    if (table.sqliteName !== table.name) db.exec(`CREATE VIEW ${sqlName(table.name)} AS SELECT * FROM ${sqlName(table.sqliteName)}`);
  }
  let pending = 0;
  db.exec('BEGIN');
  const commitSome = (): void => {
    pending += 1;
    if (pending >= COMMIT_ROWS) {
      db.exec('COMMIT');
      db.exec('BEGIN');
      pending = 0;
    }
  };

  return {
    async source(source) {
      const writer: SourceWriter = {
        rows(table) {
          const names = table.columns.map((c) => c.name as string);
          const insert: Statement = db.prepare(
            `INSERT INTO ${sqlName(table.sqliteName)} VALUES (?${', ?'.repeat(names.length)})`,
          );
          const values: Array<number | string | null> = new Array(names.length + 1);
          values[0] = source;
          return (row) => {
            const r = row as Record<string, Cell>;
            for (let i = 0; i < names.length; i += 1) values[i + 1] = bindable(r[names[i] as string]);
            insert.run(values);
            commitSome();
          };
        },
        afterBatch: () => undefined,
        close: async () => undefined,
      };
      return writer;
    },
    async finish() {
      db.exec('COMMIT');
      for (const table of tables) {
        for (const index of table.sqliteIndexes ?? []) {
          const name = `${table.sqliteName}_${index.join('_')}`;
          db.exec(`CREATE INDEX ${sqlName(name)} ON ${sqlName(table.sqliteName)} (${index.map((c) => sqlName(c as string)).join(', ')})`);
        }
      }
      db.close();
    },
    async abort() {
      if (db.open) db.close();
    },
  };
}
