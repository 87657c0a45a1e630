/**
 * Transcript replays, counted apart from the work they repeat: when the
 * kernel pages a vat in, it logs `start-replay`, the vat's past deliveries
 * and syscalls again (`replay: true`), then `finish-replay`. They are not
 * deliveries or syscalls of any crank (SLOG-FORMAT.md, "Replays"): the
 * analyses leave them out, and count here, per vat, how often a vat was
 * paged in, how many deliveries that replayed, and how long it took.
 * Beside them, the page-ins of the selected cranks (docs/time-split.md):
 * the cranks of each vat that spent time bringing it online (worker start,
 * snapshot load, replay), and that time, from `crank.parts`.
 */
import type { Crank } from '../../model/crank.js';
import { NO_VAT } from '../../model/vats.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import { vatOf } from '../../scan/entry-types.js';

/** The replays of one vat. */
export interface ReplayStats {
  vatID: string;
  vatName?: string;
  /** Times the vat was paged in (start-replay entries). */
  replays: number;
  /** Deliveries replayed (replayed deliver entries). */
  deliveries: number;
  /** Time from start-replay to finish-replay, summed, µs (wherever the replay ran: in a crank, or as the kernel started). */
  micros: number;
  /** Cranks of the vat with page-in time (crank.parts.pageIn > 0), and that time summed, whole µs. */
  pageIns: number;
  pageInMicros: number;
}

interface Acc {
  replays: number;
  deliveries: number;
  micros: number;
  pageIns: number;
  pageInMicros: number;
}

export class ReplayTally {
  private readonly byVat = new Map<string, Acc>();
  /** The open start-replay of each vat: its time. */
  private readonly open = new Map<string, number>();

  private acc(vatID: string): Acc {
    let acc = this.byVat.get(vatID);
    if (!acc) {
      acc = { replays: 0, deliveries: 0, micros: 0, pageIns: 0, pageInMicros: 0 };
      this.byVat.set(vatID, acc);
    }
    return acc;
  }

  /** Any entry, inside a crank or outside: counts what belongs to replays. */
  entry(entry: SlogEntry): void {
    const vatID = vatOf(entry);
    if (vatID === undefined) return;
    switch (entry.type) {
      case 'start-replay':
        this.acc(vatID).replays += 1;
        if (typeof entry.time === 'number') this.open.set(vatID, entry.time);
        return;
      case 'finish-replay': {
        const start = this.open.get(vatID);
        this.open.delete(vatID);
        const seconds = start !== undefined && typeof entry.time === 'number' ? entry.time - start : (entry as { seconds?: unknown }).seconds;
        if (typeof seconds === 'number' && Number.isFinite(seconds)) this.acc(vatID).micros += seconds * 1_000_000;
        return;
      }
      case 'deliver':
        if ((entry as { replay?: unknown }).replay === true) this.acc(vatID).deliveries += 1;
        return;
      default:
    }
  }

  /** A selected crank: its page-in time, under its vat. */
  crank(crank: Crank): void {
    const pageIn = crank.parts?.pageIn ?? 0;
    if (pageIn <= 0) return;
    const acc = this.acc(crank.vatID ?? NO_VAT);
    acc.pageIns += 1;
    acc.pageInMicros += pageIn;
  }

  get empty(): boolean {
    return this.byVat.size === 0;
  }

  /** One row per vat, in vat order. */
  rows(name: (vatID: string) => string | undefined, order: (a: string, b: string) => number): ReplayStats[] {
    return [...this.byVat]
      .sort(([a], [b]) => order(a, b))
      .map(([vatID, acc]) => {
        const vatName = name(vatID);
        return { vatID, ...(vatName === undefined ? {} : { vatName }), ...acc };
      });
  }
}
