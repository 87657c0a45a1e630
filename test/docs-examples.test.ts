/**
 * Every example in README.md and docs/*.md runs, and prints what the page
 * shows (the pages with an example test of their own are left to it: see
 * OWN_TESTS). How a page writes its examples is in doc-examples.ts: `$ `
 * lines in code blocks, `# exit N`, `$ cd DIR`, `...` for lines left out.
 *
 * Where and how they run is doc-sandbox.ts: a temporary copy of the
 * repository's layout, each code block starting at its root, each page with
 * a `/tmp/` of its own. Every example must print nothing on stderr (but the
 * line saying what a command wrote to its -o file, `slogulate: wrote F
 * (...)`, which report, trace and annotate print); what it
 * prints on stdout is compared with what the page shows, when it shows
 * something. And following a page leaves nothing in the repository: its
 * examples write only to `/tmp/` (the copy holds nothing new after them).
 *
 * Also: README.md's table of commands has an example of every command
 * (`slogulate --help` lists them), each run from the repository's root; no
 * page starts slogulate with `npx`; compare.md's GitHub workflow installs
 * slogulate before it runs it; the examples in every command's `--help`
 * parse (no usage error); and the links between the pages lead to a file
 * and a heading that exist.
 *
 * DOCS_TIMES=FILE appends each example's time to FILE, to find the slow
 * ones.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/main.js';
import { SUBCOMMANDS } from '../src/cli/commands/index.js';
import { docExamples, shellWords, shownDifference, type DocExample } from './doc-examples.js';
import { DocSandbox, pipeAt } from './doc-sandbox.js';
import { ROOT } from './helpers.js';
import { runMain } from './run-main.js';

/** stderr without the line saying what a command wrote (`slogulate: wrote F (12.3 KB)`): an example's stderr must be empty but for it. */
const withoutWrote = (stderr: string): string => stderr.replace(/^slogulate: wrote \S+ \([^)\n]*\)\n/gm, '');

/** Pages whose examples another test runs as written (it names the page). */
const OWN_TESTS: Record<string, string> = {
  'docs/export.md': 'test/export-docs.test.ts',
  'docs/chain.md': 'test/chain-docs.test.ts',
  'docs/report.md': 'test/report-cli.test.ts',
};

const ALL_PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const PAGES = ALL_PAGES.filter((p) => !(p in OWN_TESTS));

let sandbox: DocSandbox;
beforeAll(() => {
  sandbox = new DocSandbox();
});
// A test that failed midway leaves the next one a clean copy.
afterEach(() => void sandbox.takeAdded());
afterAll(() => sandbox.remove());

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
        const r = await sandbox.run(example, page);
        if (process.env.DOCS_TIMES) appendFileSync(process.env.DOCS_TIMES, `${(performance.now() - t0).toFixed(0)} ms ${where}\n`);
        expect(withoutWrote(r.stderr), where).toBe('');
        expect(r.status, where).toBe(example.status);
        if (example.shown !== undefined) {
          const difference = shownDifference(r.stdout, example.shown);
          if (difference !== undefined) throw new Error(`${where}\n${difference}`);
        }
      }
      expect(sandbox.takeAdded(), `${page}: files its examples wrote in the repository (write them to /tmp/)`).toEqual([]);
    });
  }
});

describe('the sandbox the examples run in (doc-sandbox.ts)', () => {
  const example = (command: string, cwd = '.'): DocExample => ({ line: 0, cwd, command, status: 0, shown: undefined });

  it('gives each page a /tmp/ of its own, and prints its path as /tmp/', async () => {
    const wrote = await sandbox.run(example('echo one > /tmp/a.txt && echo /tmp/a.txt'), 'sandbox test 1');
    expect(wrote).toMatchObject({ status: 0, stdout: '/tmp/a.txt\n', stderr: '' });
    expect((await sandbox.run(example('cat /tmp/a.txt'), 'sandbox test 1')).stdout).toBe('one\n');
    expect((await sandbox.run(example('test -e /tmp/a.txt'), 'sandbox test 2')).status).toBe(1);
    const inProcess = await sandbox.run(example('slogulate --cranks 37 --nonoise --novatstore fixtures/slogs/a-local-3.slog -o /tmp/37.txt'), 'sandbox test 1');
    expect(inProcess).toMatchObject({ status: 0, stderr: '' });
    expect((await sandbox.run(example('grep -c crank /tmp/37.txt'), 'sandbox test 1')).stdout).toBe('1\n');
    expect(sandbox.takeAdded()).toEqual([]);
  });

  it('finds (and removes) what an example wrote into the copy of the repository', async () => {
    await sandbox.run(example('slogulate --cranks 37 a-local-3.slog > out.txt', 'fixtures/slogs'), 'sandbox test 3');
    await sandbox.run(example('touch x', '../shared/slogs/real'), 'sandbox test 3');
    expect(sandbox.takeAdded().sort()).toEqual(['repo/fixtures/slogs/out.txt', 'shared/slogs/real/x']);
    expect(sandbox.takeAdded()).toEqual([]);
  });
});

describe('how the docs start slogulate', () => {
  // `npx slogulate` in a clone builds the package again into npm's cache at its first use (`prepare`), and npm's
  // own start costs half a second or more at every call; outside a clone it looks for slogulate on the registry.
  it('no page calls it through npx (in a code block): bin/slogulate, or slogulate on the PATH', () => {
    const npx: string[] = [];
    for (const page of ALL_PAGES) {
      let inCode = false;
      readFileSync(join(ROOT, page), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^(```|~~~)/.test(line)) inCode = !inCode;
          else if (inCode && /\bnpx slogulate\b/.test(line)) npx.push(`${page}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(npx).toEqual([]);
  });

  it("README.md's first example starts the built program, and the README says how to put it on the PATH", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(docExamples(readme)[0]?.command).toMatch(/^bin\/slogulate /);
    expect(readme).toContain('npm link');
    expect(readme).toMatch(/npm install -g [^\n]*slogulate-[\d.]+\.tgz/);
  });
});

/** The steps of a GitHub workflow's job, as the text of each (`- ` item of its `steps:`), with the lines of each step's `run:` script. */
function workflowSteps(yaml: string): Array<{ text: string; run: string }> {
  const lines = yaml.split('\n');
  const at = lines.findIndex((l) => /^\s*steps:\s*$/.test(l));
  expect(at, 'the workflow has steps').toBeGreaterThanOrEqual(0);
  const indent = /^(\s*)/.exec(lines[at] as string)?.[1]?.length ?? 0;
  const steps: Array<{ text: string; run: string }> = [];
  for (const line of lines.slice(at + 1)) {
    const lead = /^(\s*)/.exec(line)?.[1]?.length ?? 0;
    if (line.trim() !== '' && lead <= indent) break;
    if (/^\s*- /.test(line) && lead <= indent + 2) steps.push({ text: '', run: '' });
    const step = steps[steps.length - 1];
    if (step) step.text += `${line}\n`;
  }
  for (const step of steps) {
    // run: a single line, or the block under `run: |`.
    const single = /^\s*(?:- )?run: (?!\|)(.*)$/m.exec(step.text);
    const block = /^(\s*)(?:- )?run: \|\n((?:\1\s+.*\n?|\s*\n)*)/m.exec(step.text);
    step.run = single ? (single[1] as string) : block ? (block[2] as string) : '';
  }
  return steps;
}

/**
 * The lines of a YAML text whose plain (unquoted) value holds `: ` or ` #`, which YAML reads as a mapping or a
 * comment (`name: Run it (XS workers: computrons)` is an error); block scalars (`run: |`) and flow collections
 * (`{ ... }`) are not looked into.
 */
function badPlainScalars(yaml: string): string[] {
  const bad: string[] = [];
  let block: number | undefined;
  for (const line of yaml.split('\n')) {
    const indent = /^(\s*)/.exec(line)?.[1]?.length ?? 0;
    if (block !== undefined && (line.trim() === '' || indent > block)) continue;
    block = undefined;
    const entry = /^(\s*)(?:- )?[\w.-]+:\s+(.*)$/.exec(line);
    if (!entry) continue;
    const value = entry[2] as string;
    if (/^[|>]/.test(value)) block = indent;
    else if (!/^["'{[]/.test(value) && /: | #/.test(value)) bad.push(line.trim());
  }
  return bad;
}

describe("compare.md's GitHub workflow", () => {
  const yaml = /^```yaml\n(# \.github\/workflows\/[\s\S]*?)^```$/m.exec(readFileSync(join(ROOT, 'docs', 'compare.md'), 'utf8'))?.[1] ?? '';

  it('is YAML a runner reads: no plain value holds `: `', () => {
    expect(yaml).toMatch(/^jobs:$/m);
    expect(badPlainScalars(yaml)).toEqual([]);
    expect(badPlainScalars('a:\n  - name: Run it (XS workers: computrons)\n    run: |\n      echo a: b\n    with: { x: 1 }')).toEqual(['- name: Run it (XS workers: computrons)']);
  });

  it('checks out and builds slogulate, puts it on the PATH, then runs it with options it has', async () => {
    const steps = workflowSteps(yaml);
    const uses = steps.findIndex((s) => /slogulate compare/.test(s.run));
    expect(uses, 'a step runs slogulate compare').toBeGreaterThan(0);
    const before = steps.slice(0, uses);
    const checkout = before.findIndex((s) => /uses: actions\/checkout@/.test(s.text) && /path: slogulate\b/.test(s.text));
    const node = before.findIndex((s) => /uses: actions\/setup-node@/.test(s.text));
    const install = before.findIndex((s) => /\bnpm ci\b/.test(s.run) && /\bnpm link\b/.test(s.run) && /working-directory: slogulate\b/.test(s.text));
    expect(checkout, 'a step checks slogulate out into slogulate/').toBeGreaterThanOrEqual(0);
    expect(node, 'a step sets up Node.js').toBeGreaterThanOrEqual(0);
    expect(install, 'a step runs npm ci (which compiles slogulate) and npm link in slogulate/').toBeGreaterThan(Math.max(checkout, node));
    // The main checkout comes first: checking the repository out cleans its folder, slogulate/ included.
    expect(steps.findIndex((s) => /uses: actions\/checkout@/.test(s.text))).toBeLessThan(checkout);
    const command = (steps[uses] as { run: string }).run.replace(/\\\n\s*/g, ' ').trim();
    await parse(shellWords(command));
  });
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
      // The rows share a /tmp/, in order, as a reader running them one after the other (index reads the file recompress wrote).
      const r = await sandbox.run({ line: 0, cwd: '.', command: example, status: 0, shown: undefined }, 'README.md table');
      if (process.env.DOCS_TIMES) appendFileSync(process.env.DOCS_TIMES, `${(performance.now() - t0).toFixed(0)} ms ${example}\n`);
      expect(withoutWrote(r.stderr), example).toBe('');
      expect(r.status, example).toBe(0);
      if (name !== 'render') expect(example.split(/\s+/)[1], example).toBe(name);
    }
    expect(sandbox.takeAdded(), 'files the examples wrote in the repository (write them to /tmp/)').toEqual([]);
  });
});

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

  it('parse, for the root and every subcommand', async () => {
    let count = 0;
    for (const name of ['', ...SUBCOMMANDS.map((c) => c.name)]) {
      const help = await runMain(name ? ['help', name] : ['--help']);
      const examples = help.stdout.split('\nExamples:\n')[1];
      expect(examples, `slogulate ${name} --help has examples`).toBeDefined();
      // A command the help broke over lines (` \` at the end: cli/help-width.ts) is one line.
      for (const line of (examples as string).replace(/ \\\n\s+/g, ' ').split('\n').filter((l) => l.trim() !== '')) {
        for (const words of commandsOf(line)) {
          await parse(words);
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(30);
  });
});
