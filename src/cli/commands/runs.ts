/**
 * `slogulate runs [files...]`: one line per chain run (block, run number,
 * phase, what triggered it, cranks, deliveries, computrons, beans, seconds).
 * The rows and their forms are in analyses/chain/runs.ts; docs/chain.md.
 */
import type { Command } from 'commander';
import { RUN_COLUMNS, RUN_SPLIT_COLUMNS, runJson, type RunRow } from '../../analyses/chain/runs.js';
import { chainViewOf } from '../../run/chain.js';
import { chainRowOptions, ChainRows, rowFilters, type ChainRowsCliOptions } from '../chain-rows.js';
import { EXIT_OK, warn } from '../errors.js';
import { passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { PART_SORT_KEYS, partSortValue } from '../../analyses/chain/part-figures.js';

/** What `runs --sort` ranks by. */
export const RUN_SORT_KEYS = ['computrons', 'cranks', 'time', ...PART_SORT_KEYS] as const;

function sortValue(row: RunRow, key: string): number {
  if (key === 'computrons') return row.computrons;
  if (key === 'cranks') return row.cranks;
  if (key === 'time') return row.seconds ?? -Infinity;
  return partSortValue(row.parts, key) ?? -Infinity;
}

export function register(program: Command): Command {
  const cmd = program
    .command('runs')
    .description(SUMMARIES.runs)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin');
  for (const opt of chainRowOptions('runs', RUN_SORT_KEYS, 'computrons; cranks; time (the run\'s seconds); crank-time or a part (snapshot, page-in, vat...): its cranks\' µs')) cmd.addOption(opt);
  cmd.option('--split', "where each run's crank time went: its cranks' time by part");
  cmd.addHelpText(
    'after',
    `
A run is the kernel's work from a cosmic-swingset-run-start to its run-finish;
its trigger is what came in just before it: a bridge message (source and
message type), a mailbox delivery (sender and message count), the timer, or
the phase's own work (leftover, cleanup, bootstrap). --split prints its
cranks' time by part (docs/time-split.md). --json prints JSON lines
(version 1, docs/chain.md).
Examples:
  slogulate runs chain.slog
  slogulate runs --busy --blocks 100-120 chain.slog
  slogulate runs --busy --split chain.slog
  slogulate runs --sort computrons -n 5 --json chain.slog`,
  );
  cmd.action(async (files: string[], _opts: ChainRowsCliOptions, command: Command) => {
    const opts = command.optsWithGlobals<ChainRowsCliOptions & { split?: boolean }>();
    const rows = new ChainRows<RunRow>(files, opts, {
      columns: opts.split ? RUN_SPLIT_COLUMNS : RUN_COLUMNS,
      json: runJson,
      sortValue,
      keep: rowFilters(opts, (row) => row.cranks > 0),
    });
    const result = await rows.run((hooks) => passOrFail(chainViewOf({ ...hooks, onRun: (row) => rows.add(row) })));
    if (result.runs === 0) warn(`${result.pass.name}: no chain runs (cosmic-swingset-run-start entries)`);
    await rows.close();
    process.exitCode = EXIT_OK;
  });
  return cmd;
}
