/**
 * Every example in README.md and docs/*.md runs, and prints what the page
 * shows (the pages with an example test of their own are left to it: see
 * OWN_TESTS). How a page writes its examples is in doc-examples.ts: `$ `
 * lines in code blocks, `# exit N`, `$ cd DIR`, `...` for lines left out.
 *
 * Where they run: a temporary copy of the repository's layout, so that an
 * example that writes a file (`-o`, `> file`) writes it there. Each code
 * block starts at its root (the repository's root), holding
 * `fixtures/slogs/`, `fixtures/annotations/` and `annotations/` (copies),
 * with `../shared/slogs/` beside it (links to the shared slogs, as CI has
 * them beside the repository).
 *
 * How they run (`npm test` must stay fast: a spawned slogulate costs about
 * 0.3 s, and there are dozens of examples):
 * - `slogulate ARGS`, `slogulate ARGS > FILE` and `slogulate ARGS 2>&1`: in
 *   this process (runMain), in the example's folder;
 * - `slogulate ARGS | COMMANDS`: slogulate in this process, its output piped
 *   into `sh -c COMMANDS`; slogulate must exit 0, the status is the
 *   pipeline's (its last command's), as in a shell;
 * - anything else (`cat F | slogulate -`, `diff a.txt b.txt`, `sed ...
 *   out.txt`): bash, with bin/slogulate on PATH as `slogulate` (so write
 *   `slogulate ... -o a.txt` then `diff a.txt b.txt` rather than
 *   `diff <(slogulate ...) <(slogulate ...)`: each spawned slogulate costs).
 * Every example must print nothing on stderr; what it prints on stdout is
 * compared with what the page shows, when it shows something.
 *
 * `npx slogulate` is run as `slogulate`.
 *
 * Also: README.md's table of commands has an example of every command
 * (`slogulate --help` lists them), each run from the repository's root; the
 * examples in every command's `--help` parse (no usage error); and the
 * links between the pages lead to a file and a heading that exist.
 *
 * DOCS_TIMES=FILE appends each example's time to FILE, to find the slow
 * ones.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/main.js';
import { SUBCOMMANDS } from '../src/cli/commands/index.js';
import { docExamples, shellWords, shownDifference, type DocExample } from './doc-examples.js';
import { BIN, ROOT, type CliResult } from './helpers.js';
import { runMain } from './run-main.js';

/** Pages whose examples another test runs as written (it names the page). */
const OWN_TESTS: Record<string, string> = {
  'docs/export.md': 'test/export-docs.test.ts',
  'docs/chain.md': 'test/chain-docs.test.ts',
  'docs/report.md': 'test/report-cli.test.ts',
};

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)].filter((p) => !(p in OWN_TESTS));

const SHARED = join(ROOT, '..', 'shared', 'slogs');

let top: string;
let repo: string;
let bin: string;
beforeAll(() => {
  top = mkdtempSync(join(tmpdir(), 'slogulate-doc-examples-'));
  repo = join(top, 'repo');
  for (const dir of ['fixtures/slogs', 'fixtures/annotations', 'annotations']) cpSync(join(ROOT, dir), join(repo, dir), { recursive: true });
  // ../shared/slogs: links, one per file (a folder of links, so that what an example writes there stays in the temp folder).
  const link = (from: string, to: string): void => {
    mkdirSync(to, { recursive: true });
    for (const e of readdirSync(from, { withFileTypes: true })) {
      if (e.isDirectory() && e.name === 'real') link(join(from, e.name), join(to, e.name));
      else symlinkSync(join(from, e.name), join(to, e.name));
    }
  };
  link(SHARED, join(top, 'shared', 'slogs'));
  bin = join(top, 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'slogulate'));
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

/** The index of the first `|` outside quotes (not `||`), or -1. */
function pipeAt(command: string): number {
  let quote: string | undefined;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '|') return command[i + 1] === '|' ? -1 : i;
  }
  return -1;
}

/** Shell syntax outside quotes, which the in-process runner does not do. */
const hasShellSyntax = (command: string): boolean => /[<>;&()$`\\|*?]/.test(command.replace(/'[^']*'|"[^"]*"/g, ''));

function inShell(command: string, cwd: string, input?: string): CliResult {
  const r = spawnSync('bash', ['-c', command], {
    cwd,
    input,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1', FORCE_COLOR: undefined },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

async function inProcess(words: string[], cwd: string): Promise<CliResult & { both: string }> {
  const here = process.cwd();
  const force = process.env.FORCE_COLOR;
  delete process.env.FORCE_COLOR;
  process.chdir(cwd);
  try {
    return await runMain(words);
  } finally {
    process.chdir(here);
    if (force !== undefined) process.env.FORCE_COLOR = force;
  }
}

/** Runs one example as its page says, in its folder under the temp copy (see the header). */
async function run(example: DocExample): Promise<CliResult> {
  const cwd = join(repo, example.cwd);
  // `npx slogulate` is how a reader calls it in a clone: here, the same program.
  const command = example.command.replace(/^npx slogulate /, 'slogulate ');
  const pipe = pipeAt(command);
  const first = pipe < 0 ? command : command.slice(0, pipe).trim();
  // `slogulate ARGS > FILE`, `slogulate ARGS 2>&1`: redirections the in-process runner does too.
  const redirect = /^(.*?)\s+>\s*(\S+)$/.exec(first);
  const merge = /^(.*?)\s+2>&1$/.exec(first);
  const slogulate = redirect ? (redirect[1] as string) : merge ? (merge[1] as string) : first;
  if (!slogulate.startsWith('slogulate ') || hasShellSyntax(slogulate)) return inShell(command, cwd);
  const r: CliResult = await inProcess(shellWords(slogulate).slice(1), cwd).then(({ both, ...rest }) =>
    merge ? { ...rest, stdout: both, stderr: '' } : rest,
  );
  if (redirect) {
    writeFileSync(join(cwd, redirect[2] as string), r.stdout);
    r.stdout = '';
  }
  if (pipe < 0) return r;
  expect(r.status, `${command}: slogulate's exit status`).toBe(0);
  const rest = inShell(command.slice(pipe + 1), cwd, r.stdout);
  return { ...rest, stderr: r.stderr + rest.stderr };
}

describe('how a page writes its examples (doc-examples.ts)', () => {
  it('reads $ lines, # exit N, $ cd and the output under each', () => {
    const page = ['```sh', '$ cd fixtures/slogs', '$ slogulate top a.slog # exit 1', 'one', '', '$ tail -1 x', 'two', '```', '$ not in a block', '```', 'a script', '```'].join('\n');
    expect(docExamples(page)).toEqual([
      { line: 3, cwd: 'fixtures/slogs', command: 'slogulate top a.slog', status: 1, shown: ['one'] },
      { line: 6, cwd: 'fixtures/slogs', command: 'tail -1 x', status: 0, shown: ['two'] },
    ]);
    expect(shellWords(`slogulate query 'SELECT a, b' "x y" z`)).toEqual(['slogulate', 'query', 'SELECT a, b', 'x y', 'z']);
  });

  it('compares the output exactly, `...` standing for lines left out', () => {
    const out = 'a\nb\nc\nd\ne\n';
    expect(shownDifference(out, ['a', 'b', 'c', 'd', 'e'])).toBeUndefined();
    expect(shownDifference(`${out}\n`, ['a', 'b', 'c', 'd', 'e', ''])).toBeUndefined();
    expect(shownDifference(out, ['a', '...', 'e'])).toBeUndefined();
    expect(shownDifference(out, ['a', 'b', '...'])).toBeUndefined();
    expect(shownDifference(out, ['...', 'c', '...'])).toBeUndefined();
    expect(shownDifference(out, ['a', '...', 'b', 'c', 'd', 'e'])).toBeUndefined();
    expect(shownDifference(out, ['a', 'b', 'c', 'd'])).toMatch(/^line 5 differs/);
    expect(shownDifference(out, ['a', 'x', 'c', 'd', 'e'])).toMatch(/^line 2 differs/);
    expect(shownDifference(out, ['b', '...'])).toMatch(/before the first/);
    expect(shownDifference(out, ['...', 'd'])).toMatch(/after the last/);
    expect(shownDifference(out, ['a', '...', 'c', 'b', '...', 'e'])).toMatch(/not in the output/);
    expect(shownDifference(out, ['a', 'b', 'c', '...', 'c', 'd', 'e'])).toMatch(/after the last/);
  });
});

describe('the examples of the docs', () => {
  it('every page with examples of its own test is run by that test', () => {
    for (const [page, test] of Object.entries(OWN_TESTS)) {
      expect(existsSync(join(ROOT, page)), page).toBe(true);
      expect(readFileSync(join(ROOT, test), 'utf8'), test).toContain(page);
    }
  });

  it('the pages have examples', () => {
    const count = PAGES.reduce((n, page) => n + docExamples(readFileSync(join(ROOT, page), 'utf8')).length, 0);
    expect(count).toBeGreaterThanOrEqual(40);
  });

  for (const page of PAGES) {
    it(`${page}: every $ example runs, with the output the page shows`, async () => {
      for (const example of docExamples(readFileSync(join(ROOT, page), 'utf8'))) {
        const where = `${page}:${example.line}: ${example.command}`;
        const t0 = performance.now();
        const r = await run(example);
        if (process.env.DOCS_TIMES) appendFileSync(process.env.DOCS_TIMES, `${(performance.now() - t0).toFixed(0)} ms ${where}\n`);
        expect(r.stderr, where).toBe('');
        expect(r.status, where).toBe(example.status);
        if (example.shown !== undefined) {
          const difference = shownDifference(r.stdout, example.shown);
          if (difference !== undefined) throw new Error(`${where}\n${difference}`);
        }
      }
    });
  }
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a page's headings (outside code blocks). */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line)) inCode = !inCode;
    const heading = inCode ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading) out.add(anchorOf(heading[1] as string));
  }
  return out;
}

describe('links between the pages', () => {
  it('lead to a file of the repository, and to a heading of it', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/^(```|~~~)[\s\S]*?^\1$/gm, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1] as string;
        if (/^[a-z]+:/.test(target)) continue;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const path = file === '' ? join(ROOT, page) : join(ROOT, page, '..', file);
        if (!existsSync(path)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor !== undefined && !anchors(readFileSync(path, 'utf8')).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe("README.md's table of commands", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  /** The table's rows: `| \`name\` | what it does | \`slogulate ...\` |`; a first cell without a command name is the render's. */
  const rows = [...readme.matchAll(/^\|([^|]*)\|.*\| `(slogulate [^`]+)` \|$/gm)].map((m) => ({
    name: /`(\w+)`/.exec(m[1] as string)?.[1] ?? 'render',
    example: m[2] as string,
  }));

  it('has a row for every command', () => {
    expect(rows.map((r) => r.name).sort()).toEqual(['render', 'help', ...SUBCOMMANDS.map((c) => c.name)].sort());
  });

  it("every row's example runs from the repository's root", async () => {
    for (const { name, example } of rows) {
      const t0 = performance.now();
      const r = await run({ line: 0, cwd: '.', command: example, status: 0, shown: undefined });
      if (process.env.DOCS_TIMES) appendFileSync(process.env.DOCS_TIMES, `${(performance.now() - t0).toFixed(0)} ms ${example}\n`);
      expect(r.stderr, example).toBe('');
      expect(r.status, example).toBe(0);
      if (name !== 'render') expect(example.split(/\s+/)[1], example).toBe(name);
    }
  });
});

describe("the examples in every command's --help", () => {
  /** The `slogulate ...` commands of an example line: process substitutions, pipes and redirections cut off. */
  function commandsOf(line: string): string[][] {
    let text = (line.trim().split(/\s{2,}/)[0] as string).replace(/^source /, '');
    const out: string[][] = [];
    // <(slogulate ...) is a file to the outer command, and a command of its own.
    text = text.replace(/<\(([^)]*)\)/g, (_, inner: string) => {
      out.push(shellWords(inner));
      return 'FILE';
    });
    const pipe = pipeAt(text);
    const first = (pipe < 0 ? text : text.slice(0, pipe)).replace(/\s>\s*\S+\s*$/, '');
    out.unshift(shellWords(first));
    return out.filter((w) => w[0] === 'slogulate');
  }

  /** Parses the words as the command line would, up to (not into) running the command: a usage error throws. */
  async function parse(words: string[]): Promise<void> {
    const program = await buildProgram({ args: words.slice(1), full: true });
    const parsed = new Error('parsed');
    program.hook('preAction', () => {
      throw parsed;
    });
    const quiet = { writeOut: () => undefined, writeErr: () => undefined };
    program.configureOutput(quiet);
    for (const c of program.commands) c.configureOutput(quiet);
    try {
      await program.parseAsync(['node', ...words]);
    } catch (err) {
      if (err === parsed) return;
      throw new Error(`${words.join(' ')}: ${(err as Error).message}`);
    }
    throw new Error(`${words.join(' ')}: did not reach its action`);
  }

  it('parse, for the root and every subcommand', async () => {
    let count = 0;
    for (const name of ['', ...SUBCOMMANDS.map((c) => c.name)]) {
      const help = await runMain(name ? ['help', name] : ['--help']);
      const examples = help.stdout.split('\nExamples:\n')[1];
      expect(examples, `slogulate ${name} --help has examples`).toBeDefined();
      for (const line of (examples as string).split('\n').filter((l) => l.trim() !== '')) {
        for (const words of commandsOf(line)) {
          await parse(words);
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(30);
  });
});
