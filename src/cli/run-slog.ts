/**
 * The one streaming pass every command makes: open the slog, parse its lines,
 * report bad lines (`slogulate: FILE:LINE: why`) and skip them, and feed the
 * entries to a crank assembler and its sink.
 */
import { CrankAssembler, type CrankSink } from '../model/assembler.js';
import type { SlogEntry } from '../model/types.js';
import { forEachEntry, type ReadStats } from '../input/entries.js';
import { InputError, openSlog, type SlogSource } from '../input/open.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, warn } from './errors.js';

export interface SlogRun {
  /** A path, `-` or undefined for stdin. */
  file: string | undefined;
  /** Sees every entry, in order, before it is assembled into cranks. */
  observe?: (entry: SlogEntry, line: number) => void;
  /** Receives outside entries and whole cranks. */
  sink: CrankSink;
  /** Awaited after each batch of lines (output backpressure). */
  afterBatch?: () => Promise<void> | void;
  /** Called once the source is open (e.g. to start a progress display). */
  onOpen?: (source: SlogSource) => void;
}

export interface SlogRunResult extends ReadStats {
  source: SlogSource;
}

export async function runSlog(run: SlogRun): Promise<SlogRunResult> {
  let source: SlogSource;
  try {
    source = await openSlog(run.file);
  } catch (err) {
    if (err instanceof InputError) throw new CliError(err.message, EXIT_USAGE);
    throw err;
  }
  run.onOpen?.(source);
  const assembler = new CrankAssembler(run.sink);
  const observe = run.observe;
  let stats: ReadStats;
  try {
    stats = await forEachEntry(
      source,
      (entry, line) => {
        if (observe) observe(entry, line);
        assembler.push(entry, line);
      },
      (bad) => warn(`${source.name}:${bad.line}: ${bad.why}`),
      run.afterBatch,
    );
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = err instanceof InputError ? err.why : code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' ? `not valid gzip data (${(err as Error).message})` : (err as Error).message;
    // Whatever was read so far is still handed over.
    assembler.end();
    throw new CliError(`${source.name}: ${why}`, EXIT_FAILURE);
  }
  assembler.end();
  return { ...stats, source };
}
