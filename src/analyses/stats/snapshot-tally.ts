/**
 * Heap snapshots per vat: how often the kernel saved and loaded each XS
 * worker's heap, the time each save spent compressing, writing to the
 * database and to an archive, and how the heap grew. The entries
 * (`heap-snapshot-save`, `heap-snapshot-load`) are read by
 * `snapshotOf` (model/snapshots.ts); they reach the aggregate as a crank's
 * items or as entries outside cranks, like replays (replays.ts).
 */
import type { SlogEntry } from '../../scan/entry-types.js';
import { snapshotOf } from '../../model/snapshots.js';
import { NO_VAT } from '../../model/vats.js';

/** The heap snapshots of one vat. */
export interface SnapshotStats {
  vatID: string;
  vatName?: string;
  /** heap-snapshot-save and heap-snapshot-load entries. */
  saves: number;
  loads: number;
  /** The saves' compressSeconds, dbSaveSeconds and archiveWriteSeconds, each in whole µs, summed. */
  compressMicros: number;
  dbSaveMicros: number;
  archiveWriteMicros: number;
  /** The uncompressed size (bytes) of the vat's first and last save that says it; absent when none does. */
  firstUncompressedSize?: number;
  lastUncompressedSize?: number;
  /** The last save's compressed size, bytes; absent when it does not say. */
  lastCompressedSize?: number;
  /** The sum of the saves' uncompressedSizeDelta (bytes; a vat's first save has none). */
  uncompressedSizeDelta: number;
}

interface Acc {
  saves: number;
  loads: number;
  compressMicros: number;
  dbSaveMicros: number;
  archiveWriteMicros: number;
  firstUncompressedSize: number | undefined;
  lastUncompressedSize: number | undefined;
  lastCompressedSize: number | undefined;
  uncompressedSizeDelta: number;
}

export class SnapshotTally {
  private readonly byVat = new Map<string, Acc>();

  /** Any entry, inside a crank or outside: counts the heap snapshots. */
  entry(entry: SlogEntry): void {
    const event = snapshotOf(entry);
    if (!event) return;
    const vatID = event.vatID ?? NO_VAT;
    let acc = this.byVat.get(vatID);
    if (!acc) {
      acc = {
        saves: 0,
        loads: 0,
        compressMicros: 0,
        dbSaveMicros: 0,
        archiveWriteMicros: 0,
        firstUncompressedSize: undefined,
        lastUncompressedSize: undefined,
        lastCompressedSize: undefined,
        uncompressedSizeDelta: 0,
      };
      this.byVat.set(vatID, acc);
    }
    if (event.kind === 'load') {
      acc.loads += 1;
      return;
    }
    acc.saves += 1;
    acc.compressMicros += event.compressMicros ?? 0;
    acc.dbSaveMicros += event.dbSaveMicros ?? 0;
    acc.archiveWriteMicros += event.archiveWriteMicros ?? 0;
    acc.uncompressedSizeDelta += event.uncompressedSizeDelta ?? 0;
    if (event.uncompressedSize !== undefined) {
      acc.firstUncompressedSize ??= event.uncompressedSize;
      acc.lastUncompressedSize = event.uncompressedSize;
    }
    acc.lastCompressedSize = event.compressedSize;
  }

  /** One row per vat, in `order`. */
  rows(name: (vatID: string) => string | undefined, order: (a: string, b: string) => number): SnapshotStats[] {
    return [...this.byVat]
      .sort(([a], [b]) => order(a, b))
      .map(([vatID, acc]) => {
        const vatName = vatID === NO_VAT ? undefined : name(vatID);
        const row: SnapshotStats = {
          vatID,
          ...(vatName === undefined ? {} : { vatName }),
          saves: acc.saves,
          loads: acc.loads,
          compressMicros: acc.compressMicros,
          dbSaveMicros: acc.dbSaveMicros,
          archiveWriteMicros: acc.archiveWriteMicros,
          uncompressedSizeDelta: acc.uncompressedSizeDelta,
        };
        if (acc.firstUncompressedSize !== undefined) row.firstUncompressedSize = acc.firstUncompressedSize;
        if (acc.lastUncompressedSize !== undefined) row.lastUncompressedSize = acc.lastUncompressedSize;
        if (acc.lastCompressedSize !== undefined) row.lastCompressedSize = acc.lastCompressedSize;
        return row;
      });
  }
}
