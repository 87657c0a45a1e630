/**
 * `slogulate recompress IN OUT`: rewrites a slog (plain or gzipped) as
 * gzip members of a few MB of slog each, cut at line ends (as bgzip does),
 * which every gzip reader reads as one stream, and writes OUT's index
 * (run/gzip-index.ts, docs/gzip-index.md). OUT is opened as every
 * command's output is (output-file.ts: never the input, written under a
 * temporary name and put in place once whole); its index is written once
 * it is in place.
 */
import { statSync } from 'node:fs';
import { InvalidArgumentError, type Command, type Option } from 'commander';
import { writeIndex } from '../../source/gzip-index.js';
import { InputError } from '../../source/open.js';
import { isGzipFile, MEMBER_BYTES, recompress, stampOfPath } from '../../run/gzip-index.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { openOutput, outputOptions, sayWritten } from '../output-file.js';
import { SUMMARIES } from './summaries.js';

interface RecompressOptions {
  memberSize: number;
  level?: number;
  force?: boolean;
}

function parseMegabytes(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1024) throw new InvalidArgumentError('expected megabytes, more than 0 and at most 1024');
  return Math.max(1, Math.round(n * 1024 * 1024));
}

function parseLevel(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 9) throw new InvalidArgumentError('expected a gzip level from 1 to 9');
  return n;
}

export async function recompressCommand(input: string, out: string, opts: RecompressOptions): Promise<number> {
  if (input === '-' || out === '-') throw new CliError('recompress reads a file and writes a file (its index is of the file): not stdin or stdout', EXIT_USAGE);
  try {
    isGzipFile(input);
  } catch (err) {
    // An input that cannot be opened: a usage error, before OUT is touched.
    if (err instanceof InputError) throw new CliError(err.message, EXIT_USAGE);
    throw err;
  }
  const output = openOutput(out, { inputs: [input], force: opts.force });
  try {
    const made = await recompress({
      input,
      write: (bytes) => output.writeBytes(bytes),
      drained: () => output.drained(),
      memberBytes: opts.memberSize,
      ...(opts.level === undefined ? {} : { level: opts.level }),
    });
    await output.close();
    let where = 'no index: not a regular file';
    if (statSync(out).isFile()) where = `index ${writeIndex(out, made.index(stampOfPath(out)))}`;
    sayWritten(out, `${made.members} gzip member${made.members === 1 ? '' : 's'} of ${(made.size / 1024 / 1024).toFixed(1)} MB of slog; ${where}`);
    return EXIT_OK;
  } catch (err) {
    output.discard();
    if (err instanceof InputError) throw new CliError(err.message, EXIT_FAILURE);
    throw err;
  }
}

export function register(program: Command): Command {
  const [, forceOption] = outputOptions() as [Option, Option];
  const cmd = program
    .command('recompress')
    .description(SUMMARIES.recompress)
    .argument('<in>', 'the slog (plain or gzipped)')
    .argument('<out>', 'the gzip file to write (not the input)')
    .option('--member-size <MB>', 'slog bytes per gzip member, in MB (each member ends at a line end)', parseMegabytes, MEMBER_BYTES)
    .option('--level <n>', 'gzip level, 1 (fast) to 9 (small); default 6', parseLevel)
    .addOption(forceOption);
  cmd.addHelpText(
    'after',
    `
Every gzip reader (zcat, gunzip, slogulate) reads OUT as the slog IN held;
slogulate's selections (--cranks, --blocks, --since, --until) on it begin
at the member that holds them, through the index written beside it
(OUT.slogidx). Smaller members make a seek read less, and the file a little
bigger (about 1.6% more than one member at 2 MB). See docs/gzip-index.md.
Examples:
  slogulate recompress chain.slog chain.slog.gz
  slogulate recompress --member-size 4 old.slog.gz new.slog.gz`,
  );
  cmd.action(async (input: string, out: string, opts: RecompressOptions) => {
    process.exitCode = await recompressCommand(input, out, opts);
  });
  return cmd;
}
