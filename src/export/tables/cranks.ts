/**
 * `cranks` (SQLite `crank`): one row per crank, with the figures of its
 * `--timing` header (what `top` ranks) and where its time went (the crank
 * model's time split, docs/time-split.md): the parts that are not within
 * another (page-in, vat, syscalls, pipe, snapshot, kernel, unknown) add up
 * to `totalMicros` exactly, a null one counted as 0.
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
  pageInMicros: number | null;
  replayMicros: number | null;
  vatMicros: number | null;
  pipeMicros: number | null;
  snapshotMicros: number | null;
  kernelMicros: number | null;
  unknownMicros: number | null;
  gcMicros: number | null;
  abandoned: boolean;
}

export const cranks: TableDef<CrankRow> = {
  name: 'cranks',
  ofCranks: true,
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
    { name: 'totalMicros', type: 'BIGINT', nullable: true, doc: 'endTime - startTime, whole µs (`top`\'s total): each time rounded to µs first, then subtracted' },
    { name: 'localMicros', type: 'BIGINT', nullable: true, doc: 'totalMicros less syscallMicros (`top`\'s local)' },
    { name: 'syscallMicros', type: 'BIGINT', nullable: false, doc: 'time in its live syscalls, each syscall to its result, whole µs: the syscalls part of the time split (`top`\'s syscall, which rounds the sum of the times instead, give or take a few µs)' },
    { name: 'syscallCount', type: 'BIGINT', nullable: false, doc: 'its live syscalls (a transcript replay\'s are in `syscalls`, flagged `replay`, not counted here)' },
    { name: 'deliveries', type: 'BIGINT', nullable: false, doc: 'its deliver entries (a message, then maybe a bringOutYourDead; replays included)' },
    { name: 'computrons', type: 'BIGINT', nullable: true, doc: 'the last deliver-result\'s computrons, as the crank header prints them' },
    { name: 'pageInMicros', type: 'BIGINT', nullable: true, doc: 'page-in: bringing the vat online before a delivery (worker start, snapshot load, transcript replay), whole µs; null (as every part) without its crank-start or crank-finish' },
    { name: 'replayMicros', type: 'BIGINT', nullable: true, doc: 'of pageInMicros, replaying the vat\'s transcript (start-replay to finish-replay)' },
    { name: 'vatMicros', type: 'BIGINT', nullable: true, doc: 'vat: the worker running vat code, by the XS worker\'s own clock (a local worker: its deliveries less their syscalls); null when a delivery\'s worker timestamps are unusable (see unknownMicros)' },
    { name: 'pipeMicros', type: 'BIGINT', nullable: true, doc: 'pipe: messages between kernel and worker (0 for a local worker); null with vatMicros' },
    { name: 'snapshotMicros', type: 'BIGINT', nullable: true, doc: 'snapshot: from the last deliver-result to the heap-snapshot-save, and on to the worker\'s reload when the save restarts it' },
    { name: 'kernelMicros', type: 'BIGINT', nullable: true, doc: 'kernel: the rest (routing, c-lists, queues, gaps between deliveries, commit); a routing crank\'s whole total' },
    { name: 'unknownMicros', type: 'BIGINT', nullable: true, doc: 'vat and pipe together where they cannot be told apart (0 when vatMicros is known): pageIn + vat + syscall + pipe + snapshot + kernel + unknown = totalMicros, nulls as 0' },
    { name: 'gcMicros', type: 'BIGINT', nullable: true, doc: 'of vatMicros, its bringOutYourDead deliveries\' garbage collection (the worker\'s time before the first syscall); null without one, or when one\'s is unknown' },
    { name: 'abandoned', type: 'BOOLEAN', nullable: false, doc: 'its crank ran, was not committed, and ran again after a restart: the later run is the one that counts (`stats` counts only that; filter with `NOT abandoned`)' },
  ],
  sqliteIndexes: [['crankNum']],
  rows(ctx, emit) {
    return {
      crank(crank, deliveries, abandoned) {
        const start = numberOrNull(crankStartTime(crank));
        const end = crank.finish ? numberOrNull(crank.finish.time) : null;
        const { total, syscall, syscallCount, computrons } = crank.timing;
        const parts = crank.parts;
        // The split's whole µs where the crank has them (each time rounded first: the parts add up to the total exactly).
        const totalMicros = parts ? parts.total : crank.finish ? micros(total) : null;
        const syscallMicros = parts ? parts.syscall : (micros(syscall) ?? 0);
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
          totalMicros,
          localMicros: totalMicros === null ? null : totalMicros - syscallMicros,
          syscallMicros,
          syscallCount,
          deliveries: deliveries.length,
          computrons: numberOrNull(computrons),
          // One object literal of one shape (no spread): a row per crank, the CSV text reads its fields by name.
          pageInMicros: parts ? parts.pageIn : null,
          replayMicros: parts ? parts.replay : null,
          vatMicros: parts?.vat ?? null,
          pipeMicros: parts?.pipe ?? null,
          snapshotMicros: parts ? parts.snapshot : null,
          kernelMicros: parts ? parts.kernel : null,
          unknownMicros: parts ? parts.unknown : null,
          gcMicros: parts?.gc ?? null,
          abandoned,
        });
      },
    };
  },
};
