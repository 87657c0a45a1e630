/**
 * `slogulate blocks [files...]`: one line per chain block (height, time,
 * runs, cranks, deliveries, computrons, beans, end-block and commit time,
 * heap after commit, inbound actions), or per N cranks / per benchmark round
 * for a slog without blocks; `--follow` prints each block as it commits.
 * The rows and their forms are in analyses/chain/blocks.ts; docs/chain.md.
 */
import { Option, type Command } from 'commander';
import type { BlockRow } from '../../analyses/chain/blocks.js';
import { BLOCK_COLUMNS, blockJson, blockSplitColumns } from '../../analyses/chain/block-text.js';
import { GROUP_COLUMNS, GROUP_SPLIT_COLUMNS } from '../../analyses/chain/crank-groups.js';
import { chainViewOf, crankGroupsOf } from '../../run/chain.js';
import { CliError, EXIT_OK, EXIT_USAGE, warn } from '../errors.js';
import { parsePositiveInt } from '../common-options.js';
import { chainRowOptions, ChainRows, rowFilters, type ChainRowsCliOptions } from '../chain-rows.js';
import { passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { PART_SORT_KEYS, partSortValue } from '../../analyses/chain/part-figures.js';

/** What `blocks --sort` ranks by. */
export const BLOCK_SORT_KEYS = ['computrons', 'cranks', 'time', ...PART_SORT_KEYS] as const;

interface BlocksCliOptions extends ChainRowsCliOptions {
  every?: number;
  roundMarks?: boolean;
  split?: boolean;
  average?: number;
}

/** A block's (or group's) figure for --sort: `time` is the seconds SwingSet worked on it. */
function sortValue(row: BlockRow, key: string): number {
  if (key === 'computrons') return row.computrons;
  if (key === 'cranks') return row.cranks;
  if (key === 'time') return row.seconds ?? -Infinity;
  return partSortValue(row.parts, key) ?? -Infinity;
}

export function register(program: Command): Command {
  const cmd = program
    .command('blocks')
    .description(SUMMARIES.blocks)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin');
  for (const opt of chainRowOptions('blocks', BLOCK_SORT_KEYS, 'computrons; cranks; time (seconds SwingSet worked on the block: end-block-start to -finish); crank-time or a part (snapshot, page-in, vat...): its cranks\' µs')) {
    cmd.addOption(opt);
  }
  cmd
    .addOption(new Option('--every <n>', 'for a slog without blocks: a line per n cranks').argParser(parsePositiveInt).conflicts('roundMarks'))
    .option('--round-marks', 'for a slog without blocks: a line per benchmark round (Benchmark "NAME" round N start/end crank C)')
    .option('--split', "where each block's time went: cosmos, end-block, commit, the interval and the share of it processing, and its cranks' time by part")
    .addOption(new Option('--average <n>', 'with --split: trailing averages over the last n blocks (implies --split; in --json, `averages`)').argParser(parsePositiveInt));
  cmd.addHelpText(
    'after',
    `
Runs by phase: L leftover, F forced, P priority, T timer, I inbound, C cleanup,
? not said (older nodes); I3: three inbound runs. Times are seconds; heap is the kernel's heapUsed after
the commit. A block run again after a restart says "again"; the execution the
restart abandoned says "not committed (restart)". --json prints JSON lines
(version 1, docs/chain.md).
--split: cosmos is begin-block to end-block-start, interval the
end-block-finish of the block before to this one's, proc% the share of it
from begin-block to end-block-finish (as monitor-slog-block-time.py), then
the cranks' time by part (docs/time-split.md).
Examples:
  slogulate blocks chain.slog
  slogulate blocks --busy --sort computrons -n 10 chain.slog
  slogulate blocks --follow chain.slog                live: a line per block as it commits
  slogulate blocks --split --average 20 chain.slog    block times, averages, crank time by part
  slogulate blocks --every 250 benchmark.slog         a slog without blocks`,
  );
  cmd.action(async (files: string[], _opts: BlocksCliOptions, command: Command) => {
    const opts = command.optsWithGlobals<BlocksCliOptions>();
    const grouped = opts.every !== undefined || opts.roundMarks === true;
    if (grouped && opts.blocks !== undefined) throw new CliError('--blocks selects chain blocks: not with --every or --round-marks', EXIT_USAGE);
    if (grouped && opts.average !== undefined) throw new CliError('--average averages chain blocks: not with --every or --round-marks', EXIT_USAGE);
    const split = opts.split === true || opts.average !== undefined;
    const rows = new ChainRows<BlockRow>(files, opts, {
      columns: grouped ? (split ? GROUP_SPLIT_COLUMNS : GROUP_COLUMNS) : split ? blockSplitColumns(opts.average !== undefined) : BLOCK_COLUMNS,
      json: blockJson,
      sortValue,
      keep: rowFilters(opts, (row) => row.cranks > 0),
    });
    const result = await rows.run((hooks) =>
      passOrFail(
        grouped
          ? crankGroupsOf({ ...hooks, ...(opts.roundMarks ? { roundMarks: true } : { every: opts.every }), onGroup: (row) => rows.add(row) })
          : chainViewOf({ ...hooks, ...(opts.average === undefined ? {} : { average: opts.average }), onBlock: (row) => rows.add(row) }),
      ),
    );
    if (grouped) {
      for (const w of result.rounds?.unendedWarnings(result.pass.name) ?? []) warn(w);
      if (result.rounds && result.rounds.count === 0) {
        throw new CliError(`${result.pass.name} (console entries): no benchmark round marks (Benchmark "NAME" round N start crank C); drop --round-marks`, EXIT_USAGE);
      }
    } else if (!result.chain) {
      warn(`${result.pass.name}: no chain blocks (cosmic-swingset-begin-block entries); for a slog without blocks use --every N or --round-marks`);
    }
    await rows.close();
    process.exitCode = EXIT_OK;
  });
  return cmd;
}
