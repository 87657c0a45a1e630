/**
 * Outputs never lose a user's data (issue 13): `-o/--out` is never an input
 * (also through a symlink or a hard link, also stdin), is written through a
 * temporary file put in place only when the command succeeds (an error,
 * SIGINT or SIGTERM leaves an existing file as it was and no temporary file),
 * does not replace a slog without --force, and every write error is one line
 * naming the output, status 1, found before the slog is read when it can be.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { BIN, readSlog, referenceText, ROOT, runCli, slogPath } from './helpers.js';
import { until } from './live-process.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SLOG = readSlog('a-xs-3');
const temps = (where = dir): string[] => readdirSync(where).filter((f) => f.endsWith('.tmp'));
const oneLine = (stderr: string): string => {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] as string;
};

/** A run whose --out is one of its inputs: refused before anything is read (status 2, one line), `out` untouched. */
async function expectRefused(args: string[], out: string): Promise<void> {
  const before = readFileSync(out);
  const r = await runMain(args);
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(oneLine(r.stderr)).toMatch(new RegExp(`^slogulate: --out ${out} is the same file as the input .*; refusing to overwrite it$`));
  expect(readFileSync(out).equals(before)).toBe(true);
}

/** A folder holding a copy of the slog, a symlink and a hard link to it, and an annotation file. */
function workspace(name: string): { ws: string; slog: string; link: string; hard: string; annot: string } {
  const ws = join(dir, name);
  mkdirSync(ws);
  const slog = join(ws, 'chain.slog');
  writeFileSync(slog, SLOG);
  const link = join(ws, 'link.slog');
  symlinkSync(slog, link);
  const hard = join(ws, 'hard.slog');
  linkSync(slog, hard);
  const annot = join(ws, 'names.json');
  writeFileSync(annot, '{"vatNames": {"v7": "bob"}}\n');
  return { ws, slog, link, hard, annot };
}

describe('an output that is an input is refused before anything is opened', () => {
  const w = workspace('same');
  const other = slogPath('a-local-3');
  const cases: Array<[string, string[], string]> = [
    ['render --out the slog', ['--out', w.slog, w.slog], w.slog],
    ['render --out a symlink to the slog', ['--out', w.link, w.slog], w.link],
    ['render --out a hard link to the slog', ['--out', w.hard, w.slog], w.hard],
    ['render --out the slog, read through a symlink', ['-o', w.slog, w.link], w.slog],
    ['render --out the annotation file', ['--annotations', w.annot, '--out', w.annot, w.slog], w.annot],
    ['trace -o', ['trace', '-o', w.slog, w.slog], w.slog],
    ['annotate -o', ['annotate', '-o', w.hard, w.slog], w.hard],
    ['annotate --merge -o the slog', ['annotate', '--merge', w.annot, '-o', w.slog, w.slog], w.slog],
    ['compare -o the head', ['compare', '-o', w.link, other, w.slog], w.link],
    ['flow -o', ['flow', '-o', w.slog, w.slog], w.slog],
    ['kref -o', ['kref', '-o', w.slog, 'ko20', w.slog], w.slog],
    ['top -o', ['top', '-o', w.slog, w.slog], w.slog],
    ['stats -o', ['stats', '--out', w.link, w.slog], w.link],
    ['report -o the slog', ['report', '-o', w.slog, w.slog], w.slog],
    ['report -o a hard link to the slog, read through a symlink', ['report', '-o', w.hard, w.link], w.hard],
    ['report -o its annotation file', ['report', '--annotations', w.annot, '-o', w.annot, w.slog], w.annot],
  ];
  it.each(cases)('%s: status 2, one line, the input untouched', async (_what, args, out) => {
    await expectRefused(args, out);
    expect(readFileSync(w.slog).equals(SLOG)).toBe(true);
    expect(temps(w.ws)).toEqual([]);
  });

  it('--watch --out the slog: refused at once, not rewritten forever', async () => {
    const child = spawn(process.execPath, [BIN, '--watch', '--out', w.slog, w.slog], { stdio: ['ignore', 'pipe', 'pipe'] });
    // Were it to watch instead, the test's own time-out ends it, and this the process.
    onTestFinished(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    expect(status).toBe(2);
    expect(oneLine(stderr)).toMatch(/is the same file as the input .*; refusing to overwrite it$/);
    expect(readFileSync(w.slog).equals(SLOG)).toBe(true);
  });

  it('the slog on stdin from the output file itself (`--out chain.slog < chain.slog`)', async () => {
    const fd = openSync(w.slog, 'r');
    try {
      const child = spawn(process.execPath, [BIN, '--out', w.slog], { stdio: [fd, 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      expect(status).toBe(2);
      expect(oneLine(stderr)).toBe(`slogulate: --out ${w.slog} is the same file as stdin, which is read; refusing to overwrite it`);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(w.slog).equals(SLOG)).toBe(true);
  });
});

describe('a folder read as one slog: none of its files is an output, even with --force', () => {
  const blocks = join(dir, 'blocks');
  cpSync(join(ROOT, '..', 'shared', 'slogs', 'real', 'block-files-bot'), blocks, { recursive: true });
  const blockFile = join(blocks, readdirSync(blocks).filter((f) => f.startsWith('slogfile_block_')).sort()[0] as string);
  const plain = join(dir, 'plain');
  mkdirSync(plain);
  writeFileSync(join(plain, '1.slog'), SLOG);
  writeFileSync(join(plain, '2.slog'), SLOG);
  const cases: Array<[string, string[], string]> = [
    ['stats -o a per-block file of the folder', ['stats', '--force', '-o', blockFile, blocks], blockFile],
    ['render -o a slog file of the folder', ['--force', '-o', join(plain, '2.slog'), plain], join(plain, '2.slog')],
    ['blocks -o a per-block file, the folder named with a trailing slash', ['blocks', '--force', '-o', blockFile, `${blocks}/`], blockFile],
  ];
  it.each(cases)('%s: status 2, one line, the file untouched', async (_what, args, out) => {
    await expectRefused(args, out);
  });

  it('a new file in the folder is written, and is not read as part of the slog', async () => {
    const out = join(plain, 'stats.txt');
    const r = await runMain(['stats', '-o', out, plain]);
    expect(r.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('cranks');
  });
});

describe('outputs that are not regular files, and runs that end on Ctrl-C by design', () => {
  it('-o /dev/null with stdin read from /dev/null: a device is no input to protect', async () => {
    const devnull = openSync('/dev/null', 'r');
    try {
      const child = spawn(process.execPath, [BIN, '-o', '/dev/null'], { stdio: [devnull, 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    } finally {
      closeSync(devnull);
    }
  });

  it('--follow -o F: Ctrl-C ends the run normally, and F gets the text', async () => {
    const ws = join(dir, 'follow');
    mkdirSync(ws);
    const slog = join(ws, 'live.slog');
    writeFileSync(slog, readSlog('a-local-3'));
    const out = join(ws, 'out.txt');
    writeFileSync(out, 'old\n');
    const child = spawn(process.execPath, [BIN, '--follow', '-o', out, slog], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    onTestFinished(() => void child.kill('SIGKILL'));
    // Ctrl-C once the temporary file holds every crank (written as each ends): the slog read through.
    const reference = referenceText('a-local-3', 'default');
    const lastCrank = [...reference.matchAll(/^\/\/ crank \d+:.*$/gm)].at(-1)?.[0] as string;
    const written = (): string => (temps(ws).length === 1 ? readFileSync(join(ws, temps(ws)[0] as string), 'utf8') : '');
    await until('every crank in the temporary file', () => written().includes(`${lastCrank}\n`) && reference.startsWith(written()));
    child.kill('SIGINT');
    expect(await closed).toBe(0);
    expect(stderr).toBe('');
    expect(readFileSync(out, 'utf8') === referenceText('a-local-3', 'default')).toBe(true);
    expect(temps(ws)).toEqual([]);
  });
});

describe('--out with the slog forgotten (the slog on stdin) does not replace a slog', () => {
  it.each([
    ['plain', SLOG],
    ['gzipped', gzipSync(SLOG)],
  ])('a %s slog: status 2, one line, untouched; --force replaces it', async (_kind, bytes) => {
    const target = join(dir, `kept-${_kind}.slog`);
    writeFileSync(target, bytes);
    const r = await runCli(['--out', target], { stdin: readSlog('a-local-3') });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toBe(`slogulate: ${target} holds a slog; not replacing it (--force replaces it)`);
    expect(readFileSync(target).equals(bytes)).toBe(true);

    const forced = await runCli(['--out', target, '--force'], { stdin: readSlog('a-local-3') });
    expect(forced.status).toBe(0);
    expect(readFileSync(target, 'utf8') === referenceText('a-local-3', 'default')).toBe(true);
  });

  it('a file that is not a slog (an older render) is replaced', async () => {
    const target = join(dir, 'old-render.txt');
    writeFileSync(target, '// startup\nold text\n');
    const r = await runMain(['--out', target, slogPath('a-local-3')]);
    expect(r.status).toBe(0);
    expect(readFileSync(target, 'utf8') === referenceText('a-local-3', 'default')).toBe(true);
  });
});

describe('an output file is replaced only when the command succeeds', () => {
  /** A gzipped slog whose data breaks two thirds of the way in: the command fails after writing. */
  const corrupt = join(dir, 'corrupt.slog.gz');
  const gz = gzipSync(readSlog('a-local-3'));
  const broken = Buffer.from(gz);
  for (let i = Math.floor(gz.length * 0.66); i < Math.floor(gz.length * 0.66) + 64; i += 1) broken[i] = 0xff;
  writeFileSync(corrupt, broken);

  it.each([
    ['render', (out: string) => ['--out', out, corrupt]],
    ['trace', (out: string) => ['trace', '-o', out, corrupt]],
    // --force: the file is no annotate output, which annotate -o does not replace without it (annotate.test.ts).
    ['annotate', (out: string) => ['annotate', '--force', '-o', out, corrupt]],
    ['flow', (out: string) => ['flow', '-o', out, corrupt]],
    ['stats', (out: string) => ['stats', '-o', out, corrupt]],
    ['compare', (out: string) => ['compare', '-o', out, slogPath('a-local-3'), corrupt]],
    ['report', (out: string) => ['report', '-o', out, corrupt]],
  ])('%s: a read error leaves the existing file as it was and no temporary file', async (what, args) => {
    const ws = join(dir, `fail-${what}`);
    mkdirSync(ws);
    const out = join(ws, 'out.txt');
    writeFileSync(out, 'the last good output\n');
    const r = await runMain(args(out));
    expect(r.status).toBe(1);
    expect(oneLine(r.stderr)).toMatch(new RegExp(`^slogulate: ${corrupt}: not valid gzip data`));
    expect(readFileSync(out, 'utf8')).toBe('the last good output\n');
    expect(temps(ws)).toEqual([]);
  });

  /** A command writing through a symlink to a file of mode 0640, and what the file must then hold. */
  const replacing: Array<[string, string, (out: string) => string[], (text: string) => void]> = [
    ['render', 'render.txt', (out) => ['--timing', '-o', out, slogPath('a-xs-3')], (text) => expect(text === referenceText('a-xs-3', 'timing')).toBe(true)],
    ['report', 'report.html', (out) => ['report', '-o', out, slogPath('a-xs-3')], (text) => expect(text).toMatch(/^<!doctype html>/i)],
  ];

  it.each(replacing)('%s: success replaces the file, keeping its permissions, and a symlink stays a symlink to it', async (what, name, args, check) => {
    const ws = join(dir, `replace-${what}`);
    mkdirSync(ws);
    const real = join(ws, name);
    writeFileSync(real, 'old\n');
    chmodSync(real, 0o640);
    const link = join(ws, `link-${name}`);
    symlinkSync(real, link);
    const r = await runMain(args(link));
    expect(r).toMatchObject({ status: 0, stdout: '' });
    // Nothing on stderr but what was written (report says it).
    if (what === 'report') expect(r.stderr).toMatch(/^slogulate: wrote \S+ \([\d.]+ [KM]B(, [^)]*)?\)\n$/);
    else expect(r.stderr).toBe('');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    check(readFileSync(real, 'utf8'));
    expect(statSync(real).mode & 0o777).toBe(0o640);
    expect(temps(ws)).toEqual([]);
  });

  it('report -o: a file holding a slog is replaced only with --force', async () => {
    const ws = join(dir, 'replace-report-slog');
    mkdirSync(ws);
    const html = join(ws, 'report.html');
    expect((await runMain(['report', '-o', html, slogPath('a-xs-3')])).status).toBe(0);
    const slog = join(ws, 'other.slog');
    writeFileSync(slog, SLOG);
    const refused = await runMain(['report', '-o', slog, slogPath('a-xs-3')]);
    expect(refused.status).toBe(2);
    expect(oneLine(refused.stderr)).toBe(`slogulate: ${slog} holds a slog; not replacing it (--force replaces it)`);
    expect(readFileSync(slog).equals(SLOG)).toBe(true);
    expect((await runMain(['report', '--force', '-o', slog, slogPath('a-xs-3')])).status).toBe(0);
    expect(readFileSync(slog, 'utf8')).toBe(readFileSync(html, 'utf8'));
    expect(temps(ws)).toEqual([]);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s in the middle of a run leaves the existing file as it was and no temporary file', async (signal) => {
    const ws = join(dir, `signal-${signal}`);
    mkdirSync(ws);
    const out = join(ws, 'out.txt');
    writeFileSync(out, 'the last good output\n');
    // The slog comes on stdin, all but its last line, the rest never: the run is caught in the middle.
    const child = spawn(process.execPath, [BIN, '--out', out, '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, sig) => resolve({ code, signal: sig })),
    );
    const slog = readSlog('a-local-3');
    // The child is killed with part of this maybe still unread: EPIPE then is expected, not a failure.
    child.stdin.on('error', () => undefined);
    // (The text of that is more than the 64 KB the output holds before writing.)
    child.stdin.write(slog.subarray(0, slog.lastIndexOf('\n', slog.length - 2) + 1));
    onTestFinished(() => void child.kill('SIGKILL'));
    // In the middle: the render has written some of its text to the temporary file (the rest of the slog never comes).
    await until('text in the temporary file', () => temps(ws).length === 1 && statSync(join(ws, temps(ws)[0] as string)).size > 0);
    child.kill(signal);
    const end = await closed;
    child.stdin.destroy();
    expect(end.signal).toBe(signal);
    expect(stderr).toBe('');
    expect(readFileSync(out, 'utf8')).toBe('the last good output\n');
    expect(temps(ws)).toEqual([]);
  });
});

describe('write errors: one line naming the output, status 1', () => {
  const slog = slogPath('a-xs-3');
  const commands: Array<[string, string[]]> = [
    ['render', [slog]],
    ['top', ['top', slog]],
    ['stats', ['stats', slog]],
    ['compare', ['compare', slog, slogPath('a-local-3')]],
    ['annotate', ['annotate', slog]],
    ['flow', ['flow', slog]],
    ['kref', ['kref', 'ko20', slog]],
    ['trace', ['trace', slog]],
  ];

  it('stdout on a full disk (> /dev/full), for every command', async () => {
    const all = [...commands, ['completion', ['completion', 'bash']] as [string, string[]], ['--help', ['--help']] as [string, string[]]];
    const results = await Promise.all(
      all.map(async ([what, args]) => {
        const full = openSync('/dev/full', 'w');
        try {
          const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', full, 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
          let stderr = '';
          child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
          const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
          return { what, status, stderr };
        } finally {
          closeSync(full);
        }
      }),
    );
    for (const r of results) expect(r, r.what).toEqual({ what: r.what, status: 1, stderr: 'slogulate: stdout: no space left on device\n' });
  });

  /** The commands that write files: those, and the report (which writes no stdout). */
  const toFiles: Array<[string, string[]]> = [...commands, ['report', ['report', slog]]];

  it.each(toFiles)('%s -o /dev/full', async (_what, args) => {
    const r = await runMain([...args, '-o', '/dev/full']);
    expect(r).toMatchObject({ status: 1, stdout: '', stderr: 'slogulate: /dev/full: no space left on device\n' });
  });

  it.each(toFiles)('%s -o a folder, or a file in a missing folder: found before the slog is read', async (_what, args) => {
    // The slog does not exist: the output's error comes first.
    const missing = args.map((a) => (a === slog ? join(dir, 'no-such.slog') : a));
    const folder = await runMain([...missing, '-o', dir]);
    expect(folder).toMatchObject({ status: 1, stdout: '', stderr: `slogulate: ${dir}: is a directory\n` });
    const nowhere = join(dir, 'no-such-folder', 'out.txt');
    const r = await runMain([...missing, '-o', nowhere]);
    expect(r).toMatchObject({ status: 1, stdout: '', stderr: `slogulate: ${nowhere}: no such directory\n` });
    expect(existsSync(join(dir, 'no-such-folder'))).toBe(false);
  });
});
