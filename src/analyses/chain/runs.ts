/**
 * One row per chain run (`slogulate runs`): a run is what the kernel did
 * between a `cosmic-swingset-run-start` and its `-run-finish` (SLOG-FORMAT.md,
 * "Chain entries as agoric-sdk writes them today"), in a block, of a phase
 * (leftover, forced, priority, timer, inbound, cleanup), triggered by what
 * came in just before it (model/chain.ts: a bridge message, a mailbox
 * delivery, the timer...). The rows are made by the blocks collector
 * (blocks.ts), which follows runs and blocks in one pass; this file holds
 * the run's tally, its row, and its JSON and table forms.
 *
 * Counts are a crank's live work: a crank's deliveries are its `deliver`
 * entries that are not transcript replays, its computrons the sum of its
 * live deliver-results' computrons (crank-figures.ts).
 */
import type { BlockRef, ChainRun, RunTrigger } from '../../model/chain.js';
import { triggerText } from '../../model/chain.js';
import { CrankTally } from './crank-tally.js';
import { partColumns, partFigures, partsJson, type PartFigures } from './part-figures.js';
import { isoSeconds, seconds3, type CellColumn } from './chain-table.js';

/** The version of the JSON lines `runs --json` prints (docs/chain.md); changes only with a new number. */
export const RUNS_JSON_VERSION = 1;

export interface RunRow {
  /** The block's height; null for a run outside any block (a slog cut inside the block's start). */
  height: number | null;
  /** The block's time, seconds since the epoch (null when the slog does not say). */
  blockTime: number | null;
  /** The block ran again after a restart. */
  again: boolean;
  /** `runNum`: from 0 in each block. */
  run: number;
  phase: string;
  trigger: RunTrigger;
  cranks: number;
  /** Live deliveries (not transcript replays). */
  deliveries: number;
  computrons: number;
  /** run-finish.usedBeans (null before the run finished, or when the slog does not say). */
  usedBeans: number | null;
  /** run-finish.seconds, else its time minus run-start's (null when unfinished). */
  seconds: number | null;
  /** The run-finish was seen (false: a restart, or the end of the slog, came first). */
  finished: boolean;
  firstCrank: number | null;
  lastCrank: number | null;
  /** Its cranks' time by part (part-figures.ts). */
  parts: PartFigures;
}

/** One run's cranks as the slog streams by (which run, and its figures from the chain's entries: the ChainRun, model/chain.ts). */
export class RunTally extends CrankTally {
  constructor(
    /** The block its cranks ran in: the run's (its first crank's, for cranks counted before their run was known: blocks.ts). */
    readonly block: BlockRef | undefined,
  ) {
    super();
  }

  /** The row of `run`, once it ended (finished, or cut short). */
  row(run: ChainRun): RunRow {
    return {
      height: this.block && !Number.isNaN(this.block.height) ? this.block.height : null,
      blockTime: this.block?.blockTime ?? null,
      again: this.block?.again ?? false,
      run: run.ref.num,
      phase: run.ref.phase,
      trigger: run.ref.trigger,
      cranks: this.cranks,
      deliveries: this.deliveries,
      computrons: this.computrons,
      usedBeans: run.usedBeans ?? null,
      seconds: run.seconds ?? null,
      finished: run.finished,
      firstCrank: this.firstCrank,
      lastCrank: this.lastCrank,
      parts: partFigures(this.parts),
    };
  }
}

/** A run's JSON line (version RUNS_JSON_VERSION). */
export function runJson(row: RunRow): Record<string, unknown> {
  return {
    version: RUNS_JSON_VERSION,
    height: row.height,
    time: row.blockTime === null ? null : isoSeconds(row.blockTime),
    again: row.again,
    run: row.run,
    phase: row.phase,
    trigger: row.trigger,
    cranks: row.cranks,
    deliveries: row.deliveries,
    computrons: row.computrons,
    usedBeans: row.usedBeans,
    seconds: row.seconds,
    finished: row.finished,
    firstCrank: row.firstCrank,
    lastCrank: row.lastCrank,
    ...partsJson(row.parts),
  };
}

/** What a run's note says: `again` (its block ran again after a restart), `unfinished`. */
function runNote(row: RunRow): string {
  const notes: string[] = [];
  if (row.again) notes.push('again');
  if (!row.finished) notes.push('unfinished');
  return notes.join(' ');
}

/** The runs table's columns (the trigger last: its width varies). */
export const RUN_COLUMNS: ReadonlyArray<CellColumn<RunRow>> = [
  { header: 'height', align: 'right', width: 8, cell: (r) => (r.height === null ? '' : String(r.height)) },
  { header: 'run', align: 'right', width: 3, cell: (r) => String(r.run) },
  { header: 'phase', align: 'left', width: 8, cell: (r) => r.phase },
  { header: 'cranks', align: 'right', width: 6, cell: (r) => String(r.cranks) },
  { header: 'deliveries', align: 'right', width: 10, cell: (r) => String(r.deliveries) },
  { header: 'computrons', align: 'right', width: 11, cell: (r) => String(r.computrons) },
  { header: 'beans', align: 'right', width: 12, cell: (r) => (r.usedBeans === null ? '' : String(r.usedBeans)) },
  { header: 'seconds', align: 'right', width: 7, cell: (r) => (r.seconds === null ? '' : seconds3(r.seconds)) },
  { header: 'note', align: 'left', width: 5, cell: runNote },
  { header: 'trigger', align: 'left', width: 0, cell: (r) => triggerText(r.trigger) },
];

/** The runs' `--split` table: each run's cranks, seconds, and its cranks' time by part (part-figures.ts). */
export const RUN_SPLIT_COLUMNS: ReadonlyArray<CellColumn<RunRow>> = [
  { header: 'height', align: 'right', width: 8, cell: (r) => (r.height === null ? '' : String(r.height)) },
  { header: 'run', align: 'right', width: 3, cell: (r) => String(r.run) },
  { header: 'phase', align: 'left', width: 8, cell: (r) => r.phase },
  { header: 'cranks', align: 'right', width: 6, cell: (r) => String(r.cranks) },
  { header: 'seconds', align: 'right', width: 7, cell: (r) => (r.seconds === null ? '' : seconds3(r.seconds)) },
  ...partColumns<RunRow>((r) => r.parts),
  { header: 'note', align: 'left', width: 5, cell: runNote },
  { header: 'trigger', align: 'left', width: 0, cell: (r) => triggerText(r.trigger) },
];
