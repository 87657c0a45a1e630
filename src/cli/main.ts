/**
 * The command line: `slogulate [options] [file]` renders; subcommands analyse.
 * Each subcommand lives in its own file under src/cli/commands and is
 * registered here.
 */
import { Command, CommanderError } from 'commander';
import { CliError, EXIT_FAILURE, EXIT_USAGE, warn } from './errors.js';
import { addRenderOptions, renderCommand, type RenderCliOptions } from './render-command.js';
import { SUBCOMMANDS } from './commands/index.js';

const EXAMPLES = `
Examples:
  slogulate chain.slog                          render a slog (plain or gzipped)
  slogulate --nonoise --novatstore chain.slog   only what the vats did, no vatstore traffic
  slogulate --timing chain.slog.gz > vslog      crank and syscall times
  cat chain.slog | slogulate -                  read stdin
  slogulate --annotations annot.json chain.slog name krefs, vats and cranks
  slogulate chain.slog | head                   stops quietly when the reader does`;

/** Commander's errors as one line: `slogulate: unknown option '--x' (see slogulate --help)`. */
function usageError(message: string, write: (s: string) => void): void {
  const text = message.trim().replace(/^error: /, '');
  write(`slogulate: ${text} (see slogulate --help)\n`);
}

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('slogulate')
    .description('Turn a SwingSet slog (JSON lines, plain or gzipped, file or stdin) into terse text.')
    .argument('[file]', 'the slog; - or nothing reads stdin')
    .exitOverride()
    .configureOutput({ outputError: usageError });
  addRenderOptions(program);
  program.addHelpText('after', EXAMPLES);
  program.action(async (file: string | undefined, opts: RenderCliOptions) => {
    process.exitCode = await renderCommand(file, opts);
  });
  for (const register of SUBCOMMANDS) {
    const sub = register(program);
    sub.exitOverride().configureOutput({ outputError: usageError });
  }
  return program;
}

export async function main(argv: string[] = process.argv): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; every other commander error is a usage error.
      process.exitCode = err.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    if (err instanceof CliError) {
      warn(err.message);
      process.exitCode = err.exitCode;
      return;
    }
    warn(`internal error: ${(err as Error).message ?? String(err)} (please report it)`);
    process.exitCode = EXIT_FAILURE;
  }
}
