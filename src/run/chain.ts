/**
 * The chain view as passes (`slogulate blocks`, `slogulate runs`): every
 * execution of every block and run as it ran (not the analyses' "each crank
 * once" view: a block a restart abandoned has its own row), handed over row
 * by row as the slog streams (analyses/chain/blocks.ts); or, for a slog without
 * blocks, a row per N cranks or per benchmark round (analyses/chain/crank-groups.ts).
 * The command line (cli/commands/blocks.ts, runs.ts) and the tests call these.
 */
import { BLOCKS_READS, BlocksCollector, type BlockRow } from '../analyses/chain/blocks.js';
import { CrankGroups } from '../analyses/chain/crank-groups.js';
import { Rounds } from '../analyses/common/rounds.js';
import type { RunRow } from '../analyses/chain/runs.js';
import { inputsName } from '../source/inputs.js';
import type { SlogSource } from '../source/open.js';
import type { AnalysisInput } from './analyses.js';
import { runPass, type PassResult } from './pass.js';
import { settingsFor } from './pass-settings.js';
import { MarkErrors } from './mark-errors.js';

export interface ChainViewInput extends AnalysisInput {
  /** Opens a path in place of the usual (following a growing file). */
  open?: (path: string) => SlogSource | Promise<SlogSource>;
}

export interface ChainViewResult {
  pass: PassResult;
  /** Did the slog show chain blocks? */
  chain: boolean;
  /** Rows handed over: blocks (or groups) and runs. */
  blocks: number;
  runs: number;
  /** Cranks that ran outside every block (or, per round, outside every round). */
  cranksOutside: number;
  /** Per round: the rounds read (to warn of those without an end mark). */
  rounds?: Rounds;
}

/** Blocks and runs of a chain slog, each row handed over as it ends. */
export async function chainViewOf(
  input: ChainViewInput & { onBlock?: (row: BlockRow) => void; onRun?: (row: RunRow) => void; average?: number },
): Promise<ChainViewResult> {
  const collector = new BlocksCollector({
    ...(input.average === undefined ? {} : { average: input.average }),
    ...(input.onBlock ? { onBlock: input.onBlock } : {}),
    ...(input.onRun ? { onRun: input.onRun } : {}),
  });
  let pass: PassResult;
  try {
    pass = await runPass({ ...input, settings: settingsFor(input), reads: BLOCKS_READS, sink: collector });
  } finally {
    // What was read so far is still handed over (a follow stopped, a file that failed to read).
    collector.end();
  }
  return { pass, chain: collector.chain, blocks: collector.blocks, runs: collector.runs, cranksOutside: collector.cranksOutside };
}

/** The same rows for a slog without blocks: every `every` cranks, or per benchmark round. */
export async function crankGroupsOf(
  input: ChainViewInput & { every?: number; roundMarks?: boolean; onGroup: (row: BlockRow) => void },
): Promise<ChainViewResult> {
  const rounds = input.roundMarks ? new Rounds() : undefined;
  const groups = new CrankGroups({
    ...(rounds ? { rounds } : { every: input.every }),
    slogName: inputsName(input.inputs),
    onGroup: input.onGroup,
  });
  let pass: PassResult;
  try {
    pass = await runPass({ ...input, settings: settingsFor(input), reads: BLOCKS_READS, sink: new MarkErrors(groups) });
  } finally {
    groups.end();
  }
  return { pass, chain: false, blocks: groups.groups, runs: 0, cranksOutside: groups.leftOut, ...(rounds ? { rounds } : {}) };
}
