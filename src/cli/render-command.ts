/**
 * `slogulate [options] [files...]`: the text render.
 */
import { Option, type Command } from 'commander';
import { DEFAULT_BIG_WIDTH, type RenderOptions } from '../render/options.js';
import { annotationOptions, annotationsFrom, parseNonNegativeInt, selectionFrom, selectionOptions } from './common-options.js';
import { EXIT_FAILURE, EXIT_OK, warn } from './errors.js';
import type { Output } from './output.js';
import { openOutput, outputOptions } from './output-file.js';
import { renderSlog } from '../run/render.js';
import { passOrFail, reportBadLine } from './slog-pass.js';
import { commandSettings, strictSettings } from '../run/pass-settings.js';
import { terminalOptions, TerminalSession, type TerminalCliOptions } from './terminal.js';
import { watchRender } from './watch.js';

export interface RenderCliOptions extends TerminalCliOptions {
  nonoise?: boolean;
  novatstore?: boolean;
  timing?: boolean;
  parts?: boolean;
  bigwidth?: number;
  annotations?: string;
  annot?: string;
  vatspace?: boolean;
  kernelspace?: boolean;
  crankbreaks: boolean;
  clist: boolean;
  usesloggertags?: boolean;
  summarize?: boolean;
  /** Commander's spelling of --no-times: false when given. */
  times?: boolean;
  out?: string;
  force?: boolean;
  strict?: boolean;
  cranks?: string;
  blocks?: string;
  vat?: string[];
}

/** Adds the render options (the slogulator's spellings) to a command. */
export function addRenderOptions(cmd: Command): Command {
  const [outOption, forceOption] = outputOptions() as [Option, Option];
  cmd
    .option('--nonoise', 'drop routing cranks, crank-start/finish lines, subscribes and clist lines')
    .option('--novatstore', 'drop vatstore syscall lines')
    .option('--timing', 'times in crank headers, and after each syscall line')
    .option('--parts', 'with --timing (implied): crank headers split the time (page-in, vat, syscall, pipe, snapshot, kernel), snapshot lines their times')
    .option('--bigwidth <n>', `print values longer than n characters as <BIG> (default ${DEFAULT_BIG_WIDTH})`, parseNonNegativeInt);
  for (const opt of annotationOptions()) cmd.addOption(opt);
  for (const opt of selectionOptions()) cmd.addOption(opt);
  cmd
    .addOption(new Option('--vatspace', 'show refs as the vat sees them (vrefs)').conflicts('kernelspace'))
    .option('--kernelspace', 'show refs as the kernel sees them (krefs; the default)')
    .option('--no-crankbreaks', 'no crank headers, no startup/end lines')
    .option('--no-clist', 'no clist lines')
    .option('--usesloggertags', "use the slogger's full tags (syscall send, notify fulfilled, ...)")
    .option('--summarize', 'end with a count of each entry type')
    .option('--no-times', 'drop every wall-clock figure, so that runs of the same work diff cleanly')
    .addOption(outOption)
    .addOption(forceOption)
    .option('--strict', 'exit with status 1 if any line is not a slog entry');
  for (const opt of terminalOptions()) cmd.addOption(opt);
  return cmd;
}

export function renderOptionsFrom(opts: RenderCliOptions): RenderOptions {
  return {
    nonoise: opts.nonoise === true,
    novatstore: opts.novatstore === true,
    timing: opts.timing === true || opts.parts === true,
    ...(opts.parts === true ? { parts: true } : {}),
    bigWidth: opts.bigwidth ?? DEFAULT_BIG_WIDTH,
    vatspace: opts.vatspace === true,
    crankbreaks: opts.crankbreaks,
    clist: opts.clist,
    usesloggertags: opts.usesloggertags === true,
    summarize: opts.summarize === true,
    noTimes: opts.times === false,
  };
}

/** Renders one slog; resolves to the exit status. */
export async function renderCommand(files: string[], opts: RenderCliOptions): Promise<number> {
  if (opts.watch) return watchRender(files, opts, (out) => renderCommand(files, { ...opts, watch: false, out }));
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
  try {
    return await render(files, opts, out);
  } catch (err) {
    out.discard();
    throw err;
  }
}

async function render(files: string[], opts: RenderCliOptions, out: Output): Promise<number> {
  const annotations = annotationsFrom(opts);
  const selection = selectionFrom(opts, files);
  const terminal = new TerminalSession(files, opts, annotations);
  try {
    const result = await passOrFail(
      renderSlog({
        inputs: files,
        options: renderOptionsFrom(opts),
        annotations,
        selection,
        out: await terminal.textOut(out),
        onBadLine: reportBadLine,
        onOpen: (source) => terminal.opened(source, out),
        settings: opts.strict ? strictSettings(commandSettings()) : commandSettings(),
        ...terminal.runHooks(out), // afterBatch: backpressure and progress (and a flush per batch with --follow)
      }),
    );
    terminal.close();
    await out.close();
    if (result.selecting && result.selected === 0) warn(`${result.name}: no cranks match ${result.selectionText}`);
    return opts.strict && result.badLines > 0 ? EXIT_FAILURE : EXIT_OK;
  } finally {
    terminal.close();
  }
}
