/**
 * `snapshots` (SQLite `snapshot`): one row per `heap-snapshot-save` (the
 * kernel saved an XS worker's heap after a delivery) and
 * `heap-snapshot-load` (a worker started from a snapshot), read by
 * model/snapshots.ts's `snapshotOf`. They are not crank entry types: inside
 * a crank they are among its items (the crank's number and block), outside
 * one (a vat loaded while the kernel starts) they come to the `entry` hook,
 * and their block is the one a ChainTracker of the table's own reads from
 * the entries outside cranks (null between blocks).
 */
import { ChainTracker } from '../../model/chain.js';
import type { Crank } from '../../model/crank.js';
import { snapshotOf, type SnapshotEvent } from '../../model/snapshots.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import type { ExportContext, TableDef } from '../schema.js';

export interface SnapshotRow {
  kind: string;
  vatID: string | null;
  vatName: string | null;
  crankNum: number | null;
  blockNum: number | null;
  position: number | null;
  uncompressedSize: number | null;
  compressedSize: number | null;
  compressMicros: number | null;
  dbSaveMicros: number | null;
  archiveWriteMicros: number | null;
  uncompressedSizeDelta: number | null;
  restartWorker: boolean | null;
  time: number | null;
  abandoned: boolean;
}

/** A block's height, null where the slog does not say it (NaN: a bootstrap block whose height is not known yet). */
const heightOrNull = (height: number | undefined): number | null => (height === undefined || Number.isNaN(height) ? null : height);

function snapshotRow(ctx: ExportContext, s: SnapshotEvent, crankNum: number | null, blockNum: number | null, abandoned: boolean): SnapshotRow {
  return {
    kind: s.kind,
    vatID: s.vatID ?? null,
    vatName: s.vatID === undefined ? null : ctx.vats.lookup(s.vatID) ?? null,
    crankNum,
    blockNum,
    position: s.position ?? null,
    uncompressedSize: s.uncompressedSize ?? null,
    compressedSize: s.compressedSize ?? null,
    compressMicros: s.compressMicros ?? null,
    dbSaveMicros: s.dbSaveMicros ?? null,
    archiveWriteMicros: s.archiveWriteMicros ?? null,
    uncompressedSizeDelta: s.uncompressedSizeDelta ?? null,
    restartWorker: s.restartWorker ?? null,
    time: s.time ?? null,
    abandoned,
  };
}

export const snapshots: TableDef<SnapshotRow> = {
  name: 'snapshots',
  sqliteName: 'snapshot',
  doc: 'one row per heap snapshot an XS worker saved (`heap-snapshot-save`) or started from (`heap-snapshot-load`)',
  columns: [
    { name: 'kind', type: 'VARCHAR', nullable: false, doc: '`save` (heap-snapshot-save) or `load` (heap-snapshot-load)' },
    { name: 'vatID', type: 'VARCHAR', nullable: true, doc: 'the vat whose worker it is' },
    { name: 'vatName', type: 'VARCHAR', nullable: true, doc: 'the vat\'s name, if the slog names it' },
    { name: 'crankNum', type: 'BIGINT', nullable: true, doc: 'the crank it happened in (a save: after that crank\'s delivery; a load: paging the vat in); null outside cranks (a vat loaded while the kernel starts)' },
    { name: 'blockNum', type: 'BIGINT', nullable: true, doc: 'the chain block height it happened in; null outside blocks' },
    { name: 'position', type: 'BIGINT', nullable: true, doc: 'the vat\'s transcript position the snapshot was taken at (a save\'s endPosition, a load\'s snapPos)' },
    { name: 'uncompressedSize', type: 'BIGINT', nullable: true, doc: 'the heap\'s size, bytes (a load has it in newer slogs only)' },
    { name: 'compressedSize', type: 'BIGINT', nullable: true, doc: 'the snapshot\'s size compressed, bytes (as uncompressedSize)' },
    { name: 'compressMicros', type: 'BIGINT', nullable: true, doc: 'a save\'s compressSeconds, whole µs' },
    { name: 'dbSaveMicros', type: 'BIGINT', nullable: true, doc: 'a save\'s dbSaveSeconds, whole µs' },
    { name: 'archiveWriteMicros', type: 'BIGINT', nullable: true, doc: 'a save\'s archiveWriteSeconds (where the node archives snapshots), whole µs' },
    { name: 'uncompressedSizeDelta', type: 'BIGINT', nullable: true, doc: 'a save\'s change of uncompressedSize from the vat\'s previous snapshot, bytes; null for its first' },
    { name: 'restartWorker', type: 'BOOLEAN', nullable: true, doc: 'a save\'s restartWorker: the worker is restarted from the snapshot (the load follows in the same crank)' },
    { name: 'time', type: 'DOUBLE', nullable: true, doc: 'the entry\'s time, seconds since the epoch' },
    { name: 'abandoned', type: 'BOOLEAN', nullable: false, doc: 'its crank ran, was not committed, and ran again after a restart: the later run is the one that counts (`stats` counts only that; filter with `NOT abandoned`)' },
  ],
  sqliteIndexes: [['vatID', 'position']],
  rows(ctx, emit) {
    const chain = new ChainTracker();
    const inCrank = (crank: Crank, abandoned: boolean): void => {
      for (const item of crank.items) {
        if (item.kind !== 'entry') continue;
        const s = snapshotOf(item.entry);
        if (s) emit(snapshotRow(ctx, s, Number.isNaN(crank.crankNum) ? null : crank.crankNum, heightOrNull(crank.block?.height), abandoned));
      }
    };
    return {
      entry(entry: SlogEntry) {
        chain.entry(entry);
        const s = snapshotOf(entry);
        if (s) emit(snapshotRow(ctx, s, null, heightOrNull(chain.block?.height), false));
      },
      crank(crank, _deliveries, abandoned) {
        inCrank(crank, abandoned);
      },
    };
  },
};
