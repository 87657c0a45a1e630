/**
 * `slogulate annotate [files...]`: an annotation file naming every kref whose
 * making the slog shows (src/analyses/flow/auto-names.ts says how), optionally
 * merged into an existing one (`--merge F`: every name in F is kept).
 *
 * `-o F` replaces F only when annotate wrote it and nobody edited it since
 * (its mark, analyses/flow/annotation-mark.ts), or with `--force`: names
 * chosen by hand are not lost. `--merge F -o F` updates F in place: its
 * names kept, the new ones added, F replaced only once the command ran to
 * its end (output-file.ts), as every output is.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import type { Command, Option } from 'commander';
import { annotateMark, markedAnnotationText } from '../../analyses/flow/annotation-mark.js';
import { annotationFile, AutoNames } from '../../analyses/flow/auto-names.js';
import { VatNames } from '../../model/vats.js';
import { annotationsFrom } from '../common-options.js';
import { CliError, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { openOutput, outputOptions, sayWritten } from '../output-file.js';
import type { Output } from '../output.js';
import { krefModelOf } from '../../run/analyses.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { SUMMARIES } from './summaries.js';
import { commandSettings } from '../../run/pass-settings.js';

interface AnnotateOptions {
  merge?: string;
  out?: string;
  force?: boolean;
}

const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/** Is `--out` the `--merge` file (the same file, through links too)? */
function outIsMerge(opts: AnnotateOptions): boolean {
  if (opts.out === undefined || opts.merge === undefined) return false;
  const [out, merge] = [statOf(opts.out), statOf(opts.merge)];
  return out !== undefined && merge !== undefined && out.dev === merge.dev && out.ino === merge.ino;
}

/** Refuses to replace a file of names someone chose: one annotate did not write, or edited since (see the file's comment). */
function keepChosenNames(path: string, out: Output): void {
  const stats = statOf(path);
  if (!stats?.isFile() || stats.size === 0) return;
  let verdict;
  try {
    verdict = annotateMark(readFileSync(path, 'utf8'));
  } catch {
    return; // Unreadable: output-file.ts said why, or the write will.
  }
  if (verdict === 'unchanged') return;
  out.discard();
  const why = verdict === 'edited' ? 'edited since slogulate annotate wrote it' : 'not written by slogulate annotate';
  throw new CliError(`--out ${path}: ${why}; not replacing it (--merge ${path} -o ${path} keeps its names and adds the new ones; --force replaces it)`, EXIT_USAGE);
}

export async function annotateCommand(files: string[], opts: AnnotateOptions): Promise<number> {
  const inPlace = outIsMerge(opts);
  // The merge file may be the output: it is read whole before the slog, and replaced only at the end.
  const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), inPlace ? undefined : opts.merge], force: opts.force });
  if (opts.out !== undefined && !inPlace && !opts.force) keepChosenNames(opts.out, out);
  const merge = opts.merge === undefined ? undefined : annotationsFrom({ annotations: opts.merge });
  const { model, reader } = await passOrFail(
    krefModelOf({ inputs: files, start: () => ({ vats: new VatNames(merge?.vatNames), value: undefined }), ...ANALYSIS_REPORTS, settings: commandSettings() }),
  );
  const json = annotationFile(new AutoNames(model, reader.vats), merge);
  out.write(markedAnnotationText(json));
  await out.close();
  sayWritten(opts.out, `${Object.keys(json.kernelRefs).length} kref names`);
  return EXIT_OK;
}

export function register(program: Command): Command {
  const [outOption, forceOption] = outputOptions() as [Option, Option];
  return program
    .command('annotate')
    .description(SUMMARIES.annotate)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .option('--merge <file>', 'start from this annotation file: keep all its names, labels and vat names, add the rest')
    .addOption(outOption)
    .addOption(forceOption)
    .addHelpText(
      'after',
      `
Examples:
  slogulate annotate chain.slog > names.json
  slogulate --annotations names.json chain.slog         render with the names
  slogulate annotate --merge mine.json chain.slog -o all.json
  slogulate annotate --merge names.json -o names.json chain.slog   add new krefs, keep your names

-o F does not replace a file annotate did not write, or that was edited
since it wrote it (its "writtenBy" mark), unless --force.`,
    )
    .action(async (files: string[], _opts: AnnotateOptions, command: Command) => {
      // The root command has some of these options too (--annotations, --cranks, --out): read both.
      process.exitCode = await annotateCommand(files, command.optsWithGlobals<AnnotateOptions>());
    });
}
