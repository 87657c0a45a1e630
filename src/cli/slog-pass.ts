/**
 * How the command line runs a pass (run/): bad lines are reported on stderr
 * as `slogulate: FILE:LINE: why`, and a pass that cannot go on ends the
 * command with one line: a slog that cannot be opened is a usage error (2),
 * one that fails while read, or is not a slog at all, a failure (1).
 */
import { PassError, type BadLineReport } from '../run/pass.js';
import { UsageError } from '../run/usage-error.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, warn } from './errors.js';

export function reportBadLine(bad: BadLineReport): void {
  warn(`${bad.source}:${bad.line}: ${bad.why}`);
}

/** What an analysis pass tells on stderr: its bad lines, and what its figures may get wrong. */
export const ANALYSIS_REPORTS = { onBadLine: reportBadLine, onWarning: warn } as const;

/** The pass's result, or its failure as a CliError. */
export async function passOrFail<T>(pass: Promise<T>): Promise<T> {
  try {
    return await pass;
  } catch (err) {
    if (err instanceof PassError) throw new CliError(err.message, err.kind === 'open' ? EXIT_USAGE : EXIT_FAILURE);
    if (err instanceof UsageError) throw new CliError(err.message, EXIT_USAGE);
    throw err;
  }
}
