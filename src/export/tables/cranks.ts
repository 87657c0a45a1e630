/**
 * `cranks` (SQLite `crank`): one row per crank, with the figures of its
 * `--timing` header (what `top` ranks).
 */
import { crankStartTime } from '../../model/crank.js';
import { micros, numberOrNull } from '../fields.js';
import type { TableDef } from '../schema.js';

export interface CrankRow {
  crankNum: number;
  crankType: string | null;
  blockNum: number | null;
  messageType: string | null;
  vatID: string | null;
  vatName: string | null;
  startTime: number | null;
  endTime: number | null;
  totalMicros: number | null;
  localMicros: number | null;
  syscallMicros: number;
  syscallCount: number;
  deliveries: number;
  computrons: number | null;
  abandoned: boolean;
}

export const cranks: TableDef<CrankRow> = {
  name: 'cranks',
  sqliteName: 'crank',
  doc: 'one row per crank (crank-start to crank-finish), delivery and routing alike',
  columns: [
    { name: 'crankNum', type: 'BIGINT', nullable: false, doc: 'the crank number', mezzanine: 'delivery.crankNum' },
    { name: 'blockNum', type: 'BIGINT', nullable: true, doc: 'the chain block height it ran in; null outside blocks (a kernel without a chain)' },
    { name: 'crankType', type: 'VARCHAR', nullable: true, doc: '`delivery` (a vat runs) or `routing` (the kernel moves a message)' },
    { name: 'messageType', type: 'VARCHAR', nullable: true, doc: 'the kernel queue message it handles: `send`, `notify`, `startVat`, `create-vat`, `bringOutYourDead`, ...' },
    { name: 'vatID', type: 'VARCHAR', nullable: true, doc: 'its vat (crank-start, else its message, else the first entry naming one)' },
    { name: 'vatName', type: 'VARCHAR', nullable: true, doc: 'the vat\'s name, if the slog names it' },
    { name: 'startTime', type: 'DOUBLE', nullable: true, doc: 'crank-start\'s time (without one: its first entry\'s): seconds since the epoch' },
    { name: 'endTime', type: 'DOUBLE', nullable: true, doc: 'crank-finish\'s time; null when the slog ends inside the crank' },
    { name: 'totalMicros', type: 'BIGINT', nullable: true, doc: 'endTime - startTime, whole µs (`top`\'s total)' },
    { name: 'localMicros', type: 'BIGINT', nullable: true, doc: 'total less the time in syscalls, whole µs (`top`\'s local)' },
    { name: 'syscallMicros', type: 'BIGINT', nullable: false, doc: 'time in its syscalls, whole µs (`top`\'s syscall)' },
    { name: 'syscallCount', type: 'BIGINT', nullable: false, doc: 'its syscalls, replayed ones included' },
    { name: 'deliveries', type: 'BIGINT', nullable: false, doc: 'its deliver entries (a message, then maybe a bringOutYourDead; replays included)' },
    { name: 'computrons', type: 'BIGINT', nullable: true, doc: 'the last deliver-result\'s computrons, as the crank header prints them' },
    { name: 'abandoned', type: 'BOOLEAN', nullable: false, doc: 'its crank ran, was not committed, and ran again after a restart: the later run is the one that counts (`stats` counts only that; filter with `NOT abandoned`)' },
  ],
  sqliteIndexes: [['crankNum']],
  rows(ctx, emit) {
    return {
      crank(crank, deliveries, abandoned) {
        const start = numberOrNull(crankStartTime(crank));
        const end = crank.finish ? numberOrNull(crank.finish.time) : null;
        const { total, syscall, syscallCount, computrons } = crank.timing;
        const vatID = crank.vatID ?? null;
        const message = crank.start?.message;
        emit({
          crankNum: crank.crankNum,
          blockNum: crank.block?.height ?? null,
          crankType: typeof crank.crankType === 'string' ? crank.crankType : null,
          messageType: typeof message?.type === 'string' ? message.type : typeof crank.start?.messageType === 'string' ? crank.start.messageType : null,
          vatID,
          vatName: vatID === null ? null : ctx.vats.lookup(vatID) ?? null,
          startTime: start,
          endTime: end,
          totalMicros: crank.finish ? micros(total) : null,
          localMicros: crank.finish ? micros(total - syscall) : null,
          syscallMicros: micros(syscall) ?? 0,
          syscallCount,
          deliveries: deliveries.length,
          computrons: numberOrNull(computrons),
          abandoned,
        });
      },
    };
  },
};
