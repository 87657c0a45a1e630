/**
 * --watch: the bin renders into --out, then again whenever the annotation
 * file or the slog changes. The test edits the annotation file (a rename, a
 * bad edit, a fix) and appends to the slog, and checks the output file each
 * time against the reference text, changed the way the edit says.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, readSlog, referenceText, runCli, expectSameText } from './helpers.js';
import { until } from './live-process.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('--watch', () => {
  it('renders again on each change of the annotations or the slog, and keeps the last good output', async () => {
    const annot = join(dir, 'annot.json');
    const slog = join(dir, 'live.slog');
    const out = join(dir, 'out.txt');
    const original = readFileSync(join(FIXTURES, 'annotations', 'a-local-3.annot.json'), 'utf8');
    writeFileSync(annot, original);
    const whole = readSlog('a-local-3').toString('utf8');
    const cut = whole.indexOf('\n', Math.floor(whole.length / 2)) + 1;
    writeFileSync(slog, whole.slice(0, cut));

    const child = spawn(process.execPath, [BIN, '--watch', '--nonoise', '--novatstore', '--annotations', 'annot.json', '--out', 'out.txt', 'live.slog'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const stderr = (): string => Buffer.concat(err).toString('utf8');
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const wrote = (): number => count(stderr(), 'slogulate: wrote out.txt\n');
    try {
      // 1. The first render: half the slog, as a plain render of it says.
      await until('the first render', () => wrote() >= 1);
      const half = await runCli(['--nonoise', '--novatstore', '--annotations', annot, slog]);
      expectSameText(readFileSync(out, 'utf8'), half.stdout);

      // 2. The slog grows to the whole of it: the reference text.
      let renders = wrote();
      appendFileSync(slog, whole.slice(cut));
      const reference = referenceText('a-local-3', 'annotated-nonoise-novatstore');
      await until('a render of the whole slog', () => wrote() > renders && readFileSync(out, 'utf8') === reference);

      // 3. A kref renamed in the annotation file: every `<old>` becomes `<NEW>`.
      const kernelRefs = (JSON.parse(original) as { kernelRefs: Record<string, string> }).kernelRefs;
      const [kref, name] = Object.entries(kernelRefs).find(([, n]) => count(reference, `<${n}>`) > 1) as [string, string];
      // The same length: values stay on the same side of the annotation file's bigWidth.
      const renamed = name.toUpperCase();
      expect(renamed).not.toBe(name);
      renders = wrote();
      writeFileSync(annot, original.replace(`"${kref}": "${name}"`, `"${kref}": "${renamed}"`));
      const expected = reference.split(`<${name}>`).join(`<${renamed}>`);
      expect(expected).not.toBe(reference);
      await until('a render with the new name', () => wrote() > renders && readFileSync(out, 'utf8') === expected);

      // 4. A bad edit: its one-line error, and the last good output stays.
      writeFileSync(annot, original.replace(`"${kref}": "${name}"`, `"${kref}": 5`));
      const badEdit = `slogulate: annotation file annot.json: kernelRefs.${kref}: expected a string name\n`;
      await until('the error', () => stderr().includes(badEdit));
      expectSameText(readFileSync(out, 'utf8'), expected);

      // 5. Not JSON at all: the same. Renders run one after another: once this error is
      // printed, the render of the bad edit is over, and it wrote nothing after its error.
      writeFileSync(annot, '{"kernelRefs": ');
      const notJson = /slogulate: annotation file annot\.json: not valid JSON \(.*\)\n/;
      await until('the JSON error', () => notJson.test(stderr()));
      const since = stderr().slice(stderr().indexOf(badEdit));
      expect(count(since, 'wrote out.txt')).toBe(0);
      expectSameText(readFileSync(out, 'utf8'), expected);
      expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);

      // 6. Fixed, with a new comment: rendered again.
      renders = wrote();
      const comment = (JSON.parse(original) as { comment: string }).comment;
      writeFileSync(annot, original.replace(JSON.stringify(comment), JSON.stringify('watched')));
      const fixed = reference.replace(`// ${comment}\n`, '// watched\n');
      expect(fixed).not.toBe(reference);
      await until('the fixed render', () => wrote() > renders && readFileSync(out, 'utf8') === fixed);

      // Each stderr line is one line: no stack traces.
      for (const line of stderr().trimEnd().split('\n')) expect(line).toMatch(/^slogulate: /);

      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it.each([
    ['without --out', ['--watch', 'x.slog'], /--watch needs --out FILE/],
    ['on stdin', ['--watch', '--out', 'o.txt', '-'], /--watch needs slog files/],
    ['with --follow', ['--watch', '--follow', '--out', 'o.txt', 'x.slog'], /cannot be used with|cannot be used together/],
  ])('is a usage error %s', async (_what, args, message) => {
    const r = await runCli(args, { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(existsSync(join(dir, 'o.txt'))).toBe(false);
  });

  it('keeps watching a slog that does not exist yet', async () => {
    const sub = mkdtempSync(join(dir, 'later-'));
    const child = spawn(process.execPath, [BIN, '--watch', '--out', 'out.txt', 'later.slog'], { cwd: sub, env: { ...process.env, NO_COLOR: '1' } });
    const err: Buffer[] = [];
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await until('the error', () => Buffer.concat(err).toString().includes('later.slog: no such file'));
      copyFileSync(join(FIXTURES, 'slogs', 'b-local-5.slog'), join(sub, 'later.slog'));
      await until('the render', () => existsSync(join(sub, 'out.txt')) && readFileSync(join(sub, 'out.txt'), 'utf8') === referenceText('b-local-5', 'default'));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
