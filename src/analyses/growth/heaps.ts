/**
 * Each vat's heap as its worker last reported it: `currentHeapCount` and
 * `allocate` from a delivery's `deliver-result` metering (`dr[2]`, XS
 * workers), and the `uncompressedSize` of its last `heap-snapshot-save`.
 * A local worker reports none: its figures stay undefined.
 */
import type { DeliverResultEntry, SlogEntry } from '../../scan/entry-types.js';

export interface VatHeap {
  heapCount?: number;
  allocate?: number;
  snapshotSize?: number;
}

export class VatHeaps {
  readonly byVat = new Map<string, VatHeap>();

  /** A live delivery's result: its metering, where the worker gives it. */
  deliverResult(entry: DeliverResultEntry): void {
    const usage = Array.isArray(entry.dr) ? entry.dr[2] : undefined;
    if (typeof entry.vatID !== 'string' || usage === null || typeof usage !== 'object') return;
    const heap = this.vat(entry.vatID);
    if (typeof usage.currentHeapCount === 'number') heap.heapCount = usage.currentHeapCount;
    if (typeof usage.allocate === 'number') heap.allocate = usage.allocate;
  }

  /** A `heap-snapshot-save`: the snapshot's uncompressed size. */
  snapshotSave(entry: SlogEntry): void {
    const { vatID, uncompressedSize } = entry as { vatID?: unknown; uncompressedSize?: unknown };
    if (typeof vatID === 'string' && typeof uncompressedSize === 'number') this.vat(vatID).snapshotSize = uncompressedSize;
  }

  private vat(vatID: string): VatHeap {
    let heap = this.byVat.get(vatID);
    if (!heap) {
      heap = {};
      this.byVat.set(vatID, heap);
    }
    return heap;
  }
}
