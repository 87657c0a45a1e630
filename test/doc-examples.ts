/**
 * The examples of a documentation page, as the doc tests read them
 * (docs-examples.test.ts, export-docs.test.ts).
 *
 * An example is a line `$ COMMAND` inside a fenced code block; the lines
 * under it, up to the next `$ ` line or the end of the block, are the
 * output the page shows (none: the page shows none). The rules:
 *
 * - `# exit N` at the end of a command is the exit status the page promises
 *   (0 otherwise).
 * - `$ cd DIR` is not an example: it moves the examples after it, in the
 *   same block. Every block starts where the page's examples start (the
 *   repository's root, unless the test says otherwise).
 * - A line `...` alone in the output stands for lines left out (any number,
 *   none included): `head` of an output, `...`, its last lines.
 * - Blank lines at the end of the output are not part of it, so that a blank
 *   line may separate one example from the next; an output's own last blank
 *   lines are not checked.
 *
 * Lines of a code block that do not start with `$ ` and come before its
 * first `$ ` line (a shell script, a YAML file, a sample of an output a test
 * cannot make) are not examples.
 */
import { posix } from 'node:path';

export interface DocExample {
  /** The line of the `$` in the page, from 1 (for messages). */
  line: number;
  /** Where it runs, relative to where the page's examples start ('.', 'fixtures/slogs'...). */
  cwd: string;
  /** The command, without `$ ` and without `# exit N`. */
  command: string;
  /** The exit status the page promises. */
  status: number;
  /** The output the page shows, as lines (`...` lines kept), or undefined when it shows none. */
  shown: string[] | undefined;
}

/** Every `$` line of the page's fenced code blocks, with what it shows. */
export function docExamples(markdown: string): DocExample[] {
  const out: DocExample[] = [];
  let fence: string | undefined;
  let cwd = '.';
  let current: (DocExample & { lines: string[] }) | undefined;
  const finish = (): void => {
    if (!current) return;
    const lines = current.lines;
    while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
    out.push({ line: current.line, cwd: current.cwd, command: current.command, status: current.status, shown: lines.length ? lines : undefined });
    current = undefined;
  };
  markdown.split('\n').forEach((line, i) => {
    const opening = /^(`{3,}|~{3,})/.exec(line);
    if (fence === undefined) {
      if (opening) {
        fence = opening[1];
        cwd = '.';
      }
      return;
    }
    if (line.trimEnd() === fence) {
      finish();
      fence = undefined;
      return;
    }
    const cd = /^\$ cd (\S+)\s*$/.exec(line);
    if (cd) {
      finish();
      cwd = posix.normalize(posix.join(cwd, cd[1] as string));
      return;
    }
    const command = /^\$ (.*)$/.exec(line);
    if (command) {
      finish();
      const [text, status] = (command[1] as string).split(/\s+# exit /);
      current = { line: i + 1, cwd, command: (text as string).trim(), status: status === undefined ? 0 : Number(status), shown: undefined, lines: [] };
      return;
    }
    current?.lines.push(line);
  });
  finish();
  return out;
}

/** Shell words: spaces split, '...' and "..." quote (no escapes in the examples). */
export function shellWords(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/**
 * Whether `actual` (a command's whole output) is what the page shows, `...`
 * lines standing for lines left out; trailing blank lines of either are not
 * compared. Undefined when it is; else where it first is not, as a person
 * reads it.
 */
export function shownDifference(actual: string, shown: readonly string[]): string | undefined {
  const lines = actual.split('\n');
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  // The shown lines in runs between `...` markers; the first is anchored at the start, the last at the end.
  const runs: string[][] = [[]];
  const wanted = [...shown];
  while (wanted.length > 0 && wanted[wanted.length - 1]?.trim() === '') wanted.pop();
  for (const line of wanted) {
    if (line === '...') runs.push([]);
    else runs[runs.length - 1]?.push(line);
  }
  const show = (line: string | undefined): string => (line === undefined ? '(no line: the output ends)' : JSON.stringify(line));
  const at = (start: number, run: string[]): boolean => run.every((line, k) => lines[start + k] === line);
  if (runs.length === 1) {
    const run = runs[0] as string[];
    for (let i = 0; i < Math.max(run.length, lines.length); i += 1) {
      if (run[i] !== lines[i]) return `line ${i + 1} differs (the output has ${lines.length} lines, the page shows ${run.length})\n  actual: ${show(lines[i])}\n  shown:  ${show(run[i])}`;
    }
    return undefined;
  }
  const first = runs[0] as string[];
  const last = runs[runs.length - 1] as string[];
  if (!at(0, first)) {
    const i = first.findIndex((line, k) => lines[k] !== line);
    return `line ${i + 1} differs (before the first ...)\n  actual: ${show(lines[i])}\n  shown:  ${show(first[i])}`;
  }
  const lastStart = lines.length - last.length;
  if (lastStart < first.length || !at(lastStart, last)) {
    const i = last.findIndex((line, k) => lines[lastStart + k] !== line);
    return `the last ${last.length} lines differ (after the last ...): line ${lastStart + i + 1}\n  actual: ${show(lines[lastStart + i])}\n  shown:  ${show(last[i])}`;
  }
  // The runs between, each found at its first place after the one before (the earliest place leaves the most room for the rest).
  let from = first.length;
  for (const run of runs.slice(1, -1)) {
    let found = -1;
    for (let start = from; start + run.length <= lastStart; start += 1) {
      if (at(start, run)) {
        found = start;
        break;
      }
    }
    if (found < 0) return `these lines are not in the output (between line ${from + 1} and line ${lastStart}):\n  ${run.map(show).join('\n  ')}`;
    from = found + run.length;
  }
  return undefined;
}
