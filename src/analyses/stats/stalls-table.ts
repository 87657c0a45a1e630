/**
 * `stats`' table of stalls (stall-list.ts): each gap of more than the
 * threshold between two consecutive entries, when it began, how long it
 * was, the two entry types around it, and the crank, block and run it fell
 * in. Readable times.
 */
import type { StallStats } from './aggregate.js';
import { left, right, time, type StatsTable } from './table-cells.js';

/** An entry time (seconds since the epoch) as ISO, or the number when it is no date. */
function isoTime(t: number): string {
  const d = new Date(t * 1000);
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString();
}

const num = (n: number | undefined): string => (n === undefined ? '' : `${n}`);

export function stallsTable(stalls: StallStats): StatsTable {
  const rows = stalls.list.map((s) => [isoTime(s.startTime), time(s.micros), s.before, s.after, num(s.crankNum), num(s.blockNum), num(s.runNum)]);
  const listed = stalls.list.length < stalls.count ? `; the longest ${stalls.list.length} listed` : '';
  const count = stalls.count === 0 ? 'none' : `${stalls.count} (${time(stalls.totalMicros)} in all${listed})`;
  return {
    totals: 0,
    title: `Stalls (more than ${stalls.gapSeconds} s between two entries)`,
    columns: [left('from'), right('length'), left('before'), left('after'), right('crank'), right('block'), right('run')],
    rows,
    note: `stalls over the whole slog, whatever the selection: ${count}; crank, block, run: those open across the gap`,
  };
}
