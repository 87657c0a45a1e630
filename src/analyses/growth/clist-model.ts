/**
 * Every vat's c-list as the kernel's own `clist` entries build it: `import`
 * and `export` add a (kref, vref) pair, `drop` removes it; a terminated
 * vat's cleanup (`vat-cleanup-complete`) removes what is left (the kernel
 * logs no drop for its exports). A message delivered to a vat's export that
 * the c-list does not hold proves the entry was made where the slog does not
 * show it (a static vat's root object, exported at kernel start, before the
 * slog): it is added then, as `before the slog`. A drop of a pair never
 * added removes nothing, and is counted. A kernel that starts over from
 * nothing (`reset`: a restart that ran again from the slog's first crank)
 * has no c-lists left.
 *
 * Memory: one record per alive entry, and per vat ever seen; nothing per
 * crank.
 */
import { clistKind, zeroCounts, type ClistKind } from './clist-kinds.js';

/** Where an alive entry came in. */
export interface EntryOrigin {
  /** The crank (NaN: outside a crank, or the slog does not say). */
  crank: number;
  /** What carried it: `deliver makeVault`, `send deposit`, `resolve`, `notify`, `before the slog`. */
  via: string;
}

export interface AliveEntry extends EntryOrigin {
  vref: string;
  kind: ClistKind;
}

/** One vat's c-list. */
export class VatClist {
  /** Alive entries by kref (a vat's c-list maps each kref to one vref). */
  readonly entries = new Map<string, AliveEntry>();
  readonly counts = zeroCounts();
  /** `add`s and `drop`s applied; drops of pairs never added. */
  added = 0;
  dropped = 0;
  droppedUnknown = 0;
  /** A `terminate` entry named the vat; its cleanup completed. */
  terminated = false;
  cleanedUp = false;

  constructor(readonly vatID: string) {}

  get size(): number {
    return this.entries.size;
  }
}

/** Told of each entry as it stops being alive (the export's `clist` rows): how, and in which crank (NaN: outside cranks). */
export type RemovedListener = (vatID: string, kref: string, entry: AliveEntry, how: RemovedHow, crank: number) => void;

/** How an entry stopped being alive: dropped, its vat cleaned up, replaced by another vref for its kref, or its kernel started over. */
export type RemovedHow = 'drop' | 'cleanup' | 'replaced' | 'restart';

export class ClistModel {
  readonly vats = new Map<string, VatClist>();
  onRemoved: RemovedListener | undefined;
  /** How many vats' c-lists hold each kref. */
  private readonly holders = new Map<string, number>();
  /** Distinct krefs held, by their kernel kind (ko, kp, kd). */
  readonly kernelCounts = { objects: 0, promises: 0, devices: 0 };

  vat(vatID: string): VatClist {
    let vat = this.vats.get(vatID);
    if (!vat) {
      vat = new VatClist(vatID);
      this.vats.set(vatID, vat);
    }
    return vat;
  }

  /** An `import` or `export`: the pair is alive (a pair given again keeps its first origin). */
  add(vatID: string, kref: string, vref: string, origin: EntryOrigin): void {
    const kind = clistKind(vref);
    if (kind === undefined) return;
    const vat = this.vat(vatID);
    vat.added += 1;
    const had = vat.entries.get(kref);
    if (had && had.vref === vref) return;
    if (had) this.remove(vat, kref, had, 'replaced', origin.crank);
    vat.entries.set(kref, { vref, kind, ...origin });
    vat.counts[kind] += 1;
    this.hold(kref);
  }

  /** A `drop`: the pair is gone (a pair not held removes nothing, and is counted). */
  drop(vatID: string, kref: string, crank: number): void {
    const vat = this.vat(vatID);
    vat.dropped += 1;
    const had = vat.entries.get(kref);
    if (!had) {
      vat.droppedUnknown += 1;
      return;
    }
    this.remove(vat, kref, had, 'drop', crank);
  }

  /** Does the vat's c-list hold this kref? */
  holds(vatID: string, kref: string): boolean {
    return this.vats.get(vatID)?.entries.has(kref) === true;
  }

  /** A `terminate`: the vat is marked; its c-list stays until its cleanup completes. */
  terminate(vatID: string): void {
    this.vat(vatID).terminated = true;
  }

  /** `vat-cleanup-complete`: the terminated vat's c-list is gone. */
  cleanupComplete(vatID: string, crank: number): void {
    const vat = this.vat(vatID);
    for (const [kref, entry] of vat.entries) this.remove(vat, kref, entry, 'cleanup', crank);
    vat.terminated = true;
    vat.cleanedUp = true;
  }

  /** The kernel starts over from nothing (crank `crank` ran again, and nothing before it was committed): every entry goes, and every vat. */
  reset(crank: number): void {
    for (const vat of this.vats.values()) for (const [kref, entry] of vat.entries) this.remove(vat, kref, entry, 'restart', crank);
    this.vats.clear();
  }

  /** Entries alive in every c-list. */
  get total(): number {
    let n = 0;
    for (const vat of this.vats.values()) n += vat.size;
    return n;
  }

  private remove(vat: VatClist, kref: string, entry: AliveEntry, how: RemovedHow, crank: number): void {
    this.onRemoved?.(vat.vatID, kref, entry, how, crank);
    vat.entries.delete(kref);
    vat.counts[entry.kind] -= 1;
    this.release(kref);
  }

  private hold(kref: string): void {
    const n = this.holders.get(kref) ?? 0;
    this.holders.set(kref, n + 1);
    if (n === 0) this.countKernel(kref, 1);
  }

  private release(kref: string): void {
    const n = (this.holders.get(kref) ?? 1) - 1;
    if (n > 0) {
      this.holders.set(kref, n);
      return;
    }
    this.holders.delete(kref);
    this.countKernel(kref, -1);
  }

  private countKernel(kref: string, by: number): void {
    if (kref.startsWith('ko')) this.kernelCounts.objects += by;
    else if (kref.startsWith('kp')) this.kernelCounts.promises += by;
    else if (kref.startsWith('kd')) this.kernelCounts.devices += by;
  }
}
