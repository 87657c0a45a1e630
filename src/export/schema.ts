/**
 * What an exported table is: its name (and its name in the SQLite database,
 * close to agoric-sdk's mezzanine database), its columns with their types and
 * meanings, and how its rows are made from one streaming pass over a slog.
 *
 * Each table is one file under `tables/`; `tables/index.ts` lists them in
 * the order they are written. A table's rows come from the hooks of its
 * `TableRows` (see extract.ts): every entry as the pass reads it (stalls),
 * entries outside cranks, whole cranks, and the deliveries and syscalls
 * the extractor pairs up once for every table.
 */
import type { Crank, DeliveryTimes, SyscallPair } from '../model/crank.js';
import type { ModelPlace } from '../model/assembler.js';
import type { DeliverEntry, DeliverResultEntry, LineFacts, SlogEntry } from '../scan/entry-types.js';
import type { Reads } from '../scan/reads.js';
import type { VatNames } from '../model/vats.js';

/**
 * Column types, as DuckDB names them. In Parquet: INT64, DOUBLE, UTF8
 * string, BOOLEAN; in SQLite: INTEGER, REAL, TEXT, INTEGER 0/1; in CSV:
 * digits, a decimal number, text (quoted when needed), true/false.
 */
export type ColumnType = 'BIGINT' | 'DOUBLE' | 'VARCHAR' | 'BOOLEAN';

/** A cell: a JS number holds every integer the slog has exactly (below 2^53). */
export type Cell = number | string | boolean | null;

export interface ColumnDef<Row> {
  /** The column's name (the same in every format; camelCase as the slog's own fields). */
  name: keyof Row & string;
  type: ColumnType;
  /** May hold NULL (an empty CSV field). */
  nullable: boolean;
  /** What it holds, for docs/export.md. */
  doc: string;
  /** The mezzanine database's column of the same meaning, if any (`delivery.crankNum`). */
  mezzanine?: string;
}

/** What every table of one pass can read. */
export interface ExportContext {
  /** The input's name in the dataset (the `source=` partition). */
  readonly source: string;
  /** Vat names learned so far (create-vat, create-vat crank messages). */
  readonly vats: VatNames;
  /** More than this many seconds between two consecutive entries is a stall (the `stalls` table; STALL_SECONDS unless told). */
  readonly stallSeconds: number;
}

/** A delivery (a `deliver` entry and its `deliver-result`), with the syscalls made between them. */
export interface DeliveryFacts {
  /** 1, 2, ... in slog order: unique within one source, the syscalls' `deliveryId`. */
  id: number;
  /** The crank it ran in (a replayed delivery: the crank that paged its vat in); null outside cranks. */
  crankNum: number | null;
  /**
   * That crank, whole (undefined outside cranks): where the chain view's
   * block and run of a delivery come from, once the crank model has them.
   */
  crank: Crank | undefined;
  vatID: string | null;
  /** Absent when the slog begins after it (inside its crank): the row holds what the result says. */
  deliver: DeliverEntry | undefined;
  /** Absent when the slog ends (or the crank is cut) before it. */
  result?: DeliverResultEntry;
  /** Its crank ran, was not committed, and ran again after a restart (executions.ts): not counted by `stats`. */
  abandoned: boolean;
  /** Sum of its answered syscalls' times, seconds. */
  syscallSeconds: number;
  syscallCount: number;
  /**
   * Its times as the crank's time split has them (crank.deliveryTimes,
   * docs/time-split.md): a live delivery that got its live result; else
   * undefined (a replay, no result, no deliver entry).
   */
  times: DeliveryTimes | undefined;
}

/** A syscall and its result, with the delivery it was made in (if any). */
export interface SyscallFacts {
  pair: SyscallPair;
  crankNum: number | null;
  delivery: DeliveryFacts | undefined;
  /** Made in a crank a restart ran again (as DeliveryFacts.abandoned). */
  abandoned: boolean;
}

/** A table's row maker for one pass: any of the hooks, each called in slog order. */
export interface TableRows {
  /** Every entry of the slog, in order, before the crank model sees it, with the reader's facts of it (the pass's `observe` hook): stalls are found there. */
  observe?(entry: SlogEntry, place: ModelPlace, facts: Readonly<LineFacts>): void;
  /** An entry outside cranks (after the vat names saw it): the chain's blocks and runs are there. */
  entry?(entry: SlogEntry, line: number): void;
  /** A crank's delivery, once its deliver-result (or the crank's end) came. */
  delivery?(delivery: DeliveryFacts): void;
  /** A syscall, once its delivery's row was made (so in delivery order). */
  syscall?(syscall: SyscallFacts): void;
  /** A whole crank, after its deliveries and syscalls; `deliveries` counts its deliver entries. */
  crank?(crank: Crank, deliveries: readonly DeliveryFacts[], abandoned: boolean): void;
  /** The end of the slog: rows kept back until then (a few: vats). */
  end?(): void;
}

export interface TableDef<Row> {
  /** The table's name in a dataset (its folder) and in `query` (a view). */
  name: string;
  /** Its name in the SQLite database (mezzanine style: singular). */
  sqliteName: string;
  /** One line: what a row is. */
  doc: string;
  columns: ReadonlyArray<ColumnDef<Row>>;
  /** Index columns for SQLite (each list one index; `source` is the input's column there). */
  sqliteIndexes?: ReadonlyArray<ReadonlyArray<(keyof Row & string) | 'source'>>;
  /** The rows of one pass: `emit` each as it is known. */
  rows(ctx: ExportContext, emit: (row: Row) => void): TableRows;
  /**
   * Its rows are the cranks' (cranks, deliveries, syscalls): a selection
   * (`--cranks`, `--blocks`, `--since`...) keeps those of the selected
   * cranks. The other tables are the slog's, whole, whatever the selection.
   */
  ofCranks?: true;
  /** What its rows read beyond what every table reads (export/reads.ts): read only when it is written. */
  reads?: Reads;
  /** Written only when asked for (`export --tables`): what it reads costs the export much of its time. */
  optIn?: true;
}

/** Any table (the registry's element type: each table's own row type is its own business). */
export type AnyTableDef = TableDef<any>;
