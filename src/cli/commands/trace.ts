/**
 * `slogulate trace [files...] -o trace.json`: the slog as a Chrome Trace Event
 * file for Perfetto (ui.perfetto.dev) or chrome://tracing. Written as the
 * slog is read: any size streams through.
 */
import { basename } from 'node:path';
import type { Command, Option } from 'commander';
import { CrankSelection } from '../../analyses/common/selection.js';
import { TraceWriter } from '../../analyses/trace/trace.js';
import { DEFAULT_BIG_WIDTH } from '../../render/options.js';
import { annotationOptions, annotationsFrom, parseNonNegativeInt, selectionFrom, selectionOptions } from '../common-options.js';
import { EXIT_FAILURE, EXIT_OK, warn } from '../errors.js';
import { openOutput, outputOptions, sayWritten } from '../output-file.js';
import { tracePass } from '../../run/analyses.js';
import { seekRangeOf } from '../../run/pass-seek.js';
import { inputsName } from '../../source/inputs.js';
import { passOrFail, reportBadLine } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { commandSettings, strictSettings } from '../../run/pass-settings.js';

interface TraceCliOptions {
  out?: string;
  force?: boolean;
  bigwidth?: number;
  vatspace?: boolean;
  annotations?: string;
  annot?: string;
  cranks?: string;
  blocks?: string;
  vat?: string[];
  strict?: boolean;
}

export function register(program: Command): Command {
  const [outOption, forceOption] = outputOptions('write the trace to file instead of stdout') as [Option, Option];
  const cmd = program
    .command('trace')
    .description(SUMMARIES.trace)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .addOption(outOption)
    .addOption(forceOption)
    .option('--bigwidth <n>', `values longer than n characters print as <BIG> in slice names (default ${DEFAULT_BIG_WIDTH})`, parseNonNegativeInt)
    .option('--vatspace', 'name refs in slices as the vat sees them (vrefs)');
  for (const opt of annotationOptions()) cmd.addOption(opt);
  for (const opt of selectionOptions()) cmd.addOption(opt);
  cmd.option('--strict', 'exit with status 1 if any line is not a slog entry');
  cmd.addHelpText(
    'after',
    `
Open the file at https://ui.perfetto.dev (or chrome://tracing). Each vat is a
track; each delivery crank a slice named by its first line, with its syscalls
nested inside; routing cranks are on the kernel track. Slice args hold the
crank number, syscall count and time, and computrons. Arrows join each send
and resolve syscall to the delivery it queued; counter tracks hold each vat's
XS heap and the kernel-stats gauges. With a selection, the slog is read from
its start to just past the selection where the seek's plan holds (a plain
slog, or a .gz with an index: docs/selections.md).
Examples:
  slogulate trace chain.slog -o trace.json
  slogulate trace --cranks 7215-7495 --vat zoe chain.slog.gz -o round1.json`,
  );
  cmd.action(async (files: string[], _opts: TraceCliOptions, command: Command) => {
    // The root command has options of the same names (-o, --cranks, ...) and takes them
    // wherever they stand on the line: read both.
    process.exitCode = await traceCommand(files, command.optsWithGlobals<TraceCliOptions>());
  });
  return cmd;
}

export async function traceCommand(files: string[], opts: TraceCliOptions): Promise<number> {
  // A failed run leaves an old trace file as it was (output-file.ts); on stdout, what was read is still a valid trace.
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
  let writer: TraceWriter | undefined;
  let begun = false;
  try {
    const annotations = annotationsFrom(opts);
    const spec = selectionFrom(opts, files);
    let selection: CrankSelection | undefined;
    const trace = new TraceWriter({
      write: (text) => out.write(text),
      annotations,
      processName: `slogulate: ${basename(inputsName(files))}`,
      bigWidth: opts.bigwidth,
      vatspace: opts.vatspace,
      selectCrank: (crank) => selection?.matches(crank) ?? true,
    });
    writer = trace;
    selection = new CrankSelection(spec, trace.vats);
    const result = await passOrFail(
      tracePass(
        {
          inputs: files,
          onOpen: () => {
            if (begun) return;
            begun = true;
            trace.begin();
          },
          afterBatch: () => out.drained(),
          onBadLine: reportBadLine,
          settings: opts.strict ? strictSettings(commandSettings()) : commandSettings(),
        },
        trace,
        // A selection's range: the read ends after it where the seek's plan holds.
        seekRangeOf(spec),
      ),
    );
    trace.end();
    await out.close();
    sayWritten(opts.out);
    if (trace.cranks === 0) warn(`${result.name}: no cranks ${selection.isAll ? 'in the slog' : `match ${selection.describe()}`}`);
    return opts.strict && result.badLines > 0 ? EXIT_FAILURE : EXIT_OK;
  } catch (err) {
    if (writer && begun) {
      try {
        writer.end();
      } catch {
        // the first error is the one to report
      }
    }
    out.discard();
    throw err;
  }
}
