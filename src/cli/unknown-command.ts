/**
 * The render's operands when they are not what it takes: `slogulate FILE`
 * renders a file, so a word is a mistyped subcommand only when no such file
 * exists (`slogulate stat f`: `unknown command 'stat' (did you mean
 * stats?)`), and more than one operand is a usage error either way.
 */
import { existsSync } from 'node:fs';
import { CliError, EXIT_USAGE } from './errors.js';

/** Edit distance with transpositions (optimal string alignment): `tpo` is 1 from `top`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

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
      throw new CliError(`unknown command '${first}'${hint} (see slogulate --help)`, EXIT_USAGE);
    }
  }
}
