/**
 * An input with no slog entry in it at all (issue 29, item 6): a short text
 * file (the repository's own package.json), a binary file, is not a slog,
 * whatever its length: one line naming the file, exit 1 (compare: 2, a side
 * it cannot compare), for every command, and nothing on stdout (no
 * `// startup`). A slog whose first lines are bad, a flight-recorder dump
 * cut inside a line, and an empty file keep their behaviour: bad lines one
 * per line, the rest read, exit 0.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderSlog } from '../src/run/render.js';
import type { BadLineReport } from '../src/run/pass.js';
import { ROOT, runCli, slogPath, expectSameText } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-not-a-slog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pkg = join(dir, 'package.json');
copyFileSync(join(ROOT, 'package.json'), pkg);
/** package.json's lines, counted independently: every one is a line of text, none a JSON object with a type. */
const pkgLines = readFileSync(pkg, 'utf8').split('\n');
if (pkgLines.at(-1) === '') pkgLines.pop();
const notASlog = (file: string, lines: number): string => `${file}: not a slog (none of its ${lines} lines is a slog entry)`;

/** A few kilobytes of bytes that are no text, in a few "lines", the last one unterminated. */
const binary = join(dir, 'short.bin');
writeFileSync(binary, Buffer.from(Array.from({ length: 3000 }, (_, i) => (i % 997 === 996 ? 10 : (i * 7919 + 13) % 251))));
const binaryLines = readFileSync(binary).toString('latin1').split('\n').length;

describe('a file with no slog entry in it', () => {
  const out = (name: string): string => join(dir, name);
  const commands: Array<[string, string[], number]> = [
    ['render', [pkg], 1],
    ['render --nonoise', ['--nonoise', pkg], 1],
    ['stats', ['stats', pkg], 1],
    ['stats --json', ['stats', '--json', pkg], 1],
    ['top', ['top', pkg], 1],
    ['flow', ['flow', pkg], 1],
    ['kref', ['kref', 'ko1', pkg], 1],
    ['blocks', ['blocks', pkg], 1],
    ['runs', ['runs', pkg], 1],
    ['annotate', ['annotate', '-o', out('names.json'), pkg], 1],
    ['trace', ['trace', '-o', out('trace.json'), pkg], 1],
    ['report', ['report', '-o', out('report.html'), pkg], 1],
    ['export', ['export', '--to', out('tables'), pkg], 1],
    ['query', ['query', 'SELECT count(*) FROM deliveries', pkg], 1],
    ['extract', ['extract', '--cranks', '1-5', '-o', out('extract.slog'), pkg], 1],
    ['report --compare', ['report', '--compare', '-o', out('report.html'), slogPath('a-local-3'), pkg], 1],
    ['compare (head)', ['compare', slogPath('a-local-3'), pkg], 2],
  ];

  it.each(commands)('%s: one line naming the file, nothing on stdout, no file written', async (_what, args, status) => {
    const r = await runMain(args);
    const which = args[0] === 'compare' ? 'head ' : '';
    expect(r.stderr).toBe(`slogulate: ${which}${notASlog(pkg, pkgLines.length)}\n`);
    expect(r.stdout).toBe('');
    expect(r.status).toBe(status);
    for (const name of ['names.json', 'trace.json', 'report.html', 'tables']) expect(existsSync(out(name))).toBe(false);
  });

  it('on stdin too', async () => {
    const r = await runCli(['stats'], { stdin: readFileSync(pkg) });
    expect(r).toMatchObject({ status: 1, stdout: '', stderr: `slogulate: ${notASlog('<stdin>', pkgLines.length)}\n` });
  });

  it('a short binary file: no `// startup` before its one line', async () => {
    const r = await runMain([binary]);
    expect(r).toMatchObject({ status: 1, stdout: '', stderr: `slogulate: ${notASlog(binary, binaryLines)}\n` });
  });

  it('a long binary file: no `// startup` before its one line', async () => {
    const file = join(dir, 'long.bin');
    const noise = Buffer.alloc(200_000);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 7919 + 13) % 256;
    writeFileSync(file, noise);
    const r = await runMain([file]);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
  });
});

describe('what keeps its behaviour', () => {
  const slog = readFileSync(slogPath('a-local-3'), 'utf8');

  it('a slog that starts with bad lines (package.json before it): each bad line reported, the slog read', async () => {
    const bad: BadLineReport[] = [];
    const r = await renderSlog({ inputs: [{ name: 'after-package.slog', bytes: Buffer.from(`${pkgLines.join('\n')}\n${slog}`) }], onBadLine: (b) => bad.push(b) });
    expect(bad.map((b) => b.line)).toEqual(pkgLines.map((_, i) => i + 1));
    const plain = await renderSlog({ inputs: [slogPath('a-local-3')] });
    expectSameText(r.text, plain.text);
    const cli = await runMain([join(dir, 'x.slog')].map((f) => (writeFileSync(f, `${pkgLines.join('\n')}\n${slog}`), f)));
    expect(cli.status).toBe(0);
    expect(cli.stderr.trimEnd().split('\n')).toHaveLength(pkgLines.length);
  });

  it('a flight-recorder dump cut inside its first line: that line reported, the rest read', async () => {
    const text = readFileSync(join(ROOT, '..', 'shared', 'slogs', 'real', 'mid-crank-start.slog'), 'utf8');
    const firstEnd = text.indexOf('\n');
    const cut = text.slice(Math.floor(firstEnd / 2));
    const bad: BadLineReport[] = [];
    const r = await renderSlog({ inputs: [{ name: 'dump.slog', bytes: Buffer.from(cut) }], onBadLine: (b) => bad.push(b) });
    expect(bad.map((b) => b.line)).toEqual([1]);
    const whole = await renderSlog({ inputs: [{ name: 'rest.slog', bytes: Buffer.from(text.slice(firstEnd + 1)) }] });
    expect(r.entries).toBe(whole.entries);
  });

  it('an empty file, or one of blank lines, is an empty slog: exit 0, the empty render', async () => {
    for (const [name, content] of [['empty.slog', ''], ['blank.slog', '\n\n  \n']] as const) {
      const file = join(dir, name);
      writeFileSync(file, content);
      const r = await runMain([file]);
      expect(r).toMatchObject({ status: 0, stderr: '', stdout: '// startup\n\n// end of slog\n' });
    }
  });
});
