/**
 * Options of the plain render (the root command) written before a
 * subcommand's name: `slogulate --cranks 100-200 top f`. The root parses
 * them (its options come before the subcommand's, enablePositionalOptions);
 * here they are either handed to the subcommand, when it has an option of
 * the same name, or refused with a one-line usage error naming the option
 * (`--nonoise stats f`), never silently dropped.
 */
import type { Command, Option } from 'commander';
import { CliError, EXIT_USAGE, helpPointer } from './errors.js';

/** Does this root option take a value (`--cranks 100-200`)? */
function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

/** The first two words of a command line that are neither root options nor their values. */
export function operandWords(args: readonly string[], rootOptions: readonly Option[]): string[] {
  const valued = new Set(rootOptions.filter(takesValue).flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined)));
  const words: string[] = [];
  for (let i = 0; i < args.length && words.length < 2; i += 1) {
    const arg = args[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-') && arg !== '-') {
      if (!arg.includes('=') && valued.has(arg)) i += 1;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/**
 * The subcommand a command line asks for, if it is one of `names`: its first
 * word that is neither an option nor an option's value (`help X` asks for X).
 */
export function requestedSubcommand(args: readonly string[], rootOptions: readonly Option[], names: readonly string[]): string | undefined {
  const words = operandWords(args, rootOptions);
  const first = words[0] === 'help' ? words[1] : words[0];
  return first !== undefined && names.includes(first) ? first : undefined;
}

/** How a root option was written: `--cranks`, `--no-color`. */
function flagOf(program: Command, key: string, value: unknown): string {
  const options = program.options.filter((o) => o.attributeName() === key);
  const written = options.find((o) => o.negate === (value === false)) ?? options[0];
  return written?.long ?? written?.short ?? `--${key}`;
}

/**
 * Before a subcommand runs: the root options given on the command line go to
 * it (where it gave the same option too, a list option gets both lists, any
 * other keeps the subcommand's value), or end the run with a usage error.
 * The subcommands read them with `optsWithGlobals()`, where the root wins.
 */
export function applyRootOptions(program: Command, sub: Command): void {
  const seen = new Set<string>();
  for (const option of program.options) {
    const key = option.attributeName();
    if (seen.has(key) || program.getOptionValueSource(key) !== 'cli') continue;
    seen.add(key);
    const value = program.getOptionValue(key) as unknown;
    const own = sub.options.find((o) => o.attributeName() === key);
    if (!own) {
      const flag = flagOf(program, key, value);
      throw new CliError(`${flag} is not an option of ${sub.name()} ${helpPointer(sub.name())}`, EXIT_USAGE);
    }
    if (sub.getOptionValueSource(key) !== 'cli') continue;
    const subValue = sub.getOptionValue(key) as unknown;
    const merged = Array.isArray(value) && Array.isArray(subValue) ? [...(value as unknown[]), ...(subValue as unknown[])] : subValue;
    program.setOptionValueWithSource(key, merged, 'cli');
  }
}
