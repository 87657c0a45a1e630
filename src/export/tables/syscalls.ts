/**
 * `syscalls` (SQLite `syscall`): one row per syscall, with its result.
 */
import { syscallName } from '../../model/crank.js';
import { micros, numberOrNull, syscallMethodOf, syscallStatusOf, syscallTargetOf } from '../fields.js';
import type { TableDef } from '../schema.js';

export interface SyscallRow {
  crankNum: number | null;
  vatID: string | null;
  deliveryNum: number | null;
  deliveryId: number | null;
  syscallNum: number | null;
  type: string;
  target: string | null;
  method: string | null;
  micros: number | null;
  status: string | null;
  replay: boolean;
  abandoned: boolean;
}

export const syscalls: TableDef<SyscallRow> = {
  name: 'syscalls',
  ofCranks: true,
  sqliteName: 'syscall',
  doc: 'one row per syscall a vat made, with its result',
  columns: [
    { name: 'crankNum', type: 'BIGINT', nullable: true, doc: 'the crank it was made in (as `deliveries.crankNum`)', mezzanine: 'syscall.crankNum' },
    { name: 'vatID', type: 'VARCHAR', nullable: true, doc: 'the vat that made it', mezzanine: 'syscall.vatID' },
    { name: 'deliveryNum', type: 'BIGINT', nullable: true, doc: 'the vat\'s delivery number it was made in', mezzanine: 'syscall.deliveryNum' },
    { name: 'deliveryId', type: 'BIGINT', nullable: true, doc: 'its delivery\'s `deliveries.deliveryId` (same source); null outside a delivery' },
    { name: 'syscallNum', type: 'BIGINT', nullable: true, doc: 'its number within the delivery (syscall.syscallNum)', mezzanine: 'syscall.syscallNum' },
    { name: 'type', type: 'VARCHAR', nullable: false, doc: '`send`, `resolve`, `subscribe`, `vatstoreGet`, `invoke`, ... (ksc[0], the kernel-space name; a replay, which has only the vat-space name, by the kernel-space one: its device call `invoke`, as a live one, not the vat\'s `callNow`), as `stats` names them', mezzanine: 'syscall.type' },
    { name: 'target', type: 'VARCHAR', nullable: true, doc: 'what it acts on: a send\'s or invoke\'s target, a subscribe\'s promise, the first promise a resolve settles, a vatstore key, the first ref of a drop/retire; else null', mezzanine: 'syscall_message.target_kref, syscall_resolve.kpid' },
    { name: 'method', type: 'VARCHAR', nullable: true, doc: 'a send\'s method (named as a delivery\'s), an invoke\'s method; else null', mezzanine: 'syscall_message.methname' },
    { name: 'micros', type: 'BIGINT', nullable: true, doc: 'its syscall-result\'s time - its time, whole µs; null without a result' },
    { name: 'status', type: 'VARCHAR', nullable: true, doc: 'ksr[0] of the result: `ok`, `error`; null without a result', mezzanine: 'syscall.result_ok (1 when ok)' },
    { name: 'replay', type: 'BOOLEAN', nullable: false, doc: 'the entry\'s `replay` flag: made by a replayed delivery' },
    { name: 'abandoned', type: 'BOOLEAN', nullable: false, doc: 'its crank ran, was not committed, and ran again after a restart: the later run is the one that counts (`stats` counts only that; filter with `NOT abandoned`)' },
  ],
  sqliteIndexes: [['crankNum'], ['vatID', 'deliveryNum'], ['source', 'deliveryId']],
  rows(_ctx, emit) {
    return {
      syscall({ pair, crankNum, delivery, abandoned }) {
        const call = pair.call;
        const type = syscallName(pair);
        emit({
          crankNum,
          vatID: typeof call.vatID === 'string' ? call.vatID : delivery?.vatID ?? null,
          deliveryNum: numberOrNull(call.deliveryNum) ?? numberOrNull(delivery?.deliver?.deliveryNum ?? delivery?.result?.deliveryNum),
          deliveryId: delivery ? delivery.id : null,
          syscallNum: numberOrNull(call.syscallNum),
          type,
          target: syscallTargetOf(pair),
          method: syscallMethodOf(pair),
          micros: pair.result ? micros(pair.seconds) : null,
          status: syscallStatusOf(pair),
          replay: call.replay === true,
          abandoned,
        });
      },
    };
  },
};
