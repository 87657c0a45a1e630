/**
 * The front of every crank analysis: a CrankSink that looks at every entry and
 * every crank of the slog (so vat names learned anywhere apply, and the slog's
 * wall span is known), and hands on only the cranks a `CrankSelection` keeps.
 *
 * It needs no separate `observe` hook: names are learned from the outside
 * entries and from each crank's start and items before the crank is matched,
 * which is the same order the text render learns them in.
 */
import type { CrankSink } from '../../model/assembler.js';
import type { Crank, CrankItem } from '../../model/crank.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import { VatNames } from '../../model/vats.js';
import { CrankSelection, type SelectionSpec } from './selection.js';
import type { Reads } from '../../scan/reads.js';

/** A stretch of wall-clock time, from slog `time` fields (seconds since the epoch). */
export interface TimeSpan {
  /** The first and the last entry time, seconds since the epoch. */
  first: number;
  last: number;
  /** last - first, in microseconds. */
  micros: number;
}

/** What SelectedCranks reads: the time of every crank entry (for the wall spans). */
export const SPAN_READS: Reads = {
  'crank-start': ['time'],
  'crank-finish': ['time'],
  syscall: ['time'],
  'syscall-result': ['time'],
  deliver: ['time'],
  'deliver-result': ['time'],
  clist: ['time'],
};

export interface SelectedCranksConfig {
  /** Which cranks to hand on (default: all). */
  selection?: SelectionSpec;
  /** Names that win over the slog's (an annotation file's `vatNames`). */
  vatNames?: ReadonlyMap<string, string>;
  /** Receives each selected crank, in slog order. */
  onCrank: (crank: Crank) => void;
  /**
   * Told when the open crank spills (model/assembler.ts), whether it will
   * be selected or not: the analysis folds the crank's held syscalls into
   * its figures for that crank, and adds them in if the crank comes to
   * `onCrank`. Without it, the front does not spill (every item is kept).
   */
  onSpill?: (crank: Crank) => void;
}

/** A crank's first and last entry time so far. */
interface Times {
  first: number | undefined;
  last: number | undefined;
}

/** Notes in `times` the time of each item from `from` on (a syscall's call, then its result). */
function itemTimes(crank: Crank, from: number, times: Times): void {
  const items = crank.items;
  for (let i = from; i < items.length; i += 1) {
    const item = items[i] as CrankItem;
    let time: unknown;
    if (item.kind === 'entry') time = item.entry.time;
    else {
      time = item.call.time;
      if (typeof time === 'number' && Number.isFinite(time)) {
        times.first ??= time;
        times.last = time;
      }
      time = item.result?.time;
    }
    if (typeof time === 'number' && Number.isFinite(time)) {
      times.first ??= time;
      times.last = time;
    }
  }
}

export class SelectedCranks implements CrankSink {
  readonly vats: VatNames;
  readonly selection: CrankSelection;
  /** Every crank seen, and those selected. */
  cranksSeen = 0;
  cranksSelected = 0;
  private readonly onCrank: (crank: Crank) => void;
  /** The times of cranks' spilled items (a crank the restart logic holds may spill after the next began: one each). */
  private readonly spilledTimes = new WeakMap<Crank, Times>();
  /** Present when the analysis behind spills too. */
  readonly spill: ((crank: Crank) => void) | undefined;
  private firstTime: number | undefined;
  private lastTime: number | undefined;
  private selFirst: number | undefined;
  private selLast: number | undefined;
  /** The current crank's first and last entry time. */
  private crankFirst: number | undefined;
  private crankLast: number | undefined;

  constructor(config: SelectedCranksConfig) {
    this.vats = new VatNames(config.vatNames);
    this.selection = new CrankSelection(config.selection ?? {}, this.vats);
    this.onCrank = config.onCrank;
    const onSpill = config.onSpill;
    this.spill = onSpill
      ? (crank) => {
          let times = this.spilledTimes.get(crank);
          if (!times) {
            times = { first: undefined, last: undefined };
            this.spilledTimes.set(crank, times);
          }
          itemTimes(crank, crank.spilled ?? 0, times);
          onSpill(crank);
        }
      : undefined;
  }

  entry(entry: SlogEntry): void {
    this.vats.observe(entry);
    this.noteTime(entry.time);
  }

  crank(crank: Crank): void {
    this.cranksSeen += 1;
    this.crankFirst = undefined;
    this.crankLast = undefined;
    if (crank.start) {
      this.vats.observe(crank.start);
      this.noteTime(crank.start.time);
    }
    // The crank's first and last times, kept here and noted once (every item has one, mostly).
    let first: number | undefined;
    let last: number | undefined;
    // Items a spill saw: their times were noted then (their names are learned now, in crank order).
    const seen = crank.spilled ?? 0;
    if (crank.spilled !== undefined) {
      const times = this.spilledTimes.get(crank);
      first = times?.first;
      last = times?.last;
    }
    const items = crank.items;
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as CrankItem;
      let time: unknown;
      if (item.kind === 'entry') {
        const entry = item.entry;
        // Only these name vats (VatNames.observe).
        if (entry.type === 'create-vat' || entry.type === 'crank-start') this.vats.observe(entry);
        if (i < seen) continue;
        time = entry.time;
      } else {
        time = item.call.time;
        if (typeof time === 'number' && Number.isFinite(time)) {
          first ??= time;
          last = time;
        }
        time = item.result?.time;
      }
      if (typeof time === 'number' && Number.isFinite(time)) {
        first ??= time;
        last = time;
      }
    }
    if (first !== undefined) {
      this.noteTime(first);
      this.noteTime(last);
    }
    if (crank.finish) this.noteTime(crank.finish.time);
    if (!this.selection.matches(crank)) return;
    this.cranksSelected += 1;
    this.selFirst ??= this.crankFirst;
    if (this.crankLast !== undefined) this.selLast = this.crankLast;
    this.onCrank(crank);
  }

  /** From the slog's first entry time to its last. */
  slogSpan(): TimeSpan | undefined {
    return span(this.firstTime, this.lastTime);
  }

  /** From the first selected crank's start to the last selected crank's last entry. */
  selectedSpan(): TimeSpan | undefined {
    return span(this.selFirst, this.selLast);
  }

  private noteTime(time: unknown): void {
    if (typeof time !== 'number' || !Number.isFinite(time)) return;
    this.firstTime ??= time;
    this.lastTime = time;
    this.crankFirst ??= time;
    this.crankLast = time;
  }
}

function span(first: number | undefined, last: number | undefined): TimeSpan | undefined {
  if (first === undefined || last === undefined) return undefined;
  return { first, last, micros: (last - first) * 1_000_000 };
}
