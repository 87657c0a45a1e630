/**
 * The render's operands when they are not what it takes: `slogulate FILE`
 * renders a file, so a word is a mistyped subcommand only when no such file
 * exists (`slogulate stat f`: `unknown command 'stat' (did you mean
 * stats?)`), and more than one operand is a usage error either way.
 */
import { existsSync } from 'node:fs';
import { editDistance } from '../analyses/common/edit-distance.js';
import { CliError, EXIT_USAGE, helpPointer } from './errors.js';

/** The command names close to `word` (a typo, or the start of a name), closest first. */
export function similarCommands(word: string, names: readonly string[]): string[] {
  const w = word.toLowerCase();
  const scored = names
    .map((name) => {
      const distance = editDistance(w, name);
      const close = distance <= Math.max(1, Math.floor(name.length / 3)) || (w.length >= 3 && name.startsWith(w));
      return { name, distance, close };
    })
    .filter((s) => s.close);
  return scored.sort((x, y) => x.distance - y.distance || (x.name < y.name ? -1 : 1)).map((s) => s.name);
}

/** A word that could be a command's name (not a path, not a file name with an extension). */
const COMMAND_LIKE = /^[A-Za-z][A-Za-z0-9-]*$/;

/**
 * Checks the render's operands (the slog's files): throws the usage error
 * for a first operand that is no file but looks like a mistyped subcommand.
 */
export function checkRenderOperands(operands: readonly string[], commands: readonly string[], exists: (path: string) => boolean = existsSync): void {
  const [first] = operands;
  if (first !== undefined && first !== '-' && COMMAND_LIKE.test(first) && !exists(first)) {
    const similar = similarCommands(first, commands);
    if (similar.length || operands.length > 1) {
      const hint = similar.length ? ` (did you mean ${similar.slice(0, 2).join(' or ')}?)` : '';
      throw new CliError(`unknown command '${first}'${hint} ${helpPointer()}`, EXIT_USAGE);
    }
  }
}
