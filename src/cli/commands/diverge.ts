/**
 * `slogulate diverge A B`: where two slogs of one chain (two validators) or
 * of one benchmark stopped doing the same thing, and which was slower. Exit
 * status as diff's: 0 the deterministic parts agree, 1 they differ, 2 usage.
 */
import { Option, type Command } from 'commander';
import { divergeJson, divergeMarkdown, divergeText, verdictLine } from '../../analyses/diverge/diverge-report.js';
import { divergeOf } from '../../run/diverge.js';
import { commandSettings } from '../../run/pass-settings.js';
import { PassError } from '../../run/pass.js';
import { annotationOptions, annotationsFrom, parseNonNegativeInt } from '../common-options.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, warn } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';

interface DivergeCliOptions {
  json?: boolean;
  format: 'text' | 'markdown' | 'json';
  entries?: boolean;
  timeRows: number;
  annotations?: string;
  annot?: string;
  out?: string;
  force?: boolean;
}

export function register(program: Command): Command {
  const cmd = program
    .command('diverge')
    .description(SUMMARIES.diverge)
    .argument('<a>', "one node's slog (plain, gzipped, a folder of per-block files; - for stdin)")
    .argument('<b>', "the other's")
    .option('--json', 'the report as JSON (as --format json)')
    .addOption(new Option('--format <format>', 'report format').choices(['text', 'markdown', 'json']).default('text'))
    .option('--entries', "also compare the entries of cranks whose crankhashes agree (what the hash does not cover: console lines...; slower)")
    .addOption(new Option('--time-rows <n>', 'rows of each time table, largest difference first (0: all)').argParser(parseNonNegativeInt).default(10));
  for (const opt of outputOptions('write the report to file instead of stdout')) cmd.addOption(opt);
  for (const opt of annotationOptions()) cmd.addOption(opt);
  cmd.addHelpText(
    'after',
    `
The cranks are aligned by number; only those both slogs have are compared
(a flight-recorder dump against a whole slog: the dump's range). A crank
differs when its crankhash does (both have one), else when its entries do,
less the fields that differ between nodes of one chain (time, monotime,
seconds, dr[2].timestamps, heap-snapshot timings...: docs/diverge.md).
Exit status: 0 no divergence, 1 diverged (a crank, a delivery's computrons,
a delivery or crank on one side only), 2 usage error.

Examples:
  slogulate diverge node1.slog.gz node2.slog.gz
  slogulate diverge --json node1.slog node2-dump.slog | jq .first`,
  );
  cmd.action(async (a: string, b: string, _opts: DivergeCliOptions, command: Command) => {
    const opts = command.optsWithGlobals<DivergeCliOptions>();
    if (a === '-' && b === '-') throw new CliError('only one of the two slogs can be read from stdin', EXIT_USAGE);
    const annotationFile = opts.annotations ?? opts.annot;
    const out = openOutput(opts.out, { inputs: [a, b, annotationFile], force: opts.force });
    const annotations = annotationsFrom(opts);
    const settings = commandSettings();
    // Not a slog at all (its first lines are not slog entries): a side that cannot be compared (a usage error, as compare's).
    const notSlog = (err: unknown): never => {
      if (err instanceof PassError && err.kind === 'not-a-slog') throw new CliError(err.message, EXIT_USAGE);
      throw err;
    };
    const run = divergeOf({
      a: { inputs: [a], settings, ...ANALYSIS_REPORTS },
      b: { inputs: [b], settings, ...ANALYSIS_REPORTS },
      vatNames: annotations.vatNames,
      compareEntries: opts.entries === true,
    });
    const { result } = await passOrFail(run.catch(notSlog));
    const names = { nameA: a === '-' ? '<stdin>' : a, nameB: b === '-' ? '<stdin>' : b, timeRows: opts.timeRows };
    const format = opts.json ? 'json' : opts.format;
    // What the slog does not say (a side's first block outside blocks) is null, not left out.
    if (format === 'json') out.write(`${JSON.stringify(divergeJson(result, names), (_key, value: unknown) => value ?? null, 2)}\n`);
    else if (format === 'markdown') out.write(divergeMarkdown(result, names));
    else out.write(divergeText(result, names));
    await out.close();
    // With the report in a file (or not as text), the verdict still reaches the terminal.
    if (result.diverged && (opts.out !== undefined || format !== 'text')) warn(verdictLine(result));
    process.exitCode = result.diverged ? EXIT_FAILURE : EXIT_OK;
  });
  return cmd;
}
