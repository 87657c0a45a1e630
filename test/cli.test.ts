/**
 * The command line as a user meets it: bad lines, bad files, bad annotation
 * files, exit statuses, --out, a closed pipe. Exit statuses, bad lines and
 * the closed pipe through bin/slogulate; the rest in process (runInProcess).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, readSlog, referenceText, runCli, slogPath, expectSameText } from './helpers.js';
import { runInProcess } from './run-main.js';

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-cli-'));

describe('bad lines', () => {
  const lines = readSlog('b-local-5').toString('utf8').split('\n');
  // garbage at the start, in the middle of a crank, and between cranks
  const broken = [...lines];
  broken.splice(2000, 0, '{"type":"syscall","crankNum":');
  broken.splice(1000, 0, 'this is not json');
  broken.splice(0, 0, '[1,2,3]');
  const file = join(tmp, 'broken.slog');
  writeFileSync(file, broken.join('\n'));

  it('are reported with file and line, skipped, and the rest renders as without them', async () => {
    const r = await runCli([file]);
    expect(r.status).toBe(0);
    expectSameText(r.stdout, referenceText('b-local-5', 'default'));
    const reports = r.stderr.trimEnd().split('\n');
    expect(reports).toHaveLength(3);
    expect(reports[0]).toBe(`slogulate: ${file}:1: not a slog entry (not a JSON object)`);
    expect(reports[1]).toMatch(new RegExp(`^slogulate: ${file}:1002: not JSON: `));
    expect(reports[2]).toMatch(new RegExp(`^slogulate: ${file}:2003: not JSON: `));
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('--strict turns them into exit status 1, output unchanged', async () => {
    const r = await runCli(['--strict', file]);
    expect(r.status).toBe(1);
    expectSameText(r.stdout, referenceText('b-local-5', 'default'));
  });

  it('--strict judges every byte of a line: damage after the last field a render reads fails it too', async () => {
    // A control byte inside crank-finish's activityhash: the byte reader
    // stops before it (the render reads crankNum, crankType and the time at
    // the tail), so without --strict the line is an entry; JSON.parse
    // refuses it, and --strict reads every line with JSON.parse.
    const text = readSlog('a-local-3').toString('utf8').split('\n');
    const at = text.findIndex((l) => l.startsWith('{"type":"crank-finish"') && l.includes('"crankNum":5,'));
    expect(at).toBeGreaterThan(0);
    const damaged = [...text];
    damaged[at] = damaged[at]!.replace('"activityhash":"', '"activityhash":"\u0001');
    expect(() => JSON.parse(damaged[at]!)).toThrow();
    const f = join(tmp, 'damaged-tail.slog');
    writeFileSync(f, damaged.join('\n'));
    const lenient = await runCli([f]);
    expect(lenient.status).toBe(0);
    expect(lenient.stderr).toBe('');
    for (const args of [['--strict', f], ['trace', '--strict', '-o', join(tmp, 'damaged.json'), f]]) {
      const strict = await runCli(args);
      expect(strict.status).toBe(1);
      expect(strict.stderr).toMatch(new RegExp(`^slogulate: ${f}:${at + 1}: not JSON: Bad control character`));
    }
  });

  it('a truncated last line (a live file) is reported as such', async () => {
    const text = readSlog('a-local-3').toString('utf8');
    const cut = join(tmp, 'cut.slog');
    const at = text.indexOf('\n', 300_000) - 40;
    writeFileSync(cut, text.slice(0, at));
    const r = await runInProcess([cut]);
    expect(r.status).toBe(0);
    const lineNo = text.slice(0, at).split('\n').length;
    expect(r.stderr).toMatch(new RegExp(`^slogulate: ${cut}:${lineNo}: truncated last line`));
    // the slog ends inside a crank: its lines are kept under (unfinished)
    expect(r.stdout).toMatch(/\n\/\/ crank \d+: v\d+ \w+ \(unfinished\)\n/);
    expect(r.stdout.endsWith('\n// end of slog\n')).toBe(true);
  });
});

describe('exit statuses and one-line errors', () => {
  it('a missing file: one line, status 2, nothing on stdout', async () => {
    const r = await runCli(['no-such.slog']);
    expect(r).toMatchObject({ status: 2, stdout: '', stderr: 'slogulate: no-such.slog: no such file\n' });
  });

  it('a folder without slog files', async () => {
    const empty = mkdtempSync(join(tmp, 'empty-'));
    writeFileSync(join(empty, 'notes.txt'), 'not a slog\n');
    const r = await runInProcess([empty]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`slogulate: ${empty}: a folder without slog files (slogfile_*_*.gz, *.slog, *.jsonl)\n`);
  });

  it('usage errors: status 2, one line', async () => {
    for (const args of [['--bogus'], ['--bigwidth', 'wide', 'x.slog'], ['--vatspace', '--kernelspace', 'x.slog']]) {
      const r = await runCli(args);
      expect(r.status).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^slogulate: /);
    }
  });

  it('--help shows examples and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('--nonoise');
  });

  it('corrupt gzip data: one line, status 1', async () => {
    const bad = join(tmp, 'bad.gz');
    writeFileSync(bad, Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), Buffer.from('garbage garbage')]));
    const r = await runCli([bad]);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`^slogulate: ${bad}: `));
  });
});

describe('annotation files', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not json', '{"vatNames": ', /not valid JSON/],
    ['wrong type', '{"vatNames": {"v9": 3}}', /: vatNames\.v9: expected a string name$/],
    ['bad vat id', '{"vatNames": {"zoe": "v9"}}', /: vatNames\.zoe: not a vat ID/],
    ['bad kref', '{"kernelRefs": {"o+5": "x"}}', /: kernelRefs\.o\+5: not a kref/],
    ['bad crank', '{"crankLabels": {"seven": "x"}}', /: crankLabels\.seven: not a crank number/],
    ['bad bigWidth', '{"bigWidth": "wide"}', /: bigWidth: expected a non-negative integer/],
    ['unknown key', '{"kernelrefs": {}}', /: kernelrefs: unknown key/],
    ['bad vatRefs', '{"vatRefs": {"v1": {"ko1": "x"}}}', /: vatRefs\.v1\.ko1: not a vref/],
  ];
  it.each(cases)('%s: one line naming the file and key, status 2', async (what, text, why) => {
    const file = join(tmp, 'bad.annot.json');
    writeFileSync(file, text);
    // The first on a real process (its exit status), the rest in process.
    const r = await (what === 'not json' ? runCli : runInProcess)(['--annotations', file, 'a-local-3.slog']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const line = r.stderr.trimEnd();
    expect(line.split('\n')).toHaveLength(1);
    expect(line.startsWith(`slogulate: annotation file ${file}: `)).toBe(true);
    expect(line).toMatch(why);
  });

  it('--annot is the same as --annotations; bigWidth in the file beats --bigwidth', async () => {
    const a = await runInProcess(['--nonoise', '--novatstore', '--bigwidth', '10', '--annot', '../annotations/a-local-3.annot.json', 'a-local-3.slog']);
    expectSameText(a.stdout, referenceText('a-local-3', 'annotated-nonoise-novatstore'));
  });

  it('two annotation files are refused (exit 2, one line), not the last silently taken: on the render and an analysis, --annotations twice or with --annot', async () => {
    const one = '../annotations/a-local-3.annot.json';
    const other = '../../annotations/example.annot.json';
    for (const args of [
      ['--annotations', one, '--annotations', other, 'a-local-3.slog'],
      ['stats', '--annotations', one, '--annotations', other, 'a-local-3.slog'],
      ['top', '--annotations', one, '--annot', other, 'a-local-3.slog'],
    ]) {
      const r = await runInProcess(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('one annotation file at a time');
    }
    // The same file twice is one file.
    const same = await runInProcess(['--nonoise', '--annotations', one, '--annot', one, 'a-local-3.slog']);
    expect(same.status).toBe(0);
  });

  it('the documented example in annotations/ is valid and names things', async () => {
    const r = await runInProcess(['--nonoise', '--annotations', '../../annotations/example.annot.json', 'a-local-3.slog']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/<[^>]+>/);
  });
});

describe('output', () => {
  it('--out writes the file, stdout stays empty', async () => {
    const out = join(tmp, 'out.txt');
    const r = await runInProcess(['--out', out, '--timing', 'a-xs-3.slog']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expectSameText(readFileSync(out, 'utf8'), referenceText('a-xs-3', 'timing'));
  });

  it('a closed pipe ends quietly with status 0', async () => {
    // read one chunk, then close our end, like `slogulate big.slog | head -1`
    const result = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, slogPath('a-xs-3')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (status) => resolve({ status, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
