/**
 * A table of small integer facts per kref, stored in pages of Int32 rows:
 * one page holds 256 consecutive serial numbers of one kind (ko, kp or kd),
 * allocated when the first of them is written. Krefs are handed out in
 * sequence by the kernel, so pages fill up densely; a stray old kref costs
 * one page. Every field reads -1 until it is written.
 */
import { krefKind, krefSerial, type KrefId } from './kref-ids.js';

const PAGE_BITS = 8;
const PAGE_ROWS = 1 << PAGE_BITS;

export class KrefRows {
  /** One map of pages per kind: page number -> rows. */
  private readonly pages: Array<Map<number, Int32Array>> = [new Map(), new Map(), new Map()];
  private rowCount = 0;

  /** `width` fields per row; field 0 must be written for every kref the table holds. */
  constructor(readonly width: number) {}

  private page(id: KrefId, create: boolean): Int32Array | undefined {
    const pages = this.pages[krefKind(id)];
    if (!pages) return undefined;
    const pageNo = krefSerial(id) >>> PAGE_BITS;
    let page = pages.get(pageNo);
    if (!page && create) {
      page = new Int32Array(PAGE_ROWS * this.width).fill(-1);
      pages.set(pageNo, page);
    }
    return page;
  }

  private offset(id: KrefId): number {
    return (krefSerial(id) & (PAGE_ROWS - 1)) * this.width;
  }

  /** Does the table hold this kref (field 0 written)? */
  has(id: KrefId): boolean {
    return this.get(id, 0) !== -1;
  }

  get(id: KrefId, field: number): number {
    const page = this.page(id, false);
    return page ? (page[this.offset(id) + field] as number) : -1;
  }

  set(id: KrefId, field: number, value: number): void {
    const page = this.page(id, true) as Int32Array;
    const at = this.offset(id) + field;
    if (field === 0 && page[at] === -1 && value !== -1) this.rowCount += 1;
    page[at] = value;
  }

  /** Number of krefs held. */
  get size(): number {
    return this.rowCount;
  }

  /** Bytes of all pages. */
  get bytes(): number {
    let total = 0;
    for (const pages of this.pages) for (const page of pages.values()) total += page.byteLength;
    return total;
  }

  /** Every kref held, kd first, then ko, then kp, each by number. */
  *ids(): Generator<KrefId> {
    const kinds = [2, 0, 1];
    for (const kind of kinds) {
      const pages = this.pages[kind] as Map<number, Int32Array>;
      for (const pageNo of [...pages.keys()].sort((a, b) => a - b)) {
        const page = pages.get(pageNo) as Int32Array;
        for (let row = 0; row < PAGE_ROWS; row += 1) {
          if (page[row * this.width] !== -1) yield (((pageNo << PAGE_BITS) | row) * 4 + kind) as KrefId;
        }
      }
    }
  }
}
