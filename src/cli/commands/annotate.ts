/**
 * `slogulate annotate [files...]`: an annotation file naming every kref whose
 * making the slog shows (src/analyses/flow/auto-names.ts says how), optionally
 * merged into an existing one (`--merge F`: every name in F is kept).
 */
import type { Command, Option } from 'commander';
import { annotationFile, AutoNames } from '../../analyses/flow/auto-names.js';
import { VatNames } from '../../model/vats.js';
import { annotationsFrom } from '../common-options.js';
import { EXIT_OK } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { krefModelOf } from '../../run/analyses.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { commandSettings } from '../../run/pass-settings.js';

interface AnnotateOptions {
  merge?: string;
  out?: string;
  force?: boolean;
}

export async function annotateCommand(files: string[], opts: AnnotateOptions): Promise<number> {
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.merge], force: opts.force });
  const merge = opts.merge === undefined ? undefined : annotationsFrom({ annotations: opts.merge });
  const { model, reader } = await passOrFail(
    krefModelOf({ inputs: files, start: () => ({ vats: new VatNames(merge?.vatNames), value: undefined }), ...ANALYSIS_REPORTS, settings: commandSettings() }),
  );
  const json = annotationFile(new AutoNames(model, reader.vats), merge);
  out.write(`${JSON.stringify(json, null, 2)}\n`);
  await out.close();
  return EXIT_OK;
}

export function register(program: Command): Command {
  const [outOption, forceOption] = outputOptions() as [Option, Option];
  return program
    .command('annotate')
    .description(SUMMARIES.annotate)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .option('--merge <file>', 'start from this annotation file: keep all its names, labels and vat names, add the rest')
    .addOption(outOption)
    .addOption(forceOption)
    .addHelpText(
      'after',
      `
Examples:
  slogulate annotate chain.slog > names.json
  slogulate --annotations names.json chain.slog         render with the names
  slogulate annotate --merge mine.json chain.slog -o all.json`,
    )
    .action(async (files: string[], _opts: AnnotateOptions, command: Command) => {
      // The root command has some of these options too (--annotations, --cranks, --out): read both.
      process.exitCode = await annotateCommand(files, command.optsWithGlobals<AnnotateOptions>());
    });
}
