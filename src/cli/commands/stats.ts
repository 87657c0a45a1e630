/**
 * `slogulate stats [files...]`: tables of syscalls by type, deliveries by vat and
 * by vat+method, and cranks by vat, with totals; where the crank time went
 * (parts, page-ins, heap snapshots, GC, stalls of more than `--gap`
 * seconds); the kernel's growth per round or block (docs/growth.md); text,
 * markdown or JSON.
 */
import { Option, type Command } from 'commander';
import { formatTables, statsTables, type StatsFormat } from '../../analyses/stats/stats.js';
import { statsGrowth } from '../../analyses/stats/growth-table.js';
import { annotationOptions, annotationsFrom, gapOption, noCranksWarning, selectionFrom, selectionOptions } from '../common-options.js';
import { EXIT_OK, warn } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { statsOf } from '../../run/analyses.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { commandSettings } from '../../run/pass-settings.js';

interface StatsCliOptions {
  json?: boolean;
  growth?: boolean;
  format: StatsFormat;
  cranks?: string;
  blocks?: string;
  vat?: string[];
  annotations?: string;
  annot?: string;
  out?: string;
  force?: boolean;
  gap: number;
}

export function register(program: Command): Command {
  const cmd = program
    .command('stats')
    .description(SUMMARIES.stats)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .addOption(new Option('--json', 'print the aggregate as JSON (times in µs)').conflicts('format'))
    .addOption(new Option('--format <format>', 'text tables, or markdown for a pull request').choices(['text', 'markdown']).default('text'))
    .addOption(gapOption())
    .option('--growth', "also the kernel's growth per round or block (docs/growth.md; reads every message and syscall whole: 20-70% slower)");
  for (const opt of selectionOptions()) cmd.addOption(opt);
  for (const opt of annotationOptions()) cmd.addOption(opt);
  for (const opt of outputOptions()) cmd.addOption(opt);
  cmd.addHelpText(
    'after',
    `
Times are whole microseconds (the tables of where the crank time went:
readable, e.g. 41.02 s; --json: µs); percentiles are exact (nearest rank).
Examples:
  slogulate stats chain.slog
  slogulate stats --cranks 7215-7495 --format markdown chain.slog > stats.md
  slogulate stats --vat zoe --json chain.slog | jq .deliveriesByVatMethod
  slogulate stats --gap 0.5 --json chain.slog | jq .stalls`,
  );
  cmd.action(async (files: string[], _opts: StatsCliOptions, command: Command) => {
    // The render's options (--annotations, --cranks, --vat) also exist on the root
    // command, which may take them wherever they appear: read both.
    const opts = command.optsWithGlobals<StatsCliOptions>();
    const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
    const annotations = annotationsFrom(opts);
    const selection = selectionFrom(opts, files);
    const { aggregate: agg, growth: grown, pass } = await passOrFail(
      statsOf({ inputs: files, selection, annotations, stallSeconds: opts.gap, growth: opts.growth === true, ...ANALYSIS_REPORTS, settings: commandSettings() }),
    );
    if (agg.cranks.selected === 0) warn(noCranksWarning(pass.name, selection, agg.selection));
    // The kernel's growth per round or block, where the slog has rounds or blocks (docs/growth.md).
    const growth = statsGrowth(grown);
    if (opts.json) out.write(`${JSON.stringify({ slog: pass.name, ...agg, ...(growth ? { growth } : {}) }, null, 2)}\n`);
    // No cranks: the tables still print, with zeros (a script reading them finds them).
    else out.write(formatTables(statsTables(agg, pass.name, growth), opts.format));
    await out.close();
    process.exitCode = EXIT_OK;
  });
  return cmd;
}
