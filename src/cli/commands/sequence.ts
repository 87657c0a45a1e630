/**
 * `slogulate sequence [files...]`: a sequence diagram of a selection
 * (`--cranks`, `--blocks`, `--run H/N`, `--why CRANK`: what the crank
 * caused), as Mermaid text or an SVG picture (src/analyses/sequence/,
 * docs/why.md).
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { inRanges } from '../../analyses/common/selection.js';
import { diagramOf } from '../../analyses/sequence/arrows.js';
import { mermaidText } from '../../analyses/sequence/mermaid.js';
import { svgText } from '../../analyses/sequence/svg.js';
import type { TreeRoot } from '../../analyses/why/forward.js';
import { defaultRenderOptions } from '../../render/options.js';
import { commandSettings } from '../../run/pass-settings.js';
import { forwardTreesOf } from '../../run/why.js';
import { annotationOptions, annotationsFrom, blocksOption, parseNonNegativeInt, rangesFrom } from '../common-options.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { blocksRoot, runKeyFrom, runRoot } from './why.js';

interface SequenceOptions {
  cranks?: string;
  blocks?: string;
  run?: string;
  why?: number;
  format?: string;
  maxArrows?: number;
  annotations?: string;
  annot?: string;
  bigwidth?: number;
  out?: string;
  force?: boolean;
}

/** The arrows drawn at most, by default: a diagram past it is too long to read. */
export const MAX_ARROWS = 300;

function rootFrom(opts: SequenceOptions): TreeRoot {
  const given = [opts.cranks, opts.blocks, opts.run, opts.why].filter((x) => x !== undefined).length;
  if (given !== 1) throw new CliError('give one selection: --cranks LIST, --blocks LIST, --run HEIGHT/RUN or --why CRANK', EXIT_USAGE);
  if (opts.why !== undefined) return { crank: opts.why };
  if (opts.run !== undefined) return runRoot(runKeyFrom(opts.run));
  if (opts.blocks !== undefined) return blocksRoot(rangesFrom('--blocks', opts.blocks, 'block'));
  const cranks = rangesFrom('--cranks', opts.cranks as string, 'crank');
  const last = Math.max(...cranks.map((r) => r.to));
  return { select: (n) => inRanges(cranks, n), over: (n) => n > last };
}

export async function sequenceCommand(files: string[], opts: SequenceOptions): Promise<number> {
  const format = opts.format ?? 'mermaid';
  const root = rootFrom(opts);
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
  const annotations = annotationsFrom(opts);
  const options = defaultRenderOptions();
  if (opts.bigwidth !== undefined) options.bigWidth = opts.bigwidth;
  const { trees, pass } = await passOrFail(forwardTreesOf({ inputs: files, options, annotations, root, ...ANALYSIS_REPORTS, settings: commandSettings() }));
  if (!trees.size) throw new CliError(`no delivery crank of ${pass.name} is in the selection`, EXIT_FAILURE);
  const max = opts.maxArrows ?? MAX_ARROWS;
  if (trees.size > max) {
    throw new CliError(
      `${trees.size} deliveries: more than ${max} arrows is too long to read; narrow the selection (--cranks, --run HEIGHT/RUN, --why CRANK) or raise --max-arrows`,
      EXIT_FAILURE,
    );
  }
  const steps = [...trees.walk()].map((at) => at.node.step).sort((a, b) => a.crankNum - b.crankNum);
  const diagram = diagramOf(steps);
  out.write(format === 'svg' ? svgText(diagram) : mermaidText(diagram));
  await out.close();
  return EXIT_OK;
}

export function register(program: Command): Command {
  const cmd = program
    .command('sequence')
    .description(SUMMARIES.sequence)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .option('--cranks <list>', 'the delivery cranks of these numbers: 7215-7495,8000')
    .addOption(blocksOption("the delivery cranks of these blocks' runs (heights): 85,100-120"))
    .option('--run <height/run>', "one chain run's delivery cranks (73/2: block 73, run 2)")
    .option('--why <crank>', 'the cranks this crank caused (as `why --forward` shows them)', parseNonNegativeInt)
    .addOption(new Option('--format <format>', 'mermaid (text that GitHub renders), or svg (a picture drawn here)').choices(['mermaid', 'svg']).default('mermaid'))
    .option('--max-arrows <n>', `draw at most n arrows (default ${MAX_ARROWS}): past it, say so and exit 1`, parseNonNegativeInt);
  for (const opt of [...annotationOptions(), ...outputOptions()]) cmd.addOption(opt);
  return cmd
    .option('--bigwidth <n>', 'print values longer than n characters as <BIG> (default 200)', parseNonNegativeInt)
    .addHelpText(
      'after',
      `
Examples:
  slogulate sequence --run 73/2 chain.slog > run.mmd
  slogulate sequence --why 841 --annotations names.json chain.slog
  slogulate sequence --run 73/2 --format svg -o run.svg chain.slog`,
    )
    .action(async (files: string[], _opts: SequenceOptions, command: Command) => {
      process.exitCode = await sequenceCommand(files, command.optsWithGlobals<SequenceOptions>());
    });
}
