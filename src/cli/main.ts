/**
 * The command line: `slogulate [options] [files...]` renders; subcommands analyse.
 * Each subcommand lives in its own file under src/cli/commands and is
 * registered here.
 */
import { readFileSync } from 'node:fs';
import { Argument, Command, CommanderError } from 'commander';
import { CliError, EXIT_FAILURE, EXIT_USAGE, helpPointer, warn } from './errors.js';
import { fitHelp, HELP_WIDTH } from './help-width.js';
import { discardPendingOutputs } from './output-file.js';
import { STDOUT_NAME, writeError } from './output.js';
import { addRenderOptions, renderCommand, type RenderCliOptions } from './render-command.js';
import { SUBCOMMANDS } from './commands/index.js';
import { applyRootOptions, operandWords, requestedSubcommand } from './root-options.js';
import { noteStdinTerminal } from './terminal.js';
import { checkRenderOperands } from './unknown-command.js';

const EXAMPLES = `
Examples:
  slogulate chain.slog                          render a slog (plain or gzipped)
  slogulate --nonoise --novatstore chain.slog   only what the vats did, no vatstore traffic
  slogulate --timing chain.slog.gz > vslog      crank and syscall times
  slogulate --parts chain.slog                  where each crank's time went
  cat chain.slog | slogulate -                  read stdin
  slogulate --annotations annot.json chain.slog name krefs, vats and cranks
  slogulate chain.slog | head                   stops quietly when the reader does`;

/** Every command's name, for suggestions. */
const COMMAND_NAMES = [...SUBCOMMANDS.map((c) => c.name), 'help'];
/** The commands whose operands are only the slog's files: none (or `-`) reads stdin. */
const STDIN_COMMANDS = new Set(['top', 'stats', 'annotate', 'flow', 'trace', 'blocks', 'runs', 'export']);

/** The version in package.json (beside dist/ and src/). */
function packageVersion(): string {
  try {
    const json = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof json.version === 'string' ? json.version : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Commander's errors as one line, its suggestion written as ours are, then
 * where help is: `slogulate: unknown option '--blokcs' (did you mean
 * --blocks?) (see slogulate stats --help)`, naming the command the error is
 * about (none: the render's, the root's).
 */
function usageError(command: string | undefined, renderFlags: ReadonlySet<string>): (message: string, write: (s: string) => void) => void {
  return (message, write) => {
    let text = message
      .trim()
      .replace(/^error: /, '')
      .replace(/\s*\n\s*/g, ' ')
      .replace(/\(Did you mean/g, '(did you mean');
    text += renderOnly(command, text, renderFlags);
    write(`slogulate: ${text} ${helpPointer(command)}\n`);
  };
}

/**
 * A subcommand's unknown option that is the render's (`top --parts`, learned
 * from the render's examples): said so, with how to run the render with it.
 */
function renderOnly(command: string | undefined, text: string, renderFlags: ReadonlySet<string>): string {
  const flag = /^unknown option '(--[^'=]+)'/.exec(text)?.[1];
  if (command === undefined || flag === undefined || !renderFlags.has(flag) || text.includes('(did you mean')) return '';
  return ` (${flag} is the render's: slogulate ${flag} FILE)`;
}

/** Every command's help fits 80 columns (help-width.ts); its errors are one line (the render's own flags: renderOnly). */
function configureCommand(cmd: Command, name: string | undefined, renderFlags: ReadonlySet<string> = new Set()): void {
  cmd
    .exitOverride()
    .configureHelp({ helpWidth: HELP_WIDTH })
    .configureOutput({ outputError: usageError(name, renderFlags), writeOut: (text) => process.stdout.write(fitHelp(text)) });
}

/**
 * The program. Only the requested subcommand's code is loaded (all of them
 * with `full`, or for `completion`, which describes them all); the others are
 * listed by name and summary for --help.
 */
export async function buildProgram(options: { args?: readonly string[]; full?: boolean } = {}): Promise<Command> {
  const program = new Command();
  program
    .name('slogulate')
    .description('Turn a SwingSet slog (JSON lines, plain or gzipped, file or stdin) into terse text.')
    .argument('[files...]', 'the slog: files read in order as one slog, folders of per-block files; - or nothing reads stdin')
    // Options after a subcommand's name belong to the subcommand, even where
    // the render (the root command) has one of the same name (--annotations, -o).
    .enablePositionalOptions()
  configureCommand(program, undefined);
  addRenderOptions(program);
  const requested = requestedSubcommand(
    options.args ?? [],
    program.options,
    SUBCOMMANDS.map((c) => c.name),
  );
  const full = options.full === true || requested === 'completion';
  program.addHelpText('after', EXAMPLES);
  program.version(packageVersion(), '-V, --version', 'print the version');
  program.hook('preAction', (root, actionCommand) => {
    // Render options written before a subcommand: handed to it, or a usage error.
    if (actionCommand !== root) applyRootOptions(root, actionCommand);
    // `slogulate stat f`: a mistyped subcommand, not two slogs.
    else checkRenderOperands(root.args, COMMAND_NAMES);
    // A command whose operands are the slog's files, reading stdin at a terminal, says so.
    if (actionCommand === root || STDIN_COMMANDS.has(actionCommand.name())) noteStdinTerminal(actionCommand.args);
  });
  program.action(async (files: string[], opts: RenderCliOptions) => {
    process.exitCode = await renderCommand(files, opts);
  });
  const renderFlags = new Set(program.options.map((o) => o.long).filter((f): f is string => f !== undefined));
  for (const sub of SUBCOMMANDS) {
    const cmd =
      full || sub.name === requested
        ? (await sub.load()).register(program)
        : program
            .command(`${sub.name} ${sub.usage.replace('[options]', '').trim()}`.trim())
            .description(sub.summary)
            .action(() => {
              // Only the requested subcommand is loaded: running another one is a bug, never a silent success.
              throw new Error(`subcommand ${sub.name} was not loaded`);
            });
    configureCommand(cmd, sub.name, renderFlags);
  }
  // `slogulate help [command]` (commander adds none to a command that has an action of its own).
  const help = program
    .command('help')
    .description('show the help of slogulate or of a command')
    .addArgument(new Argument('[command]', 'a command').choices(SUBCOMMANDS.map((c) => c.name)))
    .action((name: string | undefined) => {
      const cmd = name === undefined ? program : program.commands.find((c) => c.name() === name);
      cmd?.outputHelp();
    });
  configureCommand(help, undefined);
  // After the subcommands were added (they would inherit it): the render's operands are checked in preAction.
  program.allowExcessArguments(true);
  return program;
}

/**
 * `slogulate ... | head`: when the reader goes away, stop quietly (help text
 * included). Any other error writing stdout is one line naming it, status 1.
 */
let streamsWatched = false;
function quietOnClosedPipe(): void {
  if (streamsWatched) return;
  streamsWatched = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (stream === process.stdout) {
        discardPendingOutputs();
        warn(writeError(STDOUT_NAME, err).message);
      }
      process.exit(EXIT_FAILURE);
    });
  }
}

export async function main(argv: string[] = process.argv): Promise<void> {
  quietOnClosedPipe();
  const program = await buildProgram({ args: argv.slice(2) });
  try {
    // `slogulate stat --json f`: the subcommand was mistyped, not the option (checked before commander sees --json).
    const [word] = operandWords(argv.slice(2), program.options);
    if (word !== undefined && !program.commands.some((c) => c.name() === word)) checkRenderOperands([word], COMMAND_NAMES);
    await program.parseAsync(argv);
  } catch (err) {
    // A command that failed leaves no temporary output file (output-file.ts).
    discardPendingOutputs();
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
