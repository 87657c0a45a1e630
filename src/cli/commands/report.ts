/**
 * `slogulate report FILE... -o report.html`: one self-contained HTML report
 * of a slog (or, with --compare, of two), src/report/. The file is opened
 * as every command's output is (output-file.ts: never an input, written
 * under a temporary name beside it and put in place once whole).
 */
import { Option, type Command } from 'commander';
import { verdict } from '../../analyses/compare/compare-report.js';
import { reportHtml } from '../../report/html.js';
import { collectReport, DEFAULT_EVERY, MIN_POINTS } from '../../run/report.js';
import { passOrFail, reportBadLine } from '../slog-pass.js';
import { commandSettings } from '../../run/pass-settings.js';
import { annotationOptions, annotationsFrom, parsePositiveInt, selectionFrom, selectionOptions, thresholdsFrom } from '../common-options.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, warn } from '../errors.js';
import { openOutput, outputOptions, sayWritten } from '../output-file.js';
import { DEFAULT_TOP_N } from './top.js';
import { SUMMARIES } from './summaries.js';

interface ReportCliOptions {
  out?: string;
  every?: number;
  roundMarks?: boolean;
  compare?: boolean;
  growth?: boolean;
  count: number;
  failOn?: string[];
  annotations?: string;
  annot?: string;
  force?: boolean;
  cranks?: string;
  blocks?: string;
  vat?: string[];
  since?: string;
  until?: string;
}

export function register(program: Command): Command {
  const [outOption, forceOption] = outputOptions('the HTML file to write') as [Option, Option];
  const cmd = program
    .command('report')
    .description(SUMMARIES.report)
    .argument('<files...>', 'the slog (several files are read in order as one slog), or BASE HEAD with --compare')
    .addOption(outOption.makeOptionMandatory())
    .addOption(forceOption)
    .addOption(new Option('--every <n>', `cranks per point of the charts (default: one point per chain block when the slog has blocks, else ${DEFAULT_EVERY} cranks, fewer when that makes under ${MIN_POINTS} points)`).argParser(parsePositiveInt).conflicts('roundMarks'))
    .option('--round-marks', 'one point per benchmark round (Benchmark "NAME" round N start/end crank C, from the console entries)')
    .option('--compare', 'two slogs, BASE HEAD: both runs on the same charts, and the compare tables')
    .option('--growth', "also what grows per round or block: the kernel's c-list entries, objects and promises, each vat's c-list and heap (slogulate growth; implied by a --fail-on growth.*)")
    .addOption(new Option('-n, --count <n>', 'cranks per top ranking').argParser(parsePositiveInt).default(DEFAULT_TOP_N))
    .addOption(
      new Option('--fail-on <threshold>', "with --compare: exit 1 when the head exceeds the base by more than this, e.g. 'computrons:+5%' (repeatable)").argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    );
  for (const opt of [...annotationOptions(), ...selectionOptions()]) cmd.addOption(opt);
  cmd.addHelpText(
    'after',
    `
The report opens from disk in a browser with no network (scripts and data inline).
The charts have one point per chain block (x: the height) when the slog has
blocks, else one per ${DEFAULT_EVERY} cranks (fewer for a slog too short for ${MIN_POINTS}
points), sums per crank; --every N makes it every N cranks on any slog,
--round-marks one per benchmark round. With --compare, per block only when
both slogs have blocks.
A selection (--cranks, --blocks, --since, --until, --vat) keeps the selected
cranks in the figures, rankings and charts; the summary still counts every
crank and the slog's wall span, so every line is read (no seek). With
--compare, times back from the end (10m) are not taken: give a time.
--growth adds what grows (as slogulate growth prints it, of every crank
whatever the selection); it costs the pass about half its CPU again, so it
is off unless asked, or a --fail-on growth.* reads it.
Exit status: 0 written, 1 a --fail-on threshold exceeded (the report is written), 2 usage error.
Examples:
  slogulate report chain.slog -o report.html
  slogulate report --every 100 bench.slog.gz -o bench.html
  slogulate report --blocks 100-200 chain.slog -o blocks.html
  slogulate report --round-marks bench.slog -o rounds.html
  slogulate report --growth chain.slog -o growth.html
  slogulate report --compare base.slog head.slog --fail-on 'computrons:+5%' -o compare.html
  slogulate report --compare base.slog head.slog --fail-on 'growth.clistEntries:max=0' -o leak.html`,
  );
  cmd.action(async (files: string[], _opts: ReportCliOptions, command: Command) => {
    // The root command shares some spellings (--annotations, -o): read them with the globals, as the other subcommands do.
    const opts = command.optsWithGlobals<ReportCliOptions>();
    if (files.includes('-')) throw new CliError('report reads its files twice (the top cranks\' lines again): give files, not stdin', EXIT_USAGE);
    if (opts.compare && files.length !== 2) throw new CliError(`--compare takes two slogs, BASE HEAD (got ${files.length})`, EXIT_USAGE);
    if (!opts.compare && opts.failOn?.length) throw new CliError('--fail-on needs --compare BASE HEAD', EXIT_USAGE);
    const out = openOutput(opts.out as string, { inputs: [...files, opts.annotations ?? opts.annot], force: opts.force });
    const thresholds = thresholdsFrom(opts.failOn);
    const annotations = annotationsFrom(opts);
    // Two runs have two ends: a duration back from the end is refused (common-options.ts).
    const selection = selectionFrom(opts, opts.compare ? undefined : files);
    const outcome = await passOrFail(
      collectReport({
        runs: opts.compare ? files.map((f) => [f]) : [files],
        ...(opts.every === undefined ? {} : { every: opts.every }),
        roundMarks: opts.roundMarks === true,
        topN: opts.count,
        annotations,
        thresholds,
        onBadLine: reportBadLine,
        // Also what the figures may get wrong (a restart that ran again more cranks than were held back).
        warn,
        settings: commandSettings(),
        selection,
        growth: opts.growth === true,
      }),
    );
    out.write(reportHtml(outcome.data));
    await out.close();
    sayWritten(opts.out);
    const exceeded = outcome.thresholds.some((r) => r.exceeded);
    if (outcome.thresholds.length) warn(verdict(outcome.thresholds) as string);
    process.exitCode = exceeded ? EXIT_FAILURE : EXIT_OK;
  });
  return cmd;
}
