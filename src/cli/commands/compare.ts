/**
 * `slogulate compare BASE HEAD`: counts, computrons and delivery times of two
 * slogs side by side (text, markdown or JSON), and `--fail-on` thresholds
 * whose breach makes the exit status 1 (for CI). Both slogs are read at the
 * same time, each in one streaming pass.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Option, type Command } from 'commander';
import type { SideData } from '../../analyses/compare/compare-side.js';
import { compareJson, compareSides, evaluateThresholds } from '../../analyses/compare/compare.js';
import { allowEmptyWarning, compareMarkdown, compareText, partialThresholds, verdict, type CompareFormat } from '../../analyses/compare/compare-report.js';
import { RoundMarkError, Rounds } from '../../analyses/common/rounds.js';
import { THRESHOLD_GRAMMAR, ThresholdError, type Threshold, type ThresholdResult } from '../../analyses/compare/thresholds.js';
import type { SelectionSpec } from '../../analyses/common/selection.js';
import { annotationOptions, annotationsFrom, parseNonNegativeInt, selectionFrom, selectionOptions, thresholdsFrom } from '../common-options.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, warn } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { compareSideOf } from '../../run/analyses.js';
import { growthThresholdWarnings } from '../../analyses/compare/growth-warnings.js';
import { PassError } from '../../run/pass.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { commandSettings, type PassSettings } from '../../run/pass-settings.js';
import { MarkErrors } from '../../run/mark-errors.js';
import { describe as fileProblem } from '../../source/open.js';
import { SUMMARIES } from './summaries.js';

interface CompareCliOptions {
  format: CompareFormat;
  growth?: boolean;
  failOn?: string[];
  cranks?: string;
  blocks?: string;
  vat?: string[];
  annotations?: string;
  annot?: string;
  roundMarks?: boolean;
  baseLog?: string;
  headLog?: string;
  changed?: boolean;
  timeRows: number;
  allowEmpty?: boolean;
  out?: string;
  force?: boolean;
}

/**
 * Round marks read from a benchmark's console output, one line at a time. A
 * log that cannot be read (missing, a folder, not readable) is a usage error
 * naming it: `log: is a directory`.
 */
async function marksFromLog(file: string, rounds: Rounds): Promise<void> {
  const unreadable = (err: unknown): CliError => {
    const { code, message } = err as NodeJS.ErrnoException;
    const why = fileProblem(err);
    return new CliError(`${file}: ${why === message && code !== undefined ? `cannot read (${code})` : why}`, EXIT_USAGE);
  };
  const stream = createReadStream(file);
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (err) {
    throw unreadable(err);
  }
  let n = 0;
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      n += 1;
      rounds.noteText(line, `${file}:${n}`);
    }
  } catch (err) {
    if (err instanceof RoundMarkError) throw new CliError(err.message, EXIT_USAGE);
    // Opening a folder succeeds; reading it fails (EISDIR), as does a file the system cannot read (EIO).
    if (typeof (err as NodeJS.ErrnoException).code === 'string') throw unreadable(err);
    throw err;
  } finally {
    stream.destroy();
  }
}

/** A side's rounds, its log's marks read (before any slog, so that a bad log is said first); undefined when not per round. */
async function roundsOf(perRound: boolean, log: string | undefined): Promise<Rounds | undefined> {
  if (!perRound) return undefined;
  const rounds = new Rounds();
  if (log !== undefined) await marksFromLog(log, rounds);
  return rounds;
}

interface SideArgs {
  which: 'base' | 'head';
  /** The command's, shared by both sides. */
  settings: PassSettings;
  file: string;
  log: string | undefined;
  /** Per round: the rounds, with the log's marks when there is a log. */
  rounds: Rounds | undefined;
  selection: SelectionSpec;
  vatNames: ReadonlyMap<string, string>;
  /** Follow growth in the pass (the growth.* metrics). */
  growth: boolean;
}

/** A side as read: its figures, and how many of its lines were slog entries. */
interface SideRead {
  data: SideData;
  entries: number;
  badLines: number;
}

async function readSide(args: SideArgs): Promise<SideRead> {
  const slog = args.file === '-' ? '<stdin>' : args.file;
  const rounds = args.rounds;
  const side = compareSideOf({
    inputs: [args.file],
    side: { slog, selection: args.selection, vatNames: args.vatNames, rounds, marksInSlog: args.log === undefined, growth: args.growth },
    wrap: (sink) => new MarkErrors(sink),
    ...ANALYSIS_REPORTS,
    settings: args.settings,
  });
  // Not a slog at all (its first lines are not slog entries): a side that cannot be compared (a usage error).
  const notSlog = (err: unknown): never => {
    if (err instanceof PassError && err.kind === 'not-a-slog') throw new CliError(`${args.which} ${err.message}`, EXIT_USAGE);
    throw err;
  };
  const { data, pass: run } = await passOrFail(side.catch(notSlog));
  if (rounds) {
    if (rounds.count === 0) {
      const where = args.log ?? `${slog} (console entries)`;
      throw new CliError(`${where}: no benchmark round marks (Benchmark "NAME" round N start crank C); drop --round-marks`, EXIT_USAGE);
    }
    // A round without its end mark ends where the next one starts (rounds.ts), the last one at the end of the slog.
    for (const w of rounds.unendedWarnings(slog)) warn(w);
  }
  return { data, entries: run.entries, badLines: run.badLines };
}

/**
 * Why a side cannot be compared, if it cannot: most of its lines are not slog
 * entries, or it has no deliveries (a benchmark that crashed must not pass CI).
 */
export function sideProblem(side: { entries: number; badLines: number; deliveries: number; selection: string; perRound: boolean }): string | undefined {
  if (side.badLines > side.entries) {
    return `${side.badLines} of ${side.badLines + side.entries} lines are not slog entries (not a slog?)`;
  }
  if (side.deliveries > 0) return undefined;
  if (side.entries === 0) return 'no deliveries: the slog is empty';
  const where = side.perRound ? ' inside the benchmark rounds' : '';
  return side.selection === 'all cranks' ? `no deliveries${where} (not a benchmark's slog?)` : `no deliveries in ${side.selection}${where}`;
}

/**
 * Ends the command for a side that cannot be compared; under --allow-empty, a
 * warning on stderr, returned for the report to show too (a markdown report is
 * a pull-request comment, where nobody reads stderr).
 */
function checkSide(which: 'base' | 'head', read: SideRead, perRound: boolean, allowEmpty: boolean): string | undefined {
  const agg = read.data.aggregate;
  const problem = sideProblem({ entries: read.entries, badLines: read.badLines, deliveries: agg.deliveries.count, selection: agg.selection, perRound });
  if (problem === undefined) return undefined;
  if (!allowEmpty) throw new CliError(`${which} ${read.data.slog}: ${problem}; --allow-empty compares it anyway`, EXIT_USAGE);
  warn(`${which} ${read.data.slog}: ${problem}`);
  return allowEmptyWarning(`${which} ${read.data.slog}: ${problem}`);
}

function warnAboutComputrons(thresholds: Threshold[], base: SideData, head: SideData): void {
  if (base.aggregate.computrons !== undefined || head.aggregate.computrons !== undefined) return;
  for (const t of thresholds) {
    if (t.metric.kind === 'computrons') warn(`--fail-on '${t.text}': neither slog reports computrons (only XS workers do); it cannot fail`);
  }
}

export function register(program: Command): Command {
  const cmd = program
    .command('compare')
    .description(SUMMARIES.compare)
    .argument('<base>', 'the base slog (plain or gzipped; - for stdin)')
    .argument('<head>', 'the head slog (plain or gzipped; - for stdin)')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'markdown', 'json']).default('text'))
    .addOption(
      new Option('--fail-on <threshold>', "exit 1 when the head exceeds the base by more than this, e.g. 'computrons:+5%' (repeatable)").argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
    );
  for (const opt of selectionOptions()) cmd.addOption(opt);
  cmd
    .option('--round-marks', 'compare per benchmark round: only cranks inside rounds, totals divided by the round count')
    .option('--base-log <file>', "read the base's round marks from the benchmark's console output (implies --round-marks)")
    .option('--head-log <file>', "read the head's round marks from the benchmark's console output (implies --round-marks)")
    .option('--changed', 'text and markdown: leave out count rows that did not change')
    .option('--growth', "also the kernel's growth per round or block (growth.* metrics; implied by a --fail-on growth.*)")
    .option('--allow-empty', 'compare a side without deliveries, or mostly not slog entries (an error otherwise: exit 2)')
    .option('--time-rows <n>', 'text and markdown: entries of the time tables (vat+method; vat), largest first (0: all)', parseNonNegativeInt, 10)
;
  for (const opt of outputOptions('write the report to file instead of stdout')) cmd.addOption(opt);
  for (const opt of annotationOptions()) cmd.addOption(opt);
  cmd.addHelpText(
    'after',
    `
Thresholds (--fail-on, repeatable):
${THRESHOLD_GRAMMAR.replace(/^expected /, '  ')}
Exit status: 0 no threshold exceeded, 1 some threshold exceeded, 2 usage error
(also: a side without deliveries, or whose lines are mostly not slog entries,
unless --allow-empty).
Vats are matched by name where both slogs name them, by ID otherwise.

Examples:
  slogulate compare base.slog.gz head.slog.gz
  slogulate compare --fail-on 'computrons:+5%' --fail-on 'syscalls:+0' base.slog head.slog
  slogulate compare --fail-on 'time.vat:+10%' base.slog head.slog
  slogulate compare --round-marks --format markdown base.slog head.slog > comment.md
  slogulate compare --format json base.slog head.slog | jq '.sections[] | select(.id == "syscallsByType")'`,
  );
  cmd.action(async (base: string, head: string, _opts: CompareCliOptions, command: Command) => {
    // The root command shares some spellings (--cranks, --vat, --annotations, --out) and
    // commander hands them to it: read them with the globals, as the other subcommands do.
    const opts = command.optsWithGlobals<CompareCliOptions>();
    const annotationFile = opts.annotations ?? opts.annot;
    const out = openOutput(opts.out, { inputs: [base, head, opts.baseLog, opts.headLog, annotationFile], force: opts.force });
    const thresholds = thresholdsFrom(opts.failOn);
    if (base === '-' && head === '-') throw new CliError('only one of base and head can be read from stdin', EXIT_USAGE);
    const annotations = annotationsFrom(opts);
    const selection = selectionFrom(opts);
    const perRound = opts.roundMarks === true || opts.baseLog !== undefined || opts.headLog !== undefined;
    // Growth is followed when asked, or when a threshold reads it: what it reads (every message and syscall whole) costs each side's pass 20-70% more CPU.
    const growth = opts.growth === true || thresholds.some((t) => t.metric.kind === 'growth');
    const common = { selection, vatNames: annotations.vatNames, settings: commandSettings(), growth };
    const baseRounds = await roundsOf(perRound, opts.baseLog);
    const headRounds = await roundsOf(perRound, opts.headLog);
    const [baseRead, headRead] = await Promise.all([
      readSide({ ...common, which: 'base', file: base, log: opts.baseLog, rounds: baseRounds }),
      readSide({ ...common, which: 'head', file: head, log: opts.headLog, rounds: headRounds }),
    ]);
    const warnings = [checkSide('base', baseRead, perRound, opts.allowEmpty === true), checkSide('head', headRead, perRound, opts.allowEmpty === true)].filter(
      (w): w is string => w !== undefined,
    );
    const baseData = baseRead.data;
    const headData = headRead.data;
    warnAboutComputrons(thresholds, baseData, headData);
    for (const line of growthThresholdWarnings(thresholds, baseData, headData)) warn(line);
    let results: ThresholdResult[];
    try {
      results = evaluateThresholds(thresholds, baseData, headData);
    } catch (err) {
      if (err instanceof ThresholdError) throw new CliError(`--fail-on: ${err.message}`, EXIT_USAGE);
      throw err;
    }
    // A threshold on a part of crank time unknown in some cranks compares partial sums: said on stderr too (CI logs).
    for (const line of partialThresholds(results)) warn(`--fail-on ${line}`);
    const comparison = compareSides(baseData, headData);
    const report = { changedOnly: opts.changed === true, timeRows: opts.timeRows, warnings };
    if (opts.format === 'json') out.write(`${JSON.stringify(compareJson(comparison, results), null, 2)}\n`);
    else if (opts.format === 'markdown') out.write(compareMarkdown(comparison, results, report));
    else out.write(compareText(comparison, results, report));
    await out.close();
    const exceeded = results.some((r) => r.exceeded);
    // With the report in a file (or as JSON), the verdict still reaches the CI log.
    if (exceeded && (opts.out !== undefined || opts.format !== 'text')) warn(verdict(results) as string);
    process.exitCode = exceeded ? EXIT_FAILURE : EXIT_OK;
  });
  return cmd;
}
