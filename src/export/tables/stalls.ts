/**
 * `stalls` (SQLite `stall`): one row per stall, more than a threshold
 * (`--gap SECONDS`, default 1) between two consecutive entries of the slog,
 * inside a crank or between cranks (model/stalls.ts, docs/time-split.md).
 * A StallDetector sees every entry through the pass's `observe` hook and
 * tells each stall as the entry after it comes: the row is written then,
 * nothing is kept.
 */
import { StallDetector, type Stall } from '../../model/stalls.js';
import type { TableDef } from '../schema.js';

export interface StallRow {
  startTime: number;
  endTime: number;
  micros: number;
  crankNum: number | null;
  blockNum: number | null;
  runNum: number | null;
  before: string;
  after: string;
}

function stallRow(s: Stall): StallRow {
  return {
    startTime: s.startTime,
    endTime: s.endTime,
    micros: s.micros,
    crankNum: s.crankNum ?? null,
    blockNum: s.blockNum ?? null,
    runNum: s.runNum ?? null,
    before: s.before,
    after: s.after,
  };
}

export const stalls: TableDef<StallRow> = {
  name: 'stalls',
  sqliteName: 'stall',
  doc: 'one row per stall: more than `--gap` seconds (default 1) between two consecutive entries of the slog, inside a crank or between cranks',
  columns: [
    { name: 'startTime', type: 'DOUBLE', nullable: false, doc: 'the time of the entry before the gap, seconds since the epoch' },
    { name: 'endTime', type: 'DOUBLE', nullable: false, doc: 'the time of the entry after it' },
    { name: 'micros', type: 'BIGINT', nullable: false, doc: 'the gap, whole µs (each time rounded to µs first)' },
    { name: 'crankNum', type: 'BIGINT', nullable: true, doc: 'the crank open across the gap (crank-start to crank-finish); null between cranks' },
    { name: 'blockNum', type: 'BIGINT', nullable: true, doc: 'the chain block height open across it; null outside blocks' },
    { name: 'runNum', type: 'BIGINT', nullable: true, doc: 'the block\'s run open across it (`runs.run`); null outside runs' },
    { name: 'before', type: 'VARCHAR', nullable: false, doc: 'the type of the entry before the gap' },
    { name: 'after', type: 'VARCHAR', nullable: false, doc: 'the type of the entry after it' },
  ],
  rows(ctx, emit) {
    const detector = new StallDetector((stall) => emit(stallRow(stall)), ctx.stallSeconds);
    return {
      observe(entry, place, facts) {
        detector.observe(entry, place, facts);
      },
    };
  },
};
