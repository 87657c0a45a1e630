/**
 * `slogulate extract [selection] FILE... [-o OUT]`: the raw lines of a
 * selection, with the lines the crank model needs so that the extract,
 * rendered with the same selection, prints what the slog did
 * (src/run/extract.ts). Plain or gzipped (`-o F.gz`, `--gzip`); the file is
 * opened as every command's output is (output-file.ts: never an input,
 * written under a temporary name and put in place once whole).
 */
import { InvalidArgumentError, type Command, type Option } from 'commander';
import { isSelecting } from '../../analyses/common/selection.js';
import { extractSlog, type RunSpec } from '../../run/extract.js';
import { commandSettings } from '../../run/pass-settings.js';
import { zlib } from '../../source/builtins.js';
import { selectionFrom, selectionOptions } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_USAGE, warn } from '../errors.js';
import type { Output } from '../output.js';
import { openOutput, outputOptions, sayWritten } from '../output-file.js';
import { passOrFail, reportBadLine } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';

interface ExtractCliOptions {
  cranks?: string;
  blocks?: string;
  vat?: string[];
  since?: string;
  until?: string;
  run?: RunSpec;
  out?: string;
  force?: boolean;
  gzip?: boolean;
}

/** `--run 150:2`: block 150's run 2, as `slogulate runs` numbers them. */
function parseRun(value: string): RunSpec {
  const m = /^(\d+):(\d+)$/.exec(value.trim());
  if (!m || !Number.isSafeInteger(Number(m[1])) || !Number.isSafeInteger(Number(m[2]))) throw new InvalidArgumentError('expected HEIGHT:RUN, as `slogulate runs` prints them (150:2)');
  return { height: Number(m[1]), num: Number(m[2]) };
}

/** Where the bytes go: the output, through gzip when asked. `end` flushes and closes. */
function byteSink(out: Output, gzip: boolean): { write: (bytes: Buffer) => void; drained: () => Promise<void>; end: () => Promise<void> } {
  if (!gzip) return { write: (bytes) => out.writeBytes(bytes), drained: () => out.drained(), end: () => out.close() };
  const z = zlib().createGzip();
  z.on('data', (chunk: Buffer) => out.writeBytes(chunk));
  return {
    write: (bytes) => {
      z.write(Buffer.from(bytes));
    },
    drained: async () => {
      if (z.writableNeedDrain) await new Promise((resolve) => z.once('drain', resolve));
      await out.drained();
    },
    end: async () => {
      await new Promise<void>((resolve, reject) => {
        z.once('error', reject);
        z.end(() => resolve());
      });
      await out.close();
    },
  };
}

export async function extractCommand(files: string[], opts: ExtractCliOptions): Promise<number> {
  if (files.length === 0 || files.includes('-')) throw new CliError('extract reads its files twice (the lines it keeps again): give files, not stdin', EXIT_USAGE);
  const selection = selectionFrom(opts, files);
  if (!isSelecting(selection) && opts.run === undefined) throw new CliError('extract needs a selection: --cranks, --blocks, --run, --since, --until or --vat', EXIT_USAGE);
  const out = openOutput(opts.out, { inputs: files, force: opts.force });
  const gzip = opts.gzip === true || (opts.out !== undefined && opts.out.endsWith('.gz'));
  if (opts.out === undefined && !gzip && process.stdout.isTTY) warn('the extract is a slog (JSON lines): give -o FILE, or pipe it');
  const sink = byteSink(out, gzip);
  try {
    const result = await passOrFail(
      extractSlog({
        inputs: files,
        selection,
        ...(opts.run ? { run: opts.run } : {}),
        write: sink.write,
        drained: sink.drained,
        onBadLine: reportBadLine,
        settings: commandSettings(),
      }),
    );
    await sink.end();
    sayWritten(opts.out, `${result.lines} lines, ${result.cranks} cranks`);
    if (result.cranks === 0) warn(`${result.name}: no cranks match the selection`);
    return EXIT_OK;
  } catch (err) {
    out.discard();
    throw err;
  }
}

export function register(program: Command): Command {
  const [outOption, forceOption] = outputOptions('write the extract to file instead of stdout (gzipped when it ends in .gz)') as [Option, Option];
  const cmd = program
    .command('extract')
    .description(SUMMARIES.extract)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files; plain or gzipped); not stdin');
  for (const opt of selectionOptions()) cmd.addOption(opt);
  cmd
    .option('--run <height:run>', 'only the cranks of this chain run (block height and run number, as `slogulate runs` prints them: 150:2)', parseRun)
    .addOption(outOption)
    .addOption(forceOption)
    .option('--gzip', 'gzip the extract (the default for an --out name ending in .gz)');
  cmd.addHelpText(
    'after',
    `
The extract holds every line of the selected cranks, and the lines the crank
model needs to make the same of them: the create-vat lines of the vats they
name; with --blocks or --run the chain lines of those blocks (begin-block,
run-start...: which block and run a crank ran in), and with --blocks every
line outside a crank from each block's begin-block to its commit (kernel-stats,
bridge-inbound), as agoric-sdk's extract-block.py; when a selected crank ran
again after a restart, the kernel starts and the crank before each restart.
Rendered with the same selection, it prints what the slog prints. On a plain
file it seeks as the render does (docs/selections.md).
Examples:
  slogulate extract --cranks 7215-7495 chain.slog -o round1.slog
  slogulate extract --blocks 100-102 chain.slog.gz -o blocks.slog.gz
  slogulate extract --since 10m --vat zoe chain.slog | slogulate --vat zoe -`,
  );
  cmd.action(async (files: string[], _opts: ExtractCliOptions, command: Command) => {
    // The root command has some of these options too (--cranks, -o...): read both.
    process.exitCode = await extractCommand(files, command.optsWithGlobals<ExtractCliOptions>());
  });
  return cmd;
}
