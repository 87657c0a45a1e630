/**
 * `slogulate [options] [file]`: the text render.
 */
import { Option, type Command } from 'commander';
import { TextRenderer } from '../render/text-renderer.js';
import { DEFAULT_BIG_WIDTH, type RenderOptions } from '../render/options.js';
import { annotationOptions, annotationsFrom, parseNonNegativeInt } from './common-options.js';
import { EXIT_FAILURE, EXIT_OK } from './errors.js';
import { Output } from './output.js';
import { runSlog } from './run-slog.js';

export interface RenderCliOptions {
  nonoise?: boolean;
  novatstore?: boolean;
  timing?: boolean;
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
  strict?: boolean;
}

/** Adds the render options (the slogulator's spellings) to a command. */
export function addRenderOptions(cmd: Command): Command {
  cmd
    .option('--nonoise', 'drop routing cranks, crank-start/finish lines, subscribes and clist lines')
    .option('--novatstore', 'drop vatstore syscall lines')
    .option('--timing', 'times in crank headers, and after each syscall line')
    .option('--bigwidth <n>', `print values longer than n characters as <BIG> (default ${DEFAULT_BIG_WIDTH})`, parseNonNegativeInt);
  for (const opt of annotationOptions()) cmd.addOption(opt);
  cmd
    .addOption(new Option('--vatspace', 'show refs as the vat sees them (vrefs)').conflicts('kernelspace'))
    .option('--kernelspace', 'show refs as the kernel sees them (krefs; the default)')
    .option('--no-crankbreaks', 'no crank headers, no startup/end lines')
    .option('--no-clist', 'no clist lines')
    .option('--usesloggertags', "use the slogger's full tags (syscall send, notify fulfilled, ...)")
    .option('--summarize', 'end with a count of each entry type')
    .option('--no-times', 'drop every wall-clock figure, so that runs of the same work diff cleanly')
    .option('-o, --out <file>', 'write to file instead of stdout')
    .option('--strict', 'exit with status 1 if any line is not a slog entry');
  return cmd;
}

export function renderOptionsFrom(opts: RenderCliOptions): RenderOptions {
  return {
    nonoise: opts.nonoise === true,
    novatstore: opts.novatstore === true,
    timing: opts.timing === true,
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
export async function renderCommand(file: string | undefined, opts: RenderCliOptions): Promise<number> {
  const annotations = annotationsFrom(opts);
  const out = Output.open(opts.out);
  const renderer = new TextRenderer({
    options: renderOptionsFrom(opts),
    annotations,
    out: (text) => out.write(text),
  });
  try {
    const result = await runSlog({
      file,
      onOpen: () => renderer.begin(),
      observe: (entry) => renderer.observe(entry),
      sink: renderer,
      afterBatch: () => out.drained(),
    });
    renderer.end();
    await out.close();
    return opts.strict && result.badLines > 0 ? EXIT_FAILURE : EXIT_OK;
  } catch (err) {
    await out.close().catch(() => undefined);
    throw err;
  }
}
