/**
 * --follow: a slog appended to while slogulate reads it. The bin is spawned
 * on the first part of a real slog, the rest is appended in pieces (one
 * ending mid-line), each crank must appear once it has ended and not before
 * (checked once the bin has read the file through: readThrough), and Ctrl-C
 * (SIGINT) ends the run with the same text a plain render of the whole file
 * gives: the reference text. In process, openFollow is driven by what it has
 * read (rawBytesRead), never by a pause.
 */
import { appendFileSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runPass } from '../src/run/pass.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { READ_ALL } from '../src/scan/reads.js';
import { openFollow } from '../src/source/follow.js';
import { readSlog, referenceText, runCli, expectSameText } from './helpers.js';
import { readThrough, startLive, until, type Running } from './live-process.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-follow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The slog's lines (with their '\n'), and the crank each crank-finish ends, by line index. */
function slogLines(name: string): { lines: string[]; finishedAt: Map<number, number> } {
  const lines = readSlog(name).toString('utf8').split(/(?<=\n)/);
  const finishedAt = new Map<number, number>();
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const entry = JSON.parse(line) as { type: string; crankNum?: number };
    if (entry.type === 'crank-finish' && entry.crankNum !== undefined) finishedAt.set(i, entry.crankNum);
  });
  return { lines, finishedAt };
}

const start = (args: string[]): Running => startLive(args, dir);

describe('--follow on a slog being written', () => {
  it.each([
    ['summarize', ['--summarize']],
    ['timing', ['--timing']],
  ])('prints each crank when it ends; Ctrl-C ends with the %s text of the whole slog', async (reference, args) => {
    const slog = 'a-local-3';
    const { lines, finishedAt } = slogLines(slog);
    const file = join(dir, `live-${reference}.slog`);
    // The first part ends inside a crank: its crank-finish is still to come.
    const cut1 = Math.floor(lines.length * 0.3);
    const cut2 = Math.floor(lines.length * 0.7);
    writeFileSync(file, lines.slice(0, cut1).join(''));
    const lastDone = Math.max(...[...finishedAt].filter(([i]) => i < cut1).map(([, crank]) => crank));
    const nextCrank = Math.min(...[...finishedAt].filter(([i]) => i >= cut1).map(([, crank]) => crank));

    const run = start(['--follow', ...args, file]);
    try {
      await until(`crank ${lastDone}`, () => run.stdout().includes(`// crank ${lastDone}:`));
      // Read to its end: what has not ended is not printed yet, and nothing ended the run.
      const marks = await readThrough(run, file);
      expect(run.stdout()).not.toContain(`// crank ${nextCrank}:`);
      expect(run.child.exitCode).toBeNull();

      // The next piece stops in the middle of a line.
      const middle = lines.slice(cut1, cut2).join('');
      const half = lines[cut2] as string;
      appendFileSync(file, middle + half.slice(0, Math.floor(half.length / 2)));
      const lastInMiddle = Math.max(...[...finishedAt].filter(([i]) => i < cut2).map(([, crank]) => crank));
      await until(`crank ${lastInMiddle}`, () => run.stdout().includes(`// crank ${lastInMiddle}:`));

      appendFileSync(file, half.slice(Math.floor(half.length / 2)) + lines.slice(cut2 + 1).join(''));
      const last = Math.max(...finishedAt.values());
      await until(`crank ${last}`, () => run.stdout().includes(`// crank ${last}:`));
      // Read to its end: the end of the file is not the end of the slog.
      marks.push(...(await readThrough(run, file)));
      expect(run.stdout()).not.toContain('// end of slog');
      expect(run.child.exitCode).toBeNull();

      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
      // The test's marks (not JSON, skipped as any bad line), and nothing else.
      expect(run.stderr()).toBe(`${marks.join('\n')}\n`);
      expectSameText(run.stdout(), referenceText(slog, reference));
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 30_000);

  it('Ctrl-C inside a crank prints it as unfinished, as a render of the file as it stands', async () => {
    const { lines, finishedAt } = slogLines('b-local-5');
    // Stop just before some crank's crank-finish.
    const finishLine = [...finishedAt.keys()][Math.floor(finishedAt.size / 2)] as number;
    const file = join(dir, 'cut.slog');
    writeFileSync(file, lines.slice(0, finishLine).join(''));
    const run = start(['--follow', '--summarize', file]);
    try {
      await until('the first crank', () => run.stdout().includes('// crank '));
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(0);
      const plain = await runCli(['--summarize', file]);
      expect(plain.stdout).toContain(`// crank ${finishedAt.get(finishLine)}: `);
      expect(plain.stdout).toContain('(unfinished)');
      expectSameText(run.stdout(), plain.stdout);
    } finally {
      run.child.kill('SIGKILL');
    }
  }, 30_000);

  it('needs a file', async () => {
    const r = await runCli(['--follow', '-'], { stdin: readSlog('a-local-3') });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^slogulate: --follow needs one slog file/);
    const missing = await runCli(['--follow', join(dir, 'nope.slog')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`slogulate: ${join(dir, 'nope.slog')}: no such file\n`);
  });
});

describe('openFollow, in process', () => {
  /** Entries read, as `type:line` strings, from a followed file that `grow` appends to before stop. */
  async function follow(file: string, grow: () => void): Promise<{ types: string[]; source: ReturnType<typeof openFollow> }> {
    const source = openFollow(file, { pollMs: 20 });
    const types: string[] = [];
    const done = runPass({
      inputs: [file],
      reads: READ_ALL,
      settings: settingsFrom(),
      open: () => source,
      observe: (entry) => types.push(entry.type),
      sink: { entry: () => undefined, crank: () => undefined },
      onBadLine: (bad) => types.push(`bad:${bad.line}`),
    });
    // It reached the end of what is there, then the file grows, and it reads that too before stop().
    const size = (): number => statSync(file).size;
    await until('the end of the file', () => source.rawBytesRead() === size());
    grow();
    await until('what was appended', () => source.rawBytesRead() === size());
    source.stop();
    await done;
    return { types, source };
  }

  const expectedTypes = (text: string): string[] =>
    text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { type: string }).type);

  it('reads what is appended after it reached the end, and ends on stop()', async () => {
    const text = readSlog('a-xs-3').toString('utf8');
    const file = join(dir, 'grow.slog');
    const cut = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
    writeFileSync(file, text.slice(0, cut));
    const { types, source } = await follow(file, () => appendFileSync(file, text.slice(cut)));
    expect(types).toEqual(expectedTypes(text));
    expect(source.rawBytesRead()).toBe(Buffer.byteLength(text));
  });

  it('reads a gzipped file (stopping inside a gzip stream is not an error)', async () => {
    const text = readSlog('b-local-5').toString('utf8');
    const file = join(dir, 'grow.slog.gz');
    writeFileSync(file, gzipSync(text));
    const { types, source } = await follow(file, () => undefined);
    expect(source.gzipped).toBe(true);
    expect(types).toEqual(expectedTypes(text));
  });

  it('reads a file cut shorter from its start again', async () => {
    const text = readSlog('a-local-3').toString('utf8');
    const first = text.slice(0, text.indexOf('\n', 5000) + 1);
    const file = join(dir, 'rewritten.slog');
    writeFileSync(file, text);
    const notices: string[] = [];
    const source = openFollow(file, { pollMs: 20, onNotice: (m) => notices.push(m) });
    let count = 0;
    const done = runPass({
      inputs: [file],
      reads: READ_ALL,
      settings: settingsFrom(),
      open: () => source,
      observe: () => (count += 1),
      sink: { entry: () => undefined, crank: () => undefined },
    });
    const whole = expectedTypes(text).length;
    await until('the whole file', () => source.rawBytesRead() === Buffer.byteLength(text) && count === whole);
    writeFileSync(file, first);
    await until('the notice', () => notices.length > 0);
    await until('the shorter file read again', () => count === whole + expectedTypes(first).length);
    source.stop();
    await done;
    expect(notices[0]).toMatch(/file truncated; reading it again from the start/);
    expect(count).toBe(expectedTypes(text).length + expectedTypes(first).length);
  });

  it('a rotated file (renamed away, a new one created under the name): the rest of the old one, then the new one from its start', async () => {
    const text = readSlog('a-local-3').toString('utf8');
    const cut = (fraction: number): number => text.indexOf('\n', Math.floor(text.length * fraction)) + 1;
    const [a, b, c] = [cut(0.3), cut(0.6), cut(0.8)];
    const file = join(dir, 'rotated.slog');
    writeFileSync(file, text.slice(0, a));
    const notices: string[] = [];
    const source = openFollow(file, { pollMs: 20, onNotice: (m) => notices.push(m) });
    const types: string[] = [];
    const done = runPass({
      inputs: [file],
      reads: READ_ALL,
      settings: settingsFrom(),
      open: () => source,
      observe: (entry) => types.push(entry.type),
      sink: { entry: () => undefined, crank: () => undefined },
      onBadLine: (bad) => types.push(`bad:${bad.line}`),
    });
    await until('the first part', () => source.rawBytesRead() === a);
    // logrotate: the file is renamed away; the writer still appends to it until it reopens the name.
    renameSync(file, `${file}.1`);
    appendFileSync(`${file}.1`, text.slice(a, b));
    // It reads what the writer appended to the renamed file before the new one is there.
    await until('the rest of the renamed file', () => source.rawBytesRead() === b);
    writeFileSync(file, text.slice(b, c));
    await until('the notice', () => notices.length > 0);
    appendFileSync(file, text.slice(c));
    await until('the new file', () => source.rawBytesRead() === Buffer.byteLength(text.slice(b)));
    source.stop();
    await done;
    expect(notices).toEqual([`${file}: file replaced (rotated); reading the new file from its start`]);
    // Every entry once, in order: the old file's, then the new file's.
    expect(types).toEqual(expectedTypes(text));
  });
});
