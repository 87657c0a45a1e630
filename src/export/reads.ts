/**
 * What the export's tables read of crank entries (scan/reads.ts), beside
 * what the crank model reads anyway: what every table reads (a delivery's
 * target and result promise, a syscall's target and method: pieces of its
 * `kd` or `ksc`, else of its `vd` or `vsc` in a replay, which the readers
 * take without reading the value whole: fields.ts), and each written
 * table's own (TableDef.reads: the `messages` table's causes, the `clist`
 * and `growth` tables' c-lists, messages' vat-space targets and metering).
 */
import { mergeReads, type Reads } from '../scan/reads.js';
import type { AnyTableDef } from './schema.js';
import { DEFAULT_TABLES, TABLES } from './tables/index.js';

const TABLE_READS: Reads = {
  'crank-start': ['messageType', 'messageHead', 'crankType', 'time'],
  'crank-finish': ['time'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'target', 'method', 'time'],
  'syscall-result': ['status', 'time'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'method', 'target', 'resultPromise', 'time'],
  'deliver-result': ['deliveryNum', 'status', 'computrons', 'time'],
  clist: [],
};

/** What an export of `tables` reads. */
export function exportReads(tables: readonly AnyTableDef[]): Reads {
  let reads = TABLE_READS;
  for (const table of tables) if (table.reads !== undefined) reads = mergeReads(reads, table.reads);
  return reads;
}

/** What an export of every table reads (the byte reader's tests read with it). */
export const EXPORT_READS: Reads = exportReads(TABLES);

/** What an export of the tables written unless `--tables` names others reads (the byte reader's tests read with it). */
export const DEFAULT_EXPORT_READS: Reads = exportReads(DEFAULT_TABLES);
