/**
 * `slogulate index FILE.gz...`: writes each gzipped slog's index beside it
 * (or in the cache folder when its folder cannot be written to), so that
 * `--cranks`, `--blocks`, `--since` and `--until` on it begin reading at
 * the gzip member that holds the selection (run/gzip-index.ts,
 * docs/gzip-index.md).
 */
import type { Command } from 'commander';
import { writeIndex } from '../../source/gzip-index.js';
import { InputError } from '../../source/open.js';
import { indexOfGzip, isGzipFile } from '../../run/gzip-index.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { SUMMARIES } from './summaries.js';

const MB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function indexCommand(files: string[]): Promise<number> {
  for (const file of files) {
    let gzip: boolean;
    try {
      gzip = isGzipFile(file);
    } catch (err) {
      if (err instanceof InputError) throw new CliError(err.message, EXIT_USAGE);
      throw err;
    }
    if (!gzip) throw new CliError(`${file}: not gzip (a plain slog needs no index: selections seek in it as it is)`, EXIT_USAGE);
  }
  for (const file of files) {
    try {
      const index = await indexOfGzip(file);
      const where = writeIndex(file, index);
      const one = index.members.length === 1 ? ' (one member: nothing to seek into; slogulate recompress makes many)' : '';
      const members = `${index.members.length} gzip member${index.members.length === 1 ? '' : 's'}`;
      process.stdout.write(`${file}: ${members}, ${MB(index.size)} of slog; index ${where}${one}\n`);
    } catch (err) {
      if (err instanceof InputError) throw new CliError(err.message, EXIT_FAILURE);
      throw err;
    }
  }
  return EXIT_OK;
}

export function register(program: Command): Command {
  const cmd = program
    .command('index')
    .description(SUMMARIES.index)
    .argument('<files...>', 'gzipped slogs (each indexed on its own)');
  cmd.addHelpText(
    'after',
    `
The index records where each gzip member begins, and the crank, block and
time there, and what a seek would otherwise read the whole slog for (the
create-vat lines, the kernel starts, the crank-starts and begin-blocks
summed up). It is written beside the slog (FILE.gz.slogidx), or, when that
folder cannot be written to, in $XDG_CACHE_HOME/slogulate (~/.cache/slogulate).
An index the slog no longer matches (size, time, first bytes) is not used.
A gzip file of one member (gzip, pigz) has nothing to seek into: rewrite it
with slogulate recompress. See docs/gzip-index.md.
Examples:
  slogulate index chain.slog.gz
  slogulate --cranks 7215-7495 chain.slog.gz`,
  );
  cmd.action(async (files: string[]) => {
    process.exitCode = await indexCommand(files);
  });
  return cmd;
}
