/**
 * `slogulate trace [file] -o trace.json`: the slog as a Chrome Trace Event
 * file for Perfetto (ui.perfetto.dev) or chrome://tracing. Written as the
 * slog is read: any size streams through.
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import { CrankSelection } from '../../analyses/selection.js';
import { TraceWriter } from '../../analyses/trace.js';
import { tracePass } from '../../run/analyses.js';
import { passOrFail, reportBadLine } from '../slog-pass.js';
import { inputsName } from '../../source/inputs.js';
import { DEFAULT_BIG_WIDTH } from '../../render/options.js';
import { annotationOptions, annotationsFrom, parseNonNegativeInt, selectionFrom, selectionOptions } from '../common-options.js';
import { EXIT_FAILURE, EXIT_OK, warn } from '../errors.js';
import { Output } from '../output.js';

interface TraceCliOptions {
  out?: string;
  bigwidth?: number;
  vatspace?: boolean;
  annotations?: string;
  annot?: string;
  cranks?: string;
  vat?: string[];
  strict?: boolean;
}

export function register(program: Command): Command {
  const cmd = program
    .command('trace')
    .description('write a Chrome Trace Event file (Perfetto, chrome://tracing): a track per vat, a slice per crank, nested syscall slices')
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .option('-o, --out <file>', 'write the trace to file instead of stdout')
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
crank number, syscall count and time, and computrons.
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
  const annotations = annotationsFrom(opts);
  const spec = selectionFrom(opts);
  // The output is opened once the slog is: a missing slog leaves an old trace file alone.
  let out: Output | undefined;
  let selection: CrankSelection | undefined;
  const writer = new TraceWriter({
    write: (text) => out?.write(text),
    annotations,
    processName: `slogulate: ${basename(inputsName(files))}`,
    bigWidth: opts.bigwidth,
    vatspace: opts.vatspace,
    selectCrank: (crank) => selection?.matches(crank) ?? true,
  });
  selection = new CrankSelection(spec, writer.vats);
  try {
    const result = await passOrFail(
      tracePass(
        {
          inputs: files,
          onOpen: () => {
            if (out) return;
            out = Output.open(opts.out);
            writer.begin();
          },
          afterBatch: () => out?.drained(),
          onBadLine: reportBadLine,
        governHeap: true,
        },
        writer,
        (entry) => writer.observe(entry),
      ),
    );
    writer.end();
    await out?.close();
    if (writer.cranks === 0) warn(`${result.name}: no cranks ${selection.isAll ? 'in the slog' : `match ${selection.describe()}`}`);
    return opts.strict && result.badLines > 0 ? EXIT_FAILURE : EXIT_OK;
  } catch (err) {
    // Whatever was read is still a valid trace file.
    if (out) {
      writer.end();
      await out.close().catch(() => undefined);
    }
    throw err;
  }
}
