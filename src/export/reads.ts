/**
 * What the export's tables read of crank entries (scan/reads.ts), beside
 * what the crank model reads anyway: what every table reads (each
 * delivery's and syscall's arguments in kernel space, `kd`, `ksc`, or in
 * vat space for a replay that has only those, for their targets, methods
 * and result promises: fields.ts), and each written table's own
 * (TableDef.reads: the `messages` table's causes, the `clist` and `growth`
 * tables' c-lists, messages' vat-space targets and metering).
 */
import { mergeReads, type Reads } from '../scan/reads.js';
import type { AnyTableDef } from './schema.js';
import { TABLES } from './tables/index.js';

const TABLE_READS: Reads = {
  'crank-start': ['messageType', 'messageHead', 'crankType', 'time'],
  'crank-finish': ['time'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'ksc', 'vscWithoutKsc', 'time'],
  'syscall-result': ['status', 'time'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'method', 'kd', 'vdWithoutKd', 'time'],
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
