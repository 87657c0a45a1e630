/**
 * What a newcomer reads (issue 29, item 12): every error is one line; help
 * pointers and suggestions are written one way, `(did you mean X?)` then
 * `(see slogulate [COMMAND] --help)` naming the command the error is about;
 * every help fits 80 columns; a bare `slogulate` at a terminal says it reads
 * stdin; `report`, `trace` and `annotate -o` say on stderr what they wrote;
 * `query --help` lists the tables and their columns (from their
 * declarations).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { TABLES } from '../src/export/tables/index.js';
import { BIN, runCli, slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const slog = slogPath('a-xs-3');
const oneLine = (stderr: string): void => {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.slice(0, -1)).not.toContain('\n');
};

describe('errors are one line', () => {
  it('an annotation file whose JSON error quotes its lines', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, 'not json\nat all\n');
    for (const args of [['--annotations', bad, slog], ['annotate', '--merge', bad, slog]]) {
      const r = await runMain(args);
      expect(r.status).toBe(2);
      oneLine(r.stderr);
      expect(r.stderr).toMatch(new RegExp(`^slogulate: annotation file ${bad}: not valid JSON \\(`));
    }
  });

  it.each([
    ['compare', ['compare', '--fail-on', 'xx', slog, slog]],
    ['compare, an unknown metric', ['compare', '--fail-on', 'computron:+0', slog, slog]],
    ['report --compare', ['report', '--compare', '--fail-on', 'cranks:5', '-o', join(dir, 'r.html'), slog, slog]],
  ])('a malformed --fail-on (%s): one line, pointing to the grammar in the help', async (_what, args) => {
    const r = await runMain(args);
    expect(r.status).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/^slogulate: --fail-on '[^']+': .* \(see slogulate (compare|report) --help\)\n$/);
  });
});

describe('suggestions and help pointers, one way', () => {
  it.each([
    [['stats', '--blokcs', '3', slog], "slogulate: unknown option '--blokcs' (did you mean --blocks?) (see slogulate stats --help)\n"],
    [['--nonoyse', slog], "slogulate: unknown option '--nonoyse' (did you mean --nonoise?) (see slogulate --help)\n"],
    [['top', '--frobnicate', slog], "slogulate: unknown option '--frobnicate' (see slogulate top --help)\n"],
    [['stat', slog], "slogulate: unknown command 'stat' (did you mean stats?) (see slogulate --help)\n"],
    [['--nonoise', 'top', slog], 'slogulate: --nonoise is not an option of top (see slogulate top --help)\n'],
    // The render's options after a subcommand (learned from the render's examples): said so.
    [['top', '--parts', slog], "slogulate: unknown option '--parts' (--parts is the render's: slogulate --parts FILE) (see slogulate top --help)\n"],
    [['stats', '--nonoise', slog], "slogulate: unknown option '--nonoise' (--nonoise is the render's: slogulate --nonoise FILE) (see slogulate stats --help)\n"],
  ])('%j', async (args, stderr) => {
    const r = await runMain(args);
    expect(r).toMatchObject({ status: 2, stdout: '', stderr });
  });
});

describe('help fits 80 columns', () => {
  const commands = ['', 'top', 'stats', 'compare', 'annotate', 'flow', 'growth', 'kref', 'why', 'sequence', 'trace', 'blocks', 'runs', 'report', 'export', 'query', 'extract', 'completion'];
  it.each(commands)('slogulate %s --help', async (command) => {
    const r = await runMain([...(command ? [command] : []), '--help']);
    expect(r.status).toBe(0);
    const long = r.stdout.split('\n').filter((line) => [...line].length > 80);
    expect(long).toEqual([]);
  });
});

describe('query --help lists every table and column, from their declarations', () => {
  it('each table with its columns', async () => {
    const r = await runMain(['query', '--help']);
    const help = r.stdout.replace(/\n {4,}/g, ' ');
    expect(TABLES.length).toBeGreaterThan(5);
    for (const table of TABLES) {
      const listed = new RegExp(`^  ${table.name}: ([^\\n]*)`, 'm').exec(help)?.[1] ?? '';
      for (const column of table.columns) expect(listed, `${table.name}.${column.name}`).toMatch(new RegExp(`\\b${column.name}\\b`));
    }
    expect(r.stdout).not.toMatch(/docs\/export\.md/);
  });
});

describe('what was written, on stderr', () => {
  it.each([
    ['report', (out: string) => ['report', '-o', out, slog]],
    ['trace', (out: string) => ['trace', '-o', out, slog]],
    ['annotate', (out: string) => ['annotate', '-o', out, slog]],
    ['extract', (out: string) => ['extract', '--cranks', '1-5', '-o', out, slog]],
  ])('%s -o: one line naming the file and its size', async (what, args) => {
    const out = join(dir, `${what}.out`);
    const r = await runMain(args(out));
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    oneLine(r.stderr);
    expect(r.stderr).toMatch(new RegExp(`^slogulate: wrote ${out} \\(`));
    const bytes = statSync(out).size;
    const kb = (bytes / 1024).toFixed(1);
    expect(r.stderr, `${bytes} bytes`).toContain(bytes < 1024 * 1024 ? `${kb} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
  });

  it('nothing when the text goes to stdout', async () => {
    const r = await runMain(['annotate', slog]);
    expect(r.stderr).toBe('');
  });
});

describe('a bare slogulate at a terminal', () => {
  it.each([['slogulate', '', '// end of slog'], ['slogulate stats', 'stats', 'Totals:']])('%s: says on stderr that it reads the slog from stdin, then reads it (Ctrl-D: an empty slog)', async (_what, command, shown) => {
    const probe = spawnSync('script', ['--version']);
    if (probe.error || probe.status !== 0) throw new Error('`script` (util-linux) is not installed here: this test runs the CLI on a pseudo-terminal with it (on Debian: apt-get install bsdutils)');
    const child = spawn('script', ['-qec', `'${process.execPath}' '${BIN}' ${command}`, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let seen = '';
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    onTestFinished(() => void child.kill('SIGKILL'));
    child.stdout.on('data', (c: Buffer) => {
      seen += c.toString('utf8');
      // The notice, then end of input (Ctrl-D at the start of a line).
      if (seen.includes('Ctrl-D')) child.stdin.write('\x04');
    });
    expect(await done).toBe(0);
    expect(seen).toMatch(/^slogulate: reading the slog from stdin \(a terminal\)[^\n]*Ctrl-D[^\n]*\r?\n/);
    expect(seen).toContain(shown);
  }, 30_000);

  it('says nothing when stdin is not a terminal', async () => {
    const r = await runCli([], { stdin: '' });
    expect(r).toMatchObject({ status: 0, stderr: '' });
  });

  // Asking process.stdin whether it is a terminal makes its stream, which sets a
  // pipe non-blocking: the piped slog was then read through that stream, not by
  // the synchronous reads of source/open.ts (about 10% more CPU on big-local-1200).
  it.each([[['-']], [['stats', '-']], [['top', '-']]])('slogulate %j with a piped slog never makes process.stdin (its reads stay synchronous)', async (args) => {
    const hook = join(dir, 'stdin-hook.cjs');
    writeFileSync(
      hook,
      "const d = Object.getOwnPropertyDescriptor(process, 'stdin');\n" +
        "Object.defineProperty(process, 'stdin', { configurable: true, enumerable: d.enumerable, get() { require('fs').writeSync(2, 'process.stdin made\\n'); return d.get.call(process); } });\n",
    );
    // A pipe made by the shell: Node.js's own child stdin is a socket, which is read as a stream anyway.
    const r = spawnSync('sh', ['-c', `cat '${slog}' | '${process.execPath}' --require '${hook}' '${BIN}' ${args.join(' ')}`], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const fromFile = await runCli(args.map((a) => (a === '-' ? slog : a)));
    expect(r.stdout.replaceAll('<stdin>', slog)).toBe(fromFile.stdout);
  });
});
