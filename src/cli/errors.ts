/**
 * How slogulate fails: one line on stderr, prefixed `slogulate: `, and a Unix
 * exit status (0 ok, 1 failure or threshold hit, 2 usage error).
 */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** An error that ends the command with a one-line message and an exit status. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
  }
}

/** Where help is, as every error that points there writes it: `(see slogulate stats --help)`; no command: the root's. */
export function helpPointer(command?: string): string {
  return `(see slogulate ${command === undefined ? '' : `${command} `}--help)`;
}

/** One line on stderr: a line end inside the message (a quoted text's) is written as `\n`. */
export function warn(message: string): void {
  process.stderr.write(`slogulate: ${message.replace(/\r?\n/g, '\\n')}\n`);
}
