/**
 * `slogulate index FILE...`: writes each slog's index beside it (or in the
 * cache folder when its folder cannot be written to), so that `--cranks`,
 * `--blocks`, `--since` and `--until` on a gzipped one begin reading at the
 * gzip member that holds the selection, and on a plain one need not search
 * every byte for what comes before it (run/gzip-index.ts,
 * docs/gzip-index.md).
 */
import type { Command } from 'commander';
import { writeIndex, type GzipIndex } from '../../source/gzip-index.js';
import { InputError } from '../../source/open.js';
import { indexOfGzip, indexOfPlain, isGzipFile } from '../../run/gzip-index.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { SUMMARIES } from './summaries.js';

const MB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function indexCommand(files: string[]): Promise<number> {
  const gzip: boolean[] = [];
  for (const file of files) {
    try {
      gzip.push(isGzipFile(file));
    } catch (err) {
      if (err instanceof InputError) throw new CliError(err.message, EXIT_USAGE);
      throw err;
    }
  }
  for (const [i, file] of files.entries()) {
    try {
      const index = gzip[i] ? await indexOfGzip(file) : indexOfPlain(file);
      const where = writeIndex(file, index);
      process.stdout.write(`${file}: ${gzip[i] ? gzipPlaces(index) : plainPieces(index)}; index ${where}${gzip[i] ? oneMember(index) : ''}\n`);
    } catch (err) {
      if (err instanceof InputError) throw new CliError(err.message, EXIT_FAILURE);
      throw err;
    }
  }
  return EXIT_OK;
}

/** A gzip file's index: its members, and the slog's size. */
function gzipPlaces(index: GzipIndex): string {
  return `${index.members.length} gzip member${index.members.length === 1 ? '' : 's'}, ${MB(index.size)} of slog`;
}

/** A plain file's index: its size and pieces. */
function plainPieces(index: GzipIndex): string {
  return `${MB(index.size)} in ${index.members.length} piece${index.members.length === 1 ? '' : 's'}`;
}

/** A gzip file of one member has nothing to seek into: said after its index's place. */
function oneMember(index: GzipIndex): string {
  return index.members.length === 1 ? ' (one member: nothing to seek into; slogulate recompress makes many)' : '';
}

export function register(program: Command): Command {
  const cmd = program
    .command('index')
    .description(SUMMARIES.index)
    .argument('<files...>', 'slogs, gzipped or plain (each indexed on its own)');
  cmd.addHelpText(
    'after',
    `
The index records where each gzip member (of a plain slog: each 4 MB
piece) begins, and the crank, block and time there, and what a seek would
otherwise read the whole slog for (the create-vat lines, the kernel starts,
the crank-starts and begin-blocks summed up). It is written beside the
slog (FILE.slogidx), or, when that folder cannot be written to, in $XDG_CACHE_HOME/slogulate (~/.cache/slogulate).
An index the slog no longer matches (size, time, first bytes) is not used:
a live slog's index is out of date at its next line.
A plain slog of 256 MB or more is indexed by its first selection
(--cranks, --blocks, --since, --until) into the cache folder, unless
SLOGULATE_INDEX_CACHE_MB=off; a .gz one only by this command.
A gzip file of one member (gzip, pigz) has nothing to seek into: rewrite it
with slogulate recompress. See docs/gzip-index.md.
Examples:
  slogulate index chain.slog.gz
  slogulate index chain.slog
  slogulate --cranks 7215-7495 chain.slog.gz`,
  );
  cmd.action(async (files: string[]) => {
    process.exitCode = await indexCommand(files);
  });
  return cmd;
}
