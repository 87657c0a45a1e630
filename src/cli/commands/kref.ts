/**
 * `slogulate kref KREF [files...]`: the life of one kref (src/analyses/flow/kref-history.ts).
 */
import type { Command, Option } from 'commander';
import { AutoNames } from '../../analyses/flow/auto-names.js';
import { KrefHistory } from '../../analyses/flow/kref-history.js';
import { formatKref, krefId } from '../../model/kref-ids.js';
import { VatNames } from '../../model/vats.js';
import { RenderContext } from '../../render/context.js';
import { KernelLines } from '../../render/kernel-lines.js';
import { defaultRenderOptions } from '../../render/options.js';
import { CrankSelection } from '../../analyses/common/selection.js';
import { annotationOptions, annotationsFrom, parseNonNegativeInt, selectionFrom, selectionOptions } from '../common-options.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { krefModelOf, type KrefReader } from '../../run/analyses.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { commandSettings } from '../../run/pass-settings.js';

interface KrefOptions {
  annotations?: string;
  annot?: string;
  nonoise?: boolean;
  bigwidth?: number;
  out?: string;
  force?: boolean;
  cranks?: string;
  blocks?: string;
  vat?: string[];
  since?: string;
  until?: string;
}

export async function krefCommand(wanted: string, files: string[], opts: KrefOptions): Promise<number> {
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
  const annotations = annotationsFrom(opts);
  let id = krefId(wanted);
  if (id < 0) {
    // A name from the annotation file works too.
    for (const [kref, name] of annotations.kernelRefs) if (name === wanted) id = krefId(kref);
    if (id < 0) {
      const names = opts.annotations ?? opts.annot ? ' or a name in the annotation file' : '';
      throw new CliError(`"${wanted}" is not a kref (like ko12, kp40, kd3)${names}`, EXIT_USAGE);
    }
  }
  const kref = formatKref(id);
  const spec = selectionFrom(opts, files);
  const options = { ...defaultRenderOptions(), nonoise: opts.nonoise === true };
  if (opts.bigwidth !== undefined) options.bigWidth = opts.bigwidth;
  // The model reads every crank (where the kref was made, resolved, dropped; the automatic names): only the mentions are selected.
  const start = (): KrefReader<{ history: KrefHistory; selection: CrankSelection }> => {
    const vats = new VatNames(annotations.vatNames);
    const ctx = new RenderContext(options, annotations, vats);
    const history = new KrefHistory(kref, ctx, new KernelLines(ctx));
    const selection = new CrankSelection(spec, vats);
    return {
      vats,
      value: { history, selection },
      onCrank: (crank) => {
        if (selection.matches(crank)) history.crank(crank);
      },
    };
  };
  const { model, reader, pass } = await passOrFail(krefModelOf({ inputs: files, start, ...ANALYSIS_REPORTS, settings: commandSettings() }));
  const { vats, value: { history, selection } } = reader;
  if (!model.has(id)) throw new CliError(`${kref} does not appear in ${pass.name}`, EXIT_FAILURE);
  out.write(`${history.lines(id, model, new AutoNames(model, vats), selection.isAll ? undefined : selection.describe()).join('\n')}\n`);
  await out.close();
  return EXIT_OK;
}

export function register(program: Command): Command {
  const cmd = program
    .command('kref')
    .description(SUMMARIES.kref)
    .argument('<kref>', 'a kref (ko12, kp40, kd3), or a name from the --annotations file')
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin');
  for (const opt of [...annotationOptions(), ...selectionOptions()]) cmd.addOption(opt);
  const [outOption, forceOption] = outputOptions() as [Option, Option];
  return cmd
    .option('--nonoise', 'leave out clist and subscribe lines')
    .option('--bigwidth <n>', 'print values longer than n characters as <BIG> (default 200)', parseNonNegativeInt)
    .addOption(outOption)
    .addOption(forceOption)
    .addHelpText(
      'after',
      `
A selection (--cranks, --blocks, --since, --until, --vat) keeps the
mentions of the selected cranks; where the kref was made, resolved and
dropped is the whole slog's, so every line is read (no seek).
Examples:
  slogulate kref kp46 chain.slog
  slogulate kref --cranks 7215-7495 ko30 chain.slog   its mentions in those cranks
  slogulate kref --annotations <(slogulate annotate chain.slog) ko30 chain.slog`,
    )
    .action(async (wanted: string, files: string[], _opts: KrefOptions, command: Command) => {
      // The root command has some of these options too (--annotations, --nonoise, --out): read both.
      process.exitCode = await krefCommand(wanted, files, command.optsWithGlobals<KrefOptions>());
    });
}
