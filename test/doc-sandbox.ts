/**
 * Where and how the doc tests run a page's examples (docs-examples.test.ts,
 * export-docs.test.ts): as a reader would, from a clone's root, but in a
 * temporary copy of the repository's layout, so that nothing an example
 * does can touch the repository.
 *
 * The copy (`repo/`) holds `fixtures/slogs/`, `fixtures/diverge/`, `fixtures/annotations/`,
 * `annotations/` and `docs/img/`, with `../shared/slogs/` beside it (a
 * folder of links to the shared slogs, as CI has them beside the
 * repository). An example's `$ cd DIR` moves within it.
 *
 * Examples write their files to `/tmp/...`, never into the repository: the
 * runner gives each page a fresh folder of its own for `/tmp/` (a `/tmp/`
 * path in the command is one in that folder; that folder's path in what the
 * command prints reads `/tmp/` again), so that two test runs at once, or a
 * reader's files, never meet. A page's examples run in its order, sharing
 * its `/tmp/`, as a reader following the page runs them. `takeAdded()` lists what the examples
 * wrote into the copy: the tests require it to be empty, so that following
 * the docs never leaves a file in a clone (`git status` stays clean).
 *
 * How an example runs (`npm test` must stay fast: a spawned slogulate costs
 * about 0.3 s, and there are dozens of examples):
 * - `slogulate ARGS`, `slogulate ARGS > FILE` and `slogulate ARGS 2>&1`: in
 *   this process (runMain), in the example's folder;
 * - `slogulate ARGS | COMMANDS`: slogulate in this process, its output piped
 *   into `sh -c COMMANDS`; slogulate must exit 0, the status is the
 *   pipeline's (its last command's), as in a shell;
 * - anything else (`cat F | slogulate -`, `diff a.txt b.txt`, `sed ...
 *   out.txt`): bash, with bin/slogulate on PATH as `slogulate` (so write
 *   `slogulate ... -o a.txt` then `diff a.txt b.txt` rather than
 *   `diff <(slogulate ...) <(slogulate ...)`: each spawned slogulate costs).
 * `bin/slogulate ARGS` (how the README starts it in a clone) runs as
 * `slogulate ARGS`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { expect } from 'vitest';
import { shellWords, type DocExample } from './doc-examples.js';
import { BIN, ROOT, type CliResult } from './helpers.js';
import { runMain } from './run-main.js';

/** What the copy of the repository holds (read-only for the examples: `takeAdded()` must find nothing new). */
const COPIED = ['fixtures/slogs', 'fixtures/diverge', 'fixtures/annotations', 'annotations', 'docs/img'];

const SHARED = join(ROOT, '..', 'shared', 'slogs');

/** `/tmp/` where a shell word starts (after a space, a quote, `=`, a redirection or `(`). */
const TMP_PATH = /(^|[\s'"=<>(])\/tmp\//g;

/** The index of the first `|` outside quotes (not `||`), or -1. */
export function pipeAt(command: string): number {
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

/** Every file and folder under `dir`, relative to `base`; links are not followed. */
function listing(dir: string, base: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    out.push(relative(base, path));
    if (e.isDirectory()) listing(path, base, out);
  }
  return out;
}

export class DocSandbox {
  /** The temporary folder: `repo/`, `shared/slogs/`, `bin/`, `tmp/` (the pages' `/tmp/` folders). */
  readonly top: string;
  /** The copy of the repository: where a page's examples start. */
  readonly repo: string;
  private readonly bin: string;
  private readonly before: Set<string>;
  private readonly scratches = new Map<string, string>();

  constructor() {
    this.top = mkdtempSync(join(tmpdir(), 'slogulate-doc-examples-'));
    this.repo = join(this.top, 'repo');
    for (const dir of COPIED) cpSync(join(ROOT, dir), join(this.repo, dir), { recursive: true });
    // ../shared/slogs: links, one per file (a folder of links, so that what an example writes there stays in the temp folder).
    const link = (from: string, to: string): void => {
      mkdirSync(to, { recursive: true });
      for (const e of readdirSync(from, { withFileTypes: true })) {
        if (e.isDirectory() && e.name === 'real') link(join(from, e.name), join(to, e.name));
        else symlinkSync(join(from, e.name), join(to, e.name));
      }
    };
    link(SHARED, join(this.top, 'shared', 'slogs'));
    this.bin = join(this.top, 'bin');
    mkdirSync(this.bin);
    symlinkSync(BIN, join(this.bin, 'slogulate'));
    mkdirSync(join(this.top, 'tmp'));
    this.before = new Set(this.files());
  }

  /** The files of the copy and of `shared/`. */
  private files(): string[] {
    return [...listing(this.repo, this.top), ...listing(join(this.top, 'shared'), this.top)];
  }

  /**
   * What the examples run since the last call wrote into the copy of the
   * repository or beside it (`repo/...`, `shared/...`), removed so that the
   * next examples start from a clean copy again.
   */
  takeAdded(): string[] {
    const added = this.files().filter((f) => !this.before.has(f));
    for (const f of added) rmSync(join(this.top, f), { recursive: true, force: true });
    return added;
  }

  remove(): void {
    rmSync(this.top, { recursive: true, force: true });
  }

  /** The folder that stands for `/tmp/` for the examples of `page` (made at its first use). */
  private scratch(page: string): string {
    let dir = this.scratches.get(page);
    if (dir === undefined) {
      dir = mkdtempSync(join(this.top, 'tmp', 'page-'));
      this.scratches.set(page, dir);
    }
    return dir;
  }

  private inShell(command: string, cwd: string, input?: string): CliResult {
    const r = spawnSync('bash', ['-c', command], {
      cwd,
      input,
      env: { ...process.env, PATH: `${this.bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1', FORCE_COLOR: undefined },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
  }

  /**
   * Runs one example as its page says (see the header), in its folder of
   * the copy; `page` names its page: the examples of one page share a
   * `/tmp/`.
   */
  async run(example: DocExample, page: string): Promise<CliResult> {
    const cwd = join(this.repo, example.cwd);
    const scratch = this.scratch(page);
    const command = example.command.replace(/^bin\/slogulate /, 'slogulate ').replace(TMP_PATH, (_, before: string) => `${before}${scratch}/`);
    const r = await this.runHere(command, cwd);
    const back = (text: string): string => text.replaceAll(`${scratch}/`, '/tmp/');
    return { ...r, stdout: back(r.stdout), stderr: back(r.stderr) };
  }

  private async runHere(command: string, cwd: string): Promise<CliResult> {
    const pipe = pipeAt(command);
    const first = pipe < 0 ? command : command.slice(0, pipe).trim();
    // `slogulate ARGS > FILE`, `slogulate ARGS 2>&1`: redirections the in-process runner does too.
    const redirect = /^(.*?)\s+>\s*(\S+)$/.exec(first);
    const merge = /^(.*?)\s+2>&1$/.exec(first);
    const slogulate = redirect ? (redirect[1] as string) : merge ? (merge[1] as string) : first;
    if (!slogulate.startsWith('slogulate ') || hasShellSyntax(slogulate)) return this.inShell(command, cwd);
    const { both, ...result } = await runMain(shellWords(slogulate).slice(1), { cwd, env: { FORCE_COLOR: undefined } });
    const r: CliResult = merge ? { ...result, stdout: both, stderr: '' } : result;
    if (redirect) {
      writeFileSync(resolve(cwd, redirect[2] as string), r.stdout);
      r.stdout = '';
    }
    if (pipe < 0) return r;
    expect(r.status, `${command}: slogulate's exit status`).toBe(0);
    const rest = this.inShell(command.slice(pipe + 1), cwd, r.stdout);
    return { ...rest, stderr: r.stderr + rest.stderr };
  }
}
