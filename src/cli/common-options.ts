/**
 * Options several commands share, and their parsing into model values.
 */
import { InvalidArgumentError, Option } from 'commander';
import { AnnotationError, emptyAnnotations, loadAnnotations, type Annotations } from '../model/annotations.js';
import { parseRanges, SelectionError, type SelectionSpec } from '../analyses/common/selection.js';
import { parseTimeBound, resolveTimeBound, type TimeBound } from '../analyses/common/time-bounds.js';
import { InputError } from '../source/open.js';
import { lastTimeOf } from '../source/last-time.js';
import { expandInputs } from '../source/inputs.js';
import { parseThreshold, THRESHOLD_GRAMMAR, ThresholdError, type Threshold } from '../analyses/compare/thresholds.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, helpPointer } from './errors.js';
import { STALL_SECONDS } from '../model/stalls.js';

/** A number JavaScript holds exactly (at most 2^53 - 1): a larger one would be read as another. */
function exactly(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${value} is too large (at most ${Number.MAX_SAFE_INTEGER})`);
  return n;
}

export function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number');
  return exactly(value);
}

export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) === 0) throw new InvalidArgumentError('expected a whole number above 0');
  return exactly(value);
}

/** Why two annotation files are refused, rather than one silently winning over the other. */
const twoAnnotationFiles = (first: string, second: string): string => `one annotation file at a time (${first} and ${second}): put their names in one file`;

/** One annotation file: a second is refused. */
function oneAnnotationFile(value: string, previous: string | undefined): string {
  if (previous !== undefined && previous !== value) throw new InvalidArgumentError(twoAnnotationFiles(previous, value));
  return value;
}

/** `--annotations F` and its slogulator alias `--annot F`. */
export function annotationOptions(): Option[] {
  return [
    new Option('--annotations <file>', 'name vats, cranks and refs from a JSON annotation file').argParser(oneAnnotationFile),
    new Option('--annot <file>', 'alias of --annotations (the slogulator\'s spelling)').argParser(oneAnnotationFile),
  ];
}

/** Loads the annotation file named by --annotations/--annot, if any. Bad files end the command (exit 2). */
export function annotationsFrom(opts: { annotations?: string; annot?: string }): Annotations {
  if (opts.annotations !== undefined && opts.annot !== undefined && opts.annotations !== opts.annot) {
    throw new CliError(twoAnnotationFiles(`--annotations ${opts.annotations}`, `--annot ${opts.annot}`), EXIT_USAGE);
  }
  const file = opts.annotations ?? opts.annot;
  if (file === undefined) return emptyAnnotations();
  try {
    return loadAnnotations(file);
  } catch (err) {
    if (err instanceof AnnotationError) throw new CliError(`annotation file ${err.message}`, EXIT_USAGE);
    throw err;
  }
}

/** `--blocks LIST`: chain block heights. */
export function blocksOption(description = 'only the cranks these chain blocks ran (heights): 85,100-120,13499082-'): Option {
  return new Option('--blocks <list>', description);
}

/** `--cranks LIST`, `--vat V` (repeatable), `--blocks LIST`, `--since TIME` and `--until TIME`. */
export function selectionOptions(): Option[] {
  return [
    new Option('--cranks <list>', 'only these cranks: 7215-7495,8000,9000-'),
    new Option('--vat <vat>', 'only cranks of this vat (ID like v46, or a vat name); repeatable').argParser(
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    ),
    blocksOption(),
    new Option('--since <time>', 'only cranks whose crank-start time is at or after TIME: epoch seconds (1795308042.5), an ISO date (2026-11-20T10:00:00Z; UTC without a zone) or a duration before the slog\'s end (10m, 90s, 1h30m)'),
    new Option('--until <time>', 'only cranks whose crank-start time is before TIME (as --since)'),
  ];
}

/** Parses a range list option (`--cranks`, `--blocks`); a bad one is a usage error naming the option. */
export function rangesFrom(option: string, text: string, what: string): NonNullable<SelectionSpec['cranks']> {
  try {
    return parseRanges(text, what);
  } catch (err) {
    if (err instanceof SelectionError) throw new CliError(`${option}: ${err.message}`, EXIT_USAGE);
    throw err;
  }
}

/** Parses `--since`/`--until`'s TIME; a bad one is a usage error naming the option. */
function timeBoundFrom(option: string, text: string): TimeBound {
  try {
    return parseTimeBound(text);
  } catch (err) {
    if (err instanceof SelectionError) throw new CliError(`${option}: ${err.message}`, EXIT_USAGE);
    throw err;
  }
}

/**
 * The slog's last time, for a duration back from its end: the last line
 * with a `time` of the last file that has one (a folder's files in the
 * order they are read: of per-block files, the last block's). `files`
 * undefined: the command does not take a duration (compare: two slogs,
 * two ends).
 */
function slogEndTime(option: string, text: string, files: readonly string[] | undefined): number {
  const giveTime = 'give a time instead';
  if (files === undefined) throw new CliError(`${option} ${text}: a duration back from the slog's end is not taken here: ${giveTime}`, EXIT_USAGE);
  if (files.length === 0 || files.includes('-')) throw new CliError(`${option} ${text}: a duration needs a slog file to read its end from, not stdin: ${giveTime}`, EXIT_USAGE);
  for (const file of [...inputFiles(files)].reverse()) {
    let time: ReturnType<typeof lastTimeOf>;
    try {
      time = lastTimeOf(file);
    } catch (err) {
      if (err instanceof InputError) throw new CliError(err.message, EXIT_FAILURE);
      throw err;
    }
    if (typeof time === 'number') return time;
    if (time !== undefined) throw new CliError(`${option} ${text}: a duration counts back from the slog's end, which cannot be read here: ${file} is ${time.cannot}: ${giveTime}`, EXIT_USAGE);
  }
  throw new CliError(`${option} ${text}: no line of ${files.join(', ')} has a time to count back from`, EXIT_USAGE);
}

/** The files a pass reads for these arguments (a folder's, in order); an unreadable folder is the pass's failure. */
function inputFiles(files: readonly string[]): string[] {
  try {
    return expandInputs(files) as string[];
  } catch (err) {
    if (err instanceof InputError) throw new CliError(err.message, EXIT_FAILURE);
    throw err;
  }
}

/**
 * The selection options as a spec. `files`: the slogs the command reads,
 * for a duration back from their end (read from the last file's tail);
 * undefined where a duration is not taken.
 */
export function selectionFrom(opts: { cranks?: string; vat?: string[]; blocks?: string; since?: string; until?: string }, files?: readonly string[]): SelectionSpec {
  const spec: SelectionSpec = {};
  if (opts.cranks !== undefined) spec.cranks = rangesFrom('--cranks', opts.cranks, 'crank');
  if (opts.vat?.length) spec.vats = opts.vat;
  if (opts.blocks !== undefined) spec.blocks = rangesFrom('--blocks', opts.blocks, 'block');
  const since = opts.since === undefined ? undefined : timeBoundFrom('--since', opts.since);
  const until = opts.until === undefined ? undefined : timeBoundFrom('--until', opts.until);
  let end: number | undefined;
  const endFor = (option: string, text: string): number => (end ??= slogEndTime(option, text, files));
  if (since !== undefined) spec.since = resolveTimeBound(since, 'ago' in since ? endFor('--since', opts.since as string) : undefined);
  if (until !== undefined) spec.until = resolveTimeBound(until, 'ago' in until ? endFor('--until', opts.until as string) : undefined);
  if (spec.since !== undefined && spec.until !== undefined && spec.until <= spec.since) {
    throw new CliError(`--until ${opts.until} is not after --since ${opts.since}: no crank can match`, EXIT_USAGE);
  }
  return spec;
}

/** The warning for an analysis that found no cranks: the slog holds none, or none is selected. */
export function noCranksWarning(slog: string, spec: SelectionSpec, selection: string): string {
  const selecting = spec.cranks !== undefined || spec.vats !== undefined || spec.blocks !== undefined || spec.since !== undefined || spec.until !== undefined;
  return selecting ? `${slog}: no cranks match ${selection}` : `${slog}: holds no cranks`;
}

/** Parses every --fail-on before any slog is read: a bad one is a one-line usage error giving the grammar's form; `compare --help` has all of it. */
export function thresholdsFrom(exprs: string[] | undefined): Threshold[] {
  const form = THRESHOLD_GRAMMAR.split('\n')[0] as string;
  return (exprs ?? []).map((text) => {
    try {
      return parseThreshold(text);
    } catch (err) {
      if (err instanceof ThresholdError) throw new CliError(`--fail-on '${text}': ${err.message}; ${form} ${helpPointer('compare')}`, EXIT_USAGE);
      throw err;
    }
  });
}

/** `--gap SECONDS`: a number of seconds above 0. */
export function parseGapSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('expected a number of seconds above 0');
  return seconds;
}

/** `--gap SECONDS`, the stalls' threshold, the same for `stats`, `export` and `query`; `note` is added to its help. */
export function gapOption(note = ''): Option {
  return new Option('--gap <seconds>', `a stall is more than this many seconds between two consecutive entries${note}`).argParser(parseGapSeconds).default(STALL_SECONDS);
}
