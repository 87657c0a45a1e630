/**
 * What the export's tables read of crank entries (scan/reads.ts), beside
 * what the crank model reads anyway: each delivery's and syscall's
 * arguments in kernel space (`kd`, `ksc`), or in vat space for a replay
 * that has only those, for their targets, methods and result promises
 * (fields.ts); and what the `clist` and `growth` tables read (GROWTH_READS:
 * the c-list entries, a message's vat-space target, a delivery's metering).
 */
import { CAUSE_READS } from '../analyses/why/cause-finder.js';
import { GROWTH_READS } from '../analyses/growth/growth.js';
import { mergeReads, type Reads } from '../scan/reads.js';

const TABLE_READS: Reads = {
  'crank-start': ['messageType', 'messageHead', 'crankType', 'time'],
  'crank-finish': ['time'],
  syscall: ['crankNum', 'vatID', 'deliveryNum', 'syscallNum', 'replay', 'name', 'ksc', 'vscWithoutKsc', 'time'],
  'syscall-result': ['status', 'time'],
  deliver: ['crankNum', 'vatID', 'deliveryNum', 'replay', 'kind', 'method', 'kd', 'vdWithoutKd', 'time'],
  'deliver-result': ['deliveryNum', 'status', 'computrons', 'time'],
  clist: [],
};

/** The tables' own reads, the `messages` table's causes (analyses/why/cause-finder.ts), and the `clist` and `growth` tables' (analyses/growth/growth.ts). */
export const EXPORT_READS: Reads = mergeReads(mergeReads(TABLE_READS, CAUSE_READS), GROWTH_READS);
