/**
 * One growth collector (analyses/growth/growth.ts) for the `clist` and
 * `growth` tables of one pass: each table hands it every entry and crank it
 * is given, and the collector takes each once (the extractor gives the
 * tables the same object one after the other), so that the c-lists are
 * rebuilt once however many of the two tables are written.
 */
import type { AliveEntry } from '../../analyses/growth/clist-model.js';
import { GrowthCollector } from '../../analyses/growth/growth.js';
import type { Figures, PeriodRow, PeriodUnit } from '../../analyses/growth/periods.js';
import type { Crank } from '../../model/crank.js';
import type { SlogEntry } from '../../scan/entry-types.js';
import type { ExportContext } from '../schema.js';

type RemovedListener = (vatID: string, kref: string, entry: AliveEntry, how: string, crank: number) => void;
type PeriodListener = (row: PeriodRow, start: Figures, end: Figures, unit: PeriodUnit) => void;

export class GrowthFeed {
  readonly removed: RemovedListener[] = [];
  readonly periods: PeriodListener[] = [];
  readonly collector: GrowthCollector;
  private lastEntry: SlogEntry | undefined;
  private lastCrank: Crank | undefined;
  private ended = false;

  constructor() {
    // Round marks out of place are skipped: an export has no usage error to give.
    this.collector = new GrowthCollector({
      skipBadMarks: true,
      onPeriod: (row, start, end, unit) => {
        for (const listener of this.periods) listener(row, start, end, unit);
      },
    });
    this.collector.clists.onRemoved = (vatID, kref, entry, how, crank) => {
      for (const listener of this.removed) listener(vatID, kref, entry, how, crank);
    };
  }

  entry(entry: SlogEntry, line: number): void {
    if (entry === this.lastEntry) return;
    this.lastEntry = entry;
    this.collector.entry(entry, line);
  }

  /** A crank a restart abandoned changed nothing the kernel kept. */
  crank(crank: Crank, abandoned: boolean): void {
    if (crank === this.lastCrank) return;
    this.lastCrank = crank;
    if (!abandoned) this.collector.crank(crank);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.collector.end();
  }
}

const feeds = new WeakMap<ExportContext, GrowthFeed>();

/** The pass's feed (made by the first table that asks). */
export function growthFeed(ctx: ExportContext): GrowthFeed {
  let feed = feeds.get(ctx);
  if (!feed) {
    feed = new GrowthFeed();
    feeds.set(ctx, feed);
  }
  return feed;
}
