/**
 * Heap snapshots as typed events: a `heap-snapshot-save` (the kernel saved
 * an XS worker's heap after a delivery; with `restartWorker`, it restarts
 * the worker from it) or a `heap-snapshot-load` (a worker started from a
 * snapshot). The slog writes them outside the crank entry types, so they
 * reach a consumer as `OtherEntry`s; `snapshotOf` reads one field by field,
 * checking each value's type, once for every view (stats, export, the
 * report, the render's line).
 */
import type { SlogEntry } from '../scan/entry-types.js';
import { micros } from './time-split.js';

export interface SnapshotEvent {
  kind: 'save' | 'load';
  vatID: string | undefined;
  /** The transcript position it was taken at: a save's `endPosition`, a load's `snapPos`. */
  position: number | undefined;
  /** Bytes of the heap, uncompressed and compressed (a load has them in newer slogs). */
  uncompressedSize: number | undefined;
  compressedSize: number | undefined;
  /** A save's `compressSeconds`, `dbSaveSeconds` and `archiveWriteSeconds`, in whole µs. */
  compressMicros: number | undefined;
  dbSaveMicros: number | undefined;
  archiveWriteMicros: number | undefined;
  /** A save's change of uncompressed size from the vat's previous snapshot (null in the slog for a first one: undefined). */
  uncompressedSizeDelta: number | undefined;
  restartWorker: boolean | undefined;
  /** The snapshot's hash: a save's `snapshotID`, a load's `hash`. */
  hash: string | undefined;
  time: number | undefined;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const secondsMicros = (v: unknown): number | undefined => {
  const s = num(v);
  return s === undefined ? undefined : micros(s);
};

/** The snapshot event an entry is, or undefined when it is of another type. */
export function snapshotOf(entry: SlogEntry): SnapshotEvent | undefined {
  if (entry.type !== 'heap-snapshot-save' && entry.type !== 'heap-snapshot-load') return undefined;
  const e = entry as Record<string, unknown>;
  const save = entry.type === 'heap-snapshot-save';
  return {
    kind: save ? 'save' : 'load',
    vatID: str(e.vatID),
    position: num(save ? e.endPosition : e.snapPos),
    uncompressedSize: num(e.uncompressedSize),
    compressedSize: num(e.compressedSize),
    compressMicros: secondsMicros(e.compressSeconds),
    dbSaveMicros: secondsMicros(e.dbSaveSeconds),
    archiveWriteMicros: secondsMicros(e.archiveWriteSeconds),
    uncompressedSizeDelta: num(e.uncompressedSizeDelta),
    restartWorker: typeof e.restartWorker === 'boolean' ? e.restartWorker : undefined,
    hash: str(save ? e.snapshotID : e.hash),
    time: num(e.time),
  };
}
