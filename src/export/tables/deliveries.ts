/**
 * `deliveries` (SQLite `delivery`): one row per delivery, a `deliver` entry
 * and its `deliver-result`, with the syscalls made between them.
 */
import {
  computronsOf,
  deliveryKindOf,
  deliveryMethodOf,
  deliveryResultOf,
  deliveryStatusOf,
  deliveryTargetOf,
  micros,
  numberOrNull,
} from '../fields.js';
import { UNKNOWN_METHOD } from '../../analyses/common/delivery-method.js';
import type { TableDef } from '../schema.js';

export interface DeliveryRow {
  deliveryId: number;
  crankNum: number | null;
  blockNum: number | null;
  vatID: string | null;
  vatName: string | null;
  deliveryNum: number | null;
  kind: string | null;
  method: string;
  target: string | null;
  resultPromise: string | null;
  status: string | null;
  computrons: number | null;
  startTime: number | null;
  endTime: number | null;
  totalMicros: number | null;
  localMicros: number | null;
  syscallMicros: number;
  syscallCount: number;
  workerMicros: number | null;
  pipeMicros: number | null;
  gcMicros: number | null;
  replay: boolean;
  abandoned: boolean;
}

export const deliveries: TableDef<DeliveryRow> = {
  name: 'deliveries',
  ofCranks: true,
  sqliteName: 'delivery',
  doc: 'one row per delivery: a deliver entry and its deliver-result, with the syscalls made between them',
  columns: [
    { name: 'deliveryId', type: 'BIGINT', nullable: false, doc: 'the delivery\'s position in the slog (1, 2, ...): unique within a source; `syscalls.deliveryId` refers to it' },
    { name: 'crankNum', type: 'BIGINT', nullable: true, doc: 'the crank it ran in (a replayed delivery: the crank that paged its vat in); null for a replay outside cranks', mezzanine: 'delivery.crankNum' },
    { name: 'blockNum', type: 'BIGINT', nullable: true, doc: 'the chain block height its crank ran in; null outside blocks (a kernel without a chain, a replay outside cranks)', mezzanine: 'delivery.blockNum' },
    { name: 'vatID', type: 'VARCHAR', nullable: true, doc: 'the vat it went to (the entry\'s vatID, else the crank\'s)', mezzanine: 'delivery.vatID' },
    { name: 'vatName', type: 'VARCHAR', nullable: true, doc: 'the vat\'s name (create-vat), if the slog names it' },
    { name: 'deliveryNum', type: 'BIGINT', nullable: true, doc: 'the vat\'s own delivery number (deliver.deliveryNum)', mezzanine: 'delivery.deliveryNum' },
    { name: 'kind', type: 'VARCHAR', nullable: true, doc: '`message`, `notify`, `startVat`, `bringOutYourDead`, `dropExports`, ... (kd[0])', mezzanine: 'delivery.kd_json (its first element)' },
    { name: 'method', type: 'VARCHAR', nullable: false, doc: 'a message\'s method (`<funcall>` for a function call); any other delivery: its kind, as `stats` groups them; `<unknown>` without its deliver entry', mezzanine: 'delivery_message.methname (messages only)' },
    { name: 'target', type: 'VARCHAR', nullable: true, doc: 'a message\'s target; a notify\'s first promise; else null', mezzanine: 'delivery_message.target_kref, delivery_notify.kpid' },
    { name: 'resultPromise', type: 'VARCHAR', nullable: true, doc: 'a message\'s result promise, if any', mezzanine: 'delivery_message.result_kpid' },
    { name: 'status', type: 'VARCHAR', nullable: true, doc: 'dr[0] of the deliver-result: `ok`, `error`; null when the slog has no result', mezzanine: 'delivery.deliver_ok (1 when ok)' },
    { name: 'computrons', type: 'BIGINT', nullable: true, doc: 'dr[2].compute: the XS worker\'s computrons; null where the worker reports none', mezzanine: 'delivery.computrons' },
    { name: 'startTime', type: 'DOUBLE', nullable: true, doc: 'the deliver entry\'s time: seconds since the epoch; null when the slog begins after it (inside its crank)' },
    { name: 'endTime', type: 'DOUBLE', nullable: true, doc: 'the deliver-result\'s time; null without a result' },
    { name: 'totalMicros', type: 'BIGINT', nullable: true, doc: 'endTime - startTime, whole µs (a live delivery with its result: each time rounded to µs first, then subtracted, as the time split does)', mezzanine: 'delivery.time (seconds)' },
    { name: 'localMicros', type: 'BIGINT', nullable: true, doc: 'totalMicros less syscallMicros' },
    { name: 'syscallMicros', type: 'BIGINT', nullable: false, doc: 'time in its syscalls (each result\'s time - its syscall\'s), whole µs' },
    { name: 'syscallCount', type: 'BIGINT', nullable: false, doc: 'how many syscalls it made' },
    { name: 'workerMicros', type: 'BIGINT', nullable: true, doc: 'the vat part: time in the worker running vat code, by the XS worker\'s own clock (dr[2].timestamps); a local worker: totalMicros - syscallMicros. Null for a replay, a delivery without its deliver or its result or outside cranks, and where the worker\'s list is unusable (over 49 syscalls and consoles, cut short, damaged)' },
    { name: 'pipeMicros', type: 'BIGINT', nullable: true, doc: 'messages between kernel and worker: deliver to the worker\'s receipt, each syscall\'s trip both ways, the worker\'s result to deliver-result (0 for a local worker); null with workerMicros. workerMicros + pipeMicros + syscallMicros = totalMicros' },
    { name: 'gcMicros', type: 'BIGINT', nullable: true, doc: 'a bringOutYourDead delivery\'s garbage collection: the worker\'s receipt to its first syscall or console (or its result); a local worker: deliver to its first syscall (or deliver-result). Null for any other kind, and where unknown' },
    { name: 'replay', type: 'BOOLEAN', nullable: false, doc: 'the entry\'s `replay` flag: a delivery replayed to page a vat in' },
    { name: 'abandoned', type: 'BOOLEAN', nullable: false, doc: 'its crank ran, was not committed, and ran again after a restart: the later run is the one that counts (`stats` counts only that; filter with `NOT abandoned`)' },
  ],
  sqliteIndexes: [['crankNum'], ['vatID', 'deliveryNum'], ['source', 'deliveryId']],
  rows(ctx, emit) {
    return {
      delivery(d) {
        const { deliver, result, times } = d;
        const start = numberOrNull(deliver?.time);
        const end = result ? numberOrNull(result.time) : null;
        const total = start !== null && end !== null ? end - start : NaN;
        // The time split's whole µs where it has the delivery (the parts add up to its total exactly).
        const totalMicros = times ? times.micros : micros(total);
        const syscallMicros = times ? times.syscallMicros : (micros(d.syscallSeconds) ?? 0);
        emit({
          deliveryId: d.id,
          crankNum: d.crankNum,
          blockNum: d.crank?.block?.height ?? null,
          vatID: d.vatID,
          vatName: d.vatID === null ? null : ctx.vats.lookup(d.vatID) ?? null,
          deliveryNum: numberOrNull(deliver?.deliveryNum ?? result?.deliveryNum),
          kind: deliver ? deliveryKindOf(deliver) : null,
          method: deliver ? deliveryMethodOf(deliver) : UNKNOWN_METHOD,
          target: deliver ? deliveryTargetOf(deliver) : null,
          resultPromise: deliver ? deliveryResultOf(deliver) : null,
          status: deliveryStatusOf(result),
          computrons: computronsOf(result),
          startTime: start,
          endTime: end,
          totalMicros,
          localMicros: times ? times.micros - times.syscallMicros : micros(total - d.syscallSeconds),
          syscallMicros,
          syscallCount: d.syscallCount,
          workerMicros: times?.workerMicros ?? null,
          pipeMicros: times?.pipeMicros ?? null,
          gcMicros: times?.gcMicros ?? null,
          replay: (deliver ?? result)?.replay === true,
          abandoned: d.abandoned,
        });
      },
    };
  },
};
