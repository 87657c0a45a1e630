/**
 * A mistake in what the user asked for, found while a pass runs (a round
 * mark that contradicts another, a threshold on a metric the slogs lack):
 * the command line reports it as a usage error (exit 2), one line.
 */
export class UsageError extends Error {}
