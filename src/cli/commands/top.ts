/**
 * `slogulate top [files...]`: the delivery cranks that cost the most, ranked six
 * ways (or by a part of the time split), each listed as its `--timing` crank
 * header (`--parts` header for a part) with what the crank did.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_TOP_KEYS, isPartKey, TOP_KEYS, TOP_PART_KEYS, type TopKey, type TopResult } from '../../analyses/top/top.js';
import { topOf } from '../../run/analyses.js';
import { ANALYSIS_REPORTS, passOrFail } from '../slog-pass.js';
import { commandSettings } from '../../run/pass-settings.js';
import { annotationOptions, annotationsFrom, noCranksWarning, parsePositiveInt, selectionFrom, selectionOptions } from '../common-options.js';
import { EXIT_OK, warn } from '../errors.js';
import { openOutput, outputOptions } from '../output-file.js';
import { SUMMARIES } from './summaries.js';

export const DEFAULT_TOP_N = 5;

interface TopCliOptions {
  by?: TopKey[];
  count: number;
  json?: boolean;
  cranks?: string;
  blocks?: string;
  vat?: string[];
  annotations?: string;
  annot?: string;
  out?: string;
  force?: boolean;
}

function parseKey(value: string, previous: TopKey[] | undefined): TopKey[] {
  if (!(TOP_KEYS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${TOP_KEYS.join(', ')}`);
  }
  const key = value as TopKey;
  return previous?.includes(key) ? previous : [...(previous ?? []), key];
}

/** The rankings as text: a title line per section, then the cranks' header lines. */
export function topText(result: TopResult): string {
  const scope = result.selection === 'all cranks' ? '' : ` (${result.selection})`;
  const sections = result.rankings.map((r) => {
    const lines = [`Top ${r.cranks.length} of ${result.ranked} delivery cranks${scope} by ${r.title}:`];
    if (r.key === 'computrons' && !result.hasComputrons) lines.push('(no crank reports computrons: not an XS worker slog?)');
    const part = isPartKey(r.key);
    if (part && r.cranks.length === 0) lines.push(`(no crank has ${r.key} time known and above 0)`);
    for (const crank of r.cranks) lines.push(part ? crank.partsLine : crank.line);
    return lines.join('\n');
  });
  return sections.length ? `${sections.join('\n\n')}\n` : '';
}

export function register(program: Command): Command {
  const cmd = program
    .command('top')
    .description(SUMMARIES.top)
    .argument('[files...]', 'the slog (files read in order as one slog, folders of per-block files); - or nothing reads stdin')
    .addOption(
      new Option(
        '--by <key>',
        `rank by this (repeatable): ${TOP_KEYS.join(', ')} (default: ${DEFAULT_TOP_KEYS.join(', ')}, computrons only where the slog has them)`,
      ).argParser(parseKey),
    )
    .addOption(new Option('-n, --count <n>', 'how many cranks per ranking').argParser(parsePositiveInt).default(DEFAULT_TOP_N))
    .option('--json', 'print the rankings as JSON');
  for (const opt of selectionOptions()) cmd.addOption(opt);
  for (const opt of annotationOptions()) cmd.addOption(opt);
  for (const opt of outputOptions()) cmd.addOption(opt);
  cmd.addHelpText(
    'after',
    `
Each ranking lists the cranks as their --timing header lines, with what the
crank did (its first delivery's method or kind) after the vat's name; equal
figures keep crank order. local is total less syscalls: vat, pipe, page-in,
snapshot and kernel time together.
${TOP_PART_KEYS.join(', ')} rank by that part of the time split
(docs/time-split.md), each crank listed with the split (as --parts prints it).
A crank where the part is 0, unknown (vat and pipe where the worker's
timestamps are unusable) or absent (gc without bringOutYourDead) is left out.
Examples:
  slogulate top chain.slog                         top 5 six ways
  slogulate top --by syscall -n 10 chain.slog      the 10 cranks with most time in syscalls
  slogulate top --by vat --by snapshot chain.slog  most vat code; most heap snapshot time
  slogulate top --cranks 7215-7495 --vat zoe chain.slog`,
  );
  cmd.action(async (files: string[], _opts: TopCliOptions, command: Command) => {
    // The render's options (--annotations, --cranks, --vat) also exist on the root
    // command, which may take them wherever they appear: read both.
    const opts = command.optsWithGlobals<TopCliOptions>();
    const out = openOutput(opts.out, { inputs: [...(files.length ? files : ['-']), opts.annotations ?? opts.annot], force: opts.force });
    const annotations = annotationsFrom(opts);
    const selection = selectionFrom(opts, files);
    const { top: result, cranksSelected, pass } = await passOrFail(
      topOf({ inputs: files, keys: opts.by, n: opts.count, selection, annotations, textOnly: opts.json !== true, ...ANALYSIS_REPORTS, settings: commandSettings() }),
    );
    if (cranksSelected === 0) {
      warn(noCranksWarning(pass.name, selection, result.selection));
    } else if (result.ranked === 0) {
      warn(`${pass.name}: no finished delivery cranks in ${result.selection}`);
    }
    if (opts.json) out.write(`${JSON.stringify({ slog: pass.name, ...result }, null, 2)}\n`);
    else if (result.ranked > 0) out.write(topText(result));
    await out.close();
    process.exitCode = EXIT_OK;
  });
  return cmd;
}
