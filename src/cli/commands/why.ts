/**
 * `slogulate why CRANK [files...]`: the chain of causes of a crank back to
 * its run's trigger; `--forward`: the cranks it caused, as a tree, and a
 * summary; `--run H/N`, `--blocks LIST`: the trees of those runs' cranks
 * (src/analyses/why/, docs/why.md).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { inRanges, type CrankRange } from '../../analyses/common/selection.js';
import type { TreeRoot } from '../../analyses/why/forward.js';
import { summaryOf } from '../../analyses/why/forward.js';
import { chainLines, summaryLines, treeLines } from '../../analyses/why/why-text.js';
import { defaultRenderOptions } from '../../render/options.js';
import { commandSettings } from '../../run/pass-settings.js';
import { forwardTreesOf, whyChainOf } from '../../run/why.js';
import { annotationOptions, annotationsFrom, blocksOption, parseNonNegativeInt, rangesFrom } from '../common-options.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';

interface WhyOptions {
  forward?: boolean;
  run?: string;
  blocks?: string;
  annotations?: string;
  annot?: string;
  bigwidth?: number;
  steps?: number;
  out?: string;
  force?: boolean;
}

/** `--steps N`: a whole number from 1. */
function parsePositiveSteps(text: string): number {
  const n = parseNonNegativeInt(text);
  if (n < 1) throw new InvalidArgumentError('at least 1');
  return n;
}

/** `--run 73/2`: block 73's run 2, as the runs' keys say it (analyses/why/step.ts). */
export function runKeyFrom(text: string): string {
  const m = /^(\d+)[/.](\d+)$/.exec(text.trim());
  if (!m) throw new CliError(`--run: "${text}" is not a run (expected HEIGHT/RUN, as \`slogulate runs\` lists them: 73/2)`, EXIT_USAGE);
  return `block ${Number(m[1])} run ${Number(m[2])}`;
}

/** The delivery cranks of one run; the read ends at the first crank of a later run. */
export function runRoot(key: string): TreeRoot {
  let seen = false;
  return {
    select: (_n, run) => run === key,
    over: (_n, run) => {
      if (run === key) seen = true;
      return seen && run !== key;
    },
  };
}

/**
 * The delivery cranks of these blocks' runs (`--blocks`); the read ends
 * when a block above the last one begins: heights grow, and a restart runs
 * again only blocks not committed, which a later block's begin-block says
 * the last one was.
 */
export function blocksRoot(blocks: readonly CrankRange[]): TreeRoot {
  const last = Math.max(...blocks.map((b) => b.to));
  return { select: (_n, _run, height) => height !== undefined && inRanges(blocks, height), pastBlock: (height) => height > last };
}

/** The crank argument, or (with --run or --blocks) the first file. */
function crankAndFiles(crank: string | undefined, files: string[], opts: WhyOptions): { crank: number | undefined; files: string[] } {
  const chosen = opts.run !== undefined || opts.blocks !== undefined;
  if (crank !== undefined && /^\d+$/.test(crank)) {
    if (chosen) throw new CliError('give a crank or --run / --blocks, not both', EXIT_USAGE);
    return { crank: Number(crank), files };
  }
  if (!chosen) throw new CliError(`"${crank ?? ''}" is not a crank number: give one (why 853 chain.slog), or --run HEIGHT/RUN or --blocks LIST`, EXIT_USAGE);
  if (opts.forward) throw new CliError('--forward follows a crank: --run and --blocks show the trees of their runs already', EXIT_USAGE);
  return { crank: undefined, files: crank === undefined ? files : [crank, ...files] };
}

export async function whyCommand(crankArg: string | undefined, fileArgs: string[], opts: WhyOptions): Promise<number> {
  const { crank, files } = crankAndFiles(crankArg, fileArgs, opts);
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
  const annotations = annotationsFrom(opts);
  const options = defaultRenderOptions();
  if (opts.bigwidth !== undefined) options.bigWidth = opts.bigwidth;
  const input = { inputs: files, options, annotations, ...ANALYSIS_REPORTS, settings: commandSettings() };
  let lines: string[];
  if (crank !== undefined && !opts.forward) {
    const { chain, seen, pass } = await passOrFail(whyChainOf({ ...input, crank }));
    if (seen === 'absent') throw new CliError(`crank ${crank} is not in ${pass.name}`, EXIT_FAILURE);
    if (!chain) throw new CliError(`crank ${crank} delivered nothing to a vat and routed nothing (unfinished, or no message in it): why follows deliveries`, EXIT_FAILURE);
    lines = chainLines(chain, opts.steps);
  } else {
    const runKey = opts.run === undefined ? undefined : runKeyFrom(opts.run);
    const blocks = opts.blocks === undefined ? undefined : rangesFrom('--blocks', opts.blocks, 'block');
    const root: TreeRoot =
      crank !== undefined
        ? { crank }
        : runKey !== undefined
          ? runRoot(runKey)
          : blocksRoot(blocks ?? []);
    const { trees, pass } = await passOrFail(forwardTreesOf({ ...input, root }));
    if (!trees.size) {
      const what = crank !== undefined ? `crank ${crank} is not a delivery crank of` : `no delivery crank of ${opts.run !== undefined ? `run ${opts.run}` : `blocks ${opts.blocks}`} is in`;
      throw new CliError(`${what} ${pass.name}`, EXIT_FAILURE);
    }
    lines = [...treeLines(trees), '', ...summaryLines(summaryOf([...trees.walk()].map((at) => at.node.step)))];
  }
  out.write(`${lines.join('\n')}\n`);
  await out.close();
  return EXIT_OK;
}

export function register(program: Command): Command {
  const cmd = program
    .command('why')
    .description(SUMMARIES.why)
    .argument('[crank]', 'the crank (a delivery crank); none with --run or --blocks')
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .option('--forward', 'the cranks the crank caused, directly or not, as a tree, and a summary per vat')
    .option('--steps <n>', 'print at most n steps of the chain back (default: all)', parsePositiveSteps)
    .option('--run <height/run>', "the trees of one chain run's cranks (73/2: block 73, run 2, as `slogulate runs` lists them)")
    .addOption(blocksOption("the trees of these blocks' runs' cranks (heights): 85,100-120"));
  for (const opt of [...annotationOptions(), ...outputOptions()]) cmd.addOption(opt);
  return cmd
    .option('--bigwidth <n>', 'print values longer than n characters as <BIG> (default 200)', parseNonNegativeInt)
    .addHelpText(
      'after',
      `
Examples:
  slogulate why 853 chain.slog                  853's causes back to its run's trigger
  slogulate why --forward 841 chain.slog        what 841 caused, and per vat
  slogulate why --run 73/2 --annotations names.json chain.slog`,
    )
    .action(async (crank: string | undefined, files: string[], _opts: WhyOptions, command: Command) => {
      // The root command has some of these options too (--annotations, --out): read both.
      process.exitCode = await whyCommand(crank, files, command.optsWithGlobals<WhyOptions>());
    });
}
