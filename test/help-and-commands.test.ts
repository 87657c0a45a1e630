/**
 * The command line's small promises (issue 13): `help` and `help CMD` work,
 * a mistyped subcommand is named as one (unless a file of that name exists:
 * then it is a slog), `--version` prints package.json's version, `top` and
 * `stats` take `-o`, `--annot` is in `--help`, and `stats` on a slog without
 * cranks prints its tables with zeros.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSlog, ROOT, slogPath } from './helpers.js';
import { runMain, runInProcess } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-help-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const f = slogPath('a-xs-3');

describe('help', () => {
  it('`slogulate help` is --help', async () => {
    const help = await runMain(['help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: slogulate \[options\] \[command\] \[files\.\.\.\]\n/);
    expect(help.stdout).toContain('\nCommands:\n');
    expect(help.stdout).toBe((await runMain(['--help'])).stdout);
  });

  it('`slogulate help top` is `slogulate top --help`', async () => {
    const help = await runMain(['help', 'top']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: slogulate top \[options\] \[files\.\.\.\]\n/);
    expect(help.stdout).toBe((await runMain(['top', '--help'])).stdout);
  });

  it('`slogulate help nosuch`: one line, status 2', async () => {
    const r = await runMain(['help', 'nosuch']);
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("'nosuch' is invalid");
  });

  it('`slogulate --help` lists each command with the words `slogulate help X` describes it with', async () => {
    const root = (await runMain(['--help'])).stdout;
    const section = root.slice(root.indexOf('\nCommands:\n') + '\nCommands:\n'.length, root.indexOf('\n\n', root.indexOf('\nCommands:\n')));
    // `  NAME ARGS   words` and its wrapped lines (indented further), whitespace made single spaces.
    const listed = new Map<string, string>();
    let name = '';
    for (const line of section.split('\n')) {
      const head = /^ {2}(\S+)(?: \S+)* {2,}(\S.*)$/.exec(line);
      if (head) {
        name = head[1] as string;
        listed.set(name, head[2] as string);
      } else {
        listed.set(name, `${listed.get(name) as string} ${line.trim()}`);
      }
    }
    const commands = [...listed.keys()].filter((c) => c !== 'help');
    expect(commands).toContain('top');
    expect(commands).toContain('completion');
    expect(commands.length).toBeGreaterThanOrEqual(13);
    for (const command of commands) {
      const own = (await runMain(['help', command])).stdout;
      // After `Usage: ...` and a blank line: the description, up to the next blank line.
      const described = own.split('\n\n')[1] as string;
      expect(described.replace(/\s+/g, ' '), command).toBe(listed.get(command));
    }
  });

  it('--help lists --annot, --version, and -o/--force', async () => {
    const r = await runMain(['--help']);
    expect(r.stdout).toMatch(/\n {2}--annot <file> +alias of --annotations/);
    expect(r.stdout).toMatch(/\n {2}-V, --version +print the version/);
    expect(r.stdout).toMatch(/\n {2}--force +with --out: replace the file even if it holds a slog/);
  });
});

describe('a mistyped subcommand', () => {
  it.each([
    [['stat', f], 'stat', 'stats'],
    [['stat'], 'stat', 'stats'],
    [['tpo', f], 'tpo', 'top'],
    [['compar', '--fail-on', 'cranks:+0', f, f], 'compar', 'compare'],
    [['annotat', f], 'annotat', 'annotate'],
  ])('%j: unknown command, did you mean', async (args, word, meant) => {
    const r = await runMain(args);
    expect(r).toMatchObject({ status: 2, stdout: '' });
    expect(r.stderr).toBe(`slogulate: unknown command '${word}' (did you mean ${meant}?) (see slogulate --help)\n`);
  });

  it('a word like no command, with a file after it: unknown command, no guess', async () => {
    const r = await runMain(['frobnicate', f]);
    expect(r).toMatchObject({ status: 2, stdout: '', stderr: "slogulate: unknown command 'frobnicate' (see slogulate --help)\n" });
  });

  it('two slog files are one slog, read in order', async () => {
    // A copy: the same file twice is an error (inputs.ts).
    const copy = join(dir, 'copy.slog');
    writeFileSync(copy, readSlog('a-xs-3'));
    const one = await runMain([f]);
    const two = await runMain([f, copy]);
    expect(two.status).toBe(0);
    // The second file's lines follow the first's: its cranks again, under the same headers.
    expect(two.stdout.split('\n// crank ').length).toBe(2 * one.stdout.split('\n// crank ').length - 1);
  });

  it('a file named like a mistyped command is a slog: `slogulate stat` renders ./stat', async () => {
    writeFileSync(join(dir, 'stat'), readSlog('a-xs-3'));
    const asFile = await runInProcess(['stat'], { cwd: dir });
    const plain = await runInProcess([f]);
    expect(asFile.status).toBe(0);
    expect(asFile.stdout === plain.stdout).toBe(true);
  });
});

describe('--version, top -o, stats -o, stats without cranks', () => {
  it('--version prints the version in package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = await runMain(['--version']);
    expect(r).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });
  });

  it.each([['top'], ['stats']])('%s -o FILE writes what stdout would show', async (cmd) => {
    const out = join(dir, `${cmd}.txt`);
    const toFile = await runMain([cmd, '-o', out, f]);
    expect(toFile).toMatchObject({ status: 0, stdout: '', stderr: '' });
    const toStdout = await runMain([cmd, f]);
    expect(toStdout.stdout).not.toBe('');
    expect(readFileSync(out, 'utf8')).toBe(toStdout.stdout);
  });

  it('stats on a slog with no cranks prints its tables with zeros (and says so on stderr)', async () => {
    const text = readSlog('a-local-3').toString('utf8');
    const noCranks = join(dir, 'startup-only.slog');
    writeFileSync(noCranks, text.slice(0, text.indexOf('{"type":"crank-start"')));
    const r = await runMain(['stats', noCranks]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`slogulate: ${noCranks}: holds no cranks\n`);
    expect((await runMain(['top', noCranks])).stderr).toBe(`slogulate: ${noCranks}: holds no cranks\n`);
    expect(r.stdout).toMatch(/^Totals:\n/);
    expect(r.stdout).toMatch(/\ncranks +0\n/);
    expect(r.stdout).toMatch(/\nSyscalls by type:\n.*\nall +0 +0 µs +0 µs +0 µs +0 µs +0 µs\n/);
    expect(r.stdout).toContain('\nDelivery cranks by vat:\n');
    const selected = await runMain(['stats', '--cranks', '999999-', f]);
    expect(selected.stdout).toMatch(/\ncranks +0 of \d+\n/);
  });
});
