/**
 * `slogulate growth [files...]`: what is alive at the end of the slog (each
 * vat's c-list by kind, the kernel's objects and promises, unresolved
 * promises, heaps) and how it changed per benchmark round, chain block or N
 * cranks (src/analyses/growth/); `--alive VAT` lists one vat's entries alive
 * at the end. Text, markdown or JSON; docs/growth.md.
 */
import { Option, type Command } from 'commander';
import { AutoNames } from '../../analyses/flow/auto-names.js';
import { aliveListing, aliveText } from '../../analyses/growth/alive.js';
import { growthResult } from '../../analyses/growth/growth-result.js';
import { growthText, type GrowthFormat } from '../../analyses/growth/growth-text.js';
import { growthOf, growthWithKrefsOf } from '../../run/growth.js';
import { commandSettings } from '../../run/pass-settings.js';
import { annotationOptions, annotationsFrom, parsePositiveInt } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_USAGE, warn } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';

interface GrowthCliOptions {
  json?: boolean;
  format: GrowthFormat;
  every?: number;
  alive?: string;
  annotations?: string;
  annot?: string;
  out?: string;
  force?: boolean;
}

export async function growthCommand(files: string[], opts: GrowthCliOptions): Promise<number> {
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
  const annotations = annotationsFrom(opts);
  const config = { ...(opts.every === undefined ? {} : { every: opts.every }), vatNames: annotations.vatNames };
  const input = { inputs: files, config, ...ANALYSIS_REPORTS, settings: commandSettings() };
  if (opts.alive !== undefined) {
    const { growth, model, pass } = await passOrFail(growthWithKrefsOf(input));
    const vatID = growth.clists.vats.has(opts.alive) ? opts.alive : growth.vats.idForName(opts.alive);
    if (vatID === undefined || !growth.clists.vats.has(vatID)) {
      await out.close();
      throw new CliError(`${pass.name}: no c-list of a vat ${opts.alive} (give a vat ID or name, e.g. v7)`, EXIT_USAGE);
    }
    const listing = aliveListing(growth, vatID, new AutoNames(model, growth.vats), annotations);
    out.write(opts.json ? `${JSON.stringify({ slog: pass.name, ...listing }, null, 2)}\n` : aliveText(listing, pass.name, opts.format));
    await out.close();
    return EXIT_OK;
  }
  const { growth, pass } = await passOrFail(growthOf(input));
  if (growth.cranks === 0) warn(`${pass.name}: no cranks`);
  const result = growthResult(growth, pass.name);
  out.write(opts.json ? `${JSON.stringify(result, null, 2)}\n` : growthText(result, opts.format));
  await out.close();
  return EXIT_OK;
}

export function register(program: Command): Command {
  const cmd = program
    .command('growth')
    .description(SUMMARIES.growth)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .addOption(new Option('--json', 'print the figures as JSON (docs/growth.md)').conflicts('format'))
    .addOption(new Option('--format <format>', 'text tables, or markdown for a pull request').choices(['text', 'markdown']).default('text'))
    .addOption(new Option('--every <n>', 'a period per n cranks (instead of benchmark rounds or chain blocks)').argParser(parsePositiveInt))
    .addOption(new Option('--alive <vat>', "list the vat's c-list entries alive at the end: where each came in, its name"));
  for (const opt of [...annotationOptions(), ...outputOptions()]) cmd.addOption(opt);
  return cmd
    .addHelpText(
      'after',
      `
Periods: benchmark rounds where the slog has round marks (Benchmark "NAME"
round N start/end crank C), else chain blocks, else none (what is alive at
the end); --every N makes them groups of N cranks. Growing lists every figure
that rose from the start of the first period to the end of the last, with
its least-squares slope per period.
Examples:
  slogulate growth chain.slog
  slogulate growth --every 500 benchmark.slog
  slogulate growth --alive v7 --annotations names.json chain.slog`,
    )
    .action(async (files: string[], _opts: GrowthCliOptions, command: Command) => {
      // The root command has some of these options too (--annotations, --out): read both.
      process.exitCode = await growthCommand(files, command.optsWithGlobals<GrowthCliOptions>());
    });
}
