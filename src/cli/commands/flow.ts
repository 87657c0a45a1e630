/**
 * `slogulate flow [files...]`: the message flow per vat (src/analyses/flow/flow.ts),
 * for the selected cranks (`--cranks`, `--vat`), named from `--annotations`
 * and the automatic names.
 */
import type { Command } from 'commander';
import { AutoNames } from '../../analyses/flow/auto-names.js';
import { FlowCollector, FlowNames } from '../../analyses/flow/flow.js';
import { CrankSelection } from '../../analyses/common/selection.js';
import { VatNames } from '../../model/vats.js';
import { annotationOptions, annotationsFrom, selectionFrom, selectionOptions } from '../common-options.js';
import { EXIT_OK, warn } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { krefModelOf } from '../../run/analyses.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { commandSettings } from '../../run/pass-settings.js';

interface FlowOptions {
  cranks?: string;
  blocks?: string;
  vat?: string[];
  annotations?: string;
  annot?: string;
  out?: string;
  force?: boolean;
}

export async function flowCommand(files: string[], opts: FlowOptions): Promise<number> {
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
  const annotations = annotationsFrom(opts);
  const spec = selectionFrom(opts, files);
  const { model, reader, pass } = await passOrFail(
    krefModelOf({
      inputs: files,
      start: () => {
        const vats = new VatNames(annotations.vatNames);
        const selection = new CrankSelection(spec, vats);
        const flow = new FlowCollector();
        return {
          vats,
          value: { selection, flow },
          onCrank: (crank, facts) => {
            if (selection.matches(crank)) flow.add(crank, facts);
          },
        };
      },
      ...ANALYSIS_REPORTS,
      settings: commandSettings(),
    }),
  );
  const { vats } = reader;
  const { selection, flow } = reader.value;
  if (flow.size === 0) {
    warn(`${pass.name}: no cranks ${selection.isAll ? 'deliver a message or notification' : `match ${selection.describe()}`}`);
  }
  const lines = flow.lines(new FlowNames(model, new AutoNames(model, vats), annotations));
  if (lines.length) out.write(`${lines.join('\n')}\n`);
  await out.close();
  return EXIT_OK;
}

export function register(program: Command): Command {
  const cmd = program
    .command('flow')
    .description(SUMMARIES.flow)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin');
  for (const opt of [...selectionOptions(), ...annotationOptions(), ...outputOptions()]) cmd.addOption(opt);
  return cmd
    .addHelpText(
      'after',
      `
Examples:
  slogulate flow --cranks 7215-7495 chain.slog            one benchmark round
  slogulate flow --vat zoe --annotations names.json chain.slog`,
    )
    .action(async (files: string[], _opts: FlowOptions, command: Command) => {
      // The root command has some of these options too (--annotations, --cranks, --out): read both.
      process.exitCode = await flowCommand(files, command.optsWithGlobals<FlowOptions>());
    });
}
