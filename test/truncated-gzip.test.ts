/**
 * Gzipped slogs cut short: the newest file of a live node's per-block folder
 * (CONTEXTUAL_BLOCK_SLOGS), a `.gz` copied while it was written. Every line
 * the gzip data held is read, its unfinished last line as a plain file's
 * truncated last line, with one warning naming the file, and reading goes
 * on with the next per-block file; the exit status is a plain file's with a
 * truncated last line (0; `--strict`: 1). The counts are checked against a
 * plain loop over what zlib can decode of each file. Bad bytes in the middle
 * stay an error. In process, but stdin and the exit statuses through
 * bin/slogulate.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { blockFile, folderFiles } from '../src/source/inputs.js';
import { readSlog, ROOT, runCli } from './helpers.js';
import { runInProcess } from './run-main.js';

const BLOCKS = join(ROOT, '..', 'shared', 'slogs', 'real', 'block-files-bot');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-truncated-gzip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WARNING = 'gzip data ends early (file truncated, or still being written)';

/** The folder's per-block files by name, in chain order (names are checked, not taken from slogulate's order). */
function blockNames(folder: string): string[] {
  return readdirSync(folder)
    .map((n) => ({ n, b: blockFile(n) }))
    .filter((x) => x.b !== undefined)
    .sort((x, y) => x.b!.kind - y.b!.kind || x.b!.height - y.b!.height || x.b!.stamp - y.b!.stamp)
    .map((x) => x.n);
}

/** A copy of the per-block folder, file `which` (a name, or the last one) cut to `fraction` of its bytes, `drop` files removed. */
function cutCopy(name: string, which: (names: string[]) => string, fraction: number, drop: string[] = []): { folder: string; cut: string } {
  const folder = join(dir, name);
  cpSync(BLOCKS, folder, { recursive: true });
  for (const n of drop) unlinkSync(join(folder, n));
  const cut = join(folder, which(blockNames(folder)));
  const bytes = readFileSync(cut);
  writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return { folder, cut };
}

/** What zlib can decode of a gzip file, whole or cut (the independent reading). */
const decoded = (file: string): string => gunzipSync(readFileSync(file), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');

/** A file's lines as a plain file has them: whole lines, and an unterminated last one only if it is JSON. */
function fileFacts(file: string): { entries: Array<Record<string, any>>; whole: number; rest: string } {
  const pieces = decoded(file).split('\n');
  const rest = pieces.pop() as string;
  const entries = pieces.filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, any>);
  try {
    if (rest.trim()) entries.push(JSON.parse(rest) as Record<string, any>);
  } catch {
    // Cut in its middle: skipped, as a plain file's truncated last line.
  }
  return { entries, whole: pieces.length, rest };
}

interface Counts {
  cranks: number;
  unfinished: number;
  deliveries: number;
  syscalls: number;
  computrons: number;
  /** The time of the slog's last entry. */
  lastTime: number;
}

/** The plain loop: what stats --json counts, over a folder's files in chain order. */
function expectedCounts(folder: string): Counts {
  const entries = blockNames(folder).flatMap((n) => fileFacts(join(folder, n)).entries);
  const finished = new Set(entries.filter((e) => e.type === 'crank-finish').map((e) => e.crankNum as number));
  const starts = entries.filter((e) => e.type === 'crank-start');
  // A delivery is a deliver and its deliver-result (one cut off before its result is not counted).
  let deliveries = 0;
  let pending = false;
  for (const e of entries) {
    if (e.replay === true) continue;
    if (e.type === 'crank-start') pending = false;
    if (e.type === 'deliver') pending = true;
    if (e.type === 'deliver-result' && pending) {
      deliveries += 1;
      pending = false;
    }
  }
  let computrons = 0;
  for (const e of entries) {
    const usage = e.type === 'deliver-result' ? (e.dr as unknown[] | undefined)?.[2] : undefined;
    if (typeof (usage as { compute?: unknown } | undefined)?.compute === 'number') computrons += (usage as { compute: number }).compute;
  }
  const times = entries.map((e) => e.time).filter((t): t is number => typeof t === 'number');
  return {
    cranks: starts.length,
    unfinished: starts.filter((e) => !finished.has(e.crankNum as number)).length,
    deliveries,
    syscalls: entries.filter((e) => e.type === 'syscall' && e.replay !== true).length,
    computrons,
    lastTime: times[times.length - 1] as number,
  };
}

interface StatsJson {
  cranks: { seen: number; unfinished: number };
  deliveries: { count: number };
  syscalls: { count: number; unanswered: number };
  computrons?: number;
  slogSpan: { last: number };
}

const countsOf = (json: StatsJson): Counts => ({
  cranks: json.cranks.seen,
  unfinished: json.cranks.unfinished,
  deliveries: json.deliveries.count,
  syscalls: json.syscalls.count + json.syscalls.unanswered,
  computrons: json.computrons ?? 0,
  lastTime: json.slogSpan.last,
});

/** The stderr a cut file gives: its unfinished last line as a plain file's (when not JSON), then the one warning. */
function expectedStderr(file: string, shownAs = file): string {
  const { whole, rest } = fileFacts(file);
  let lines = '';
  if (rest.trim()) {
    try {
      JSON.parse(rest);
    } catch (err) {
      lines += `slogulate: ${shownAs}:${whole + 1}: truncated last line (no newline at end): ${(err as Error).message}\n`;
    }
  }
  const upTo = whole > 0 ? `read up to line ${whole}` : 'no whole line in it';
  return `${lines}slogulate: ${shownAs}:${whole + 1}: ${WARNING}: ${upTo}\n`;
}

const noStack = (stderr: string): void => expect(stderr).not.toMatch(/^\s+at |Error:|not valid gzip data/m);

describe('a per-block folder whose newest file is cut short (a live node)', () => {
  const uncut = expectedCounts(BLOCKS);
  const live = cutCopy('live', (names) => names[names.length - 1] as string, 2 / 3);

  it('the plain loop counts the uncut folder as stats --json does', async () => {
    const r = await runInProcess(['stats', '--json', BLOCKS]);
    expect(r.stderr).toBe('');
    expect(countsOf(JSON.parse(r.stdout) as StatsJson)).toEqual(uncut);
  });

  it('stats --json: the counts of what the files hold, one warning, exit 0', async () => {
    expect(live.cut).toMatch(/slogfile_block_4_\d+\.gz$/);
    const r = await runInProcess(['stats', '--json', live.folder]);
    expect(r.stderr).toBe(expectedStderr(live.cut));
    noStack(r.stderr);
    expect(r.status).toBe(0);
    const expected = expectedCounts(live.folder);
    expect(countsOf(JSON.parse(r.stdout) as StatsJson)).toEqual(expected);
    // The cut took block 4's last lines (no crank in it): the counts are the uncut folder's, not its end.
    expect({ ...expected, lastTime: 0 }).toEqual({ ...uncut, lastTime: 0 });
    expect(expected.lastTime).toBeLessThan(uncut.lastTime);
  });

  it('stats and top in text, blocks: their output, the same warning, exit 0', async () => {
    for (const command of ['stats', 'top', 'blocks']) {
      const r = await runInProcess([command, live.folder]);
      expect(r.stderr, command).toBe(expectedStderr(live.cut));
      expect(r.status, command).toBe(0);
      expect(r.stdout, command).not.toBe('');
    }
  });

  it('the render: exit 0, and 1 with --strict, as a plain slog whose last line is cut short', async () => {
    const plainCut = join(dir, 'plain-cut.slog');
    const text = readSlog('a-local-3');
    writeFileSync(plainCut, text.subarray(0, text.length - 50));
    for (const input of [live.folder, plainCut]) {
      const r = await runInProcess([input]);
      expect(r.status, input).toBe(0);
      expect(r.stderr, input).not.toBe('');
      const strict = await runInProcess(['--strict', input]);
      expect(strict.status, input).toBe(1);
      expect(strict.stdout, input).toBe(r.stdout);
    }
  });
});

describe('a per-block folder cut short in a file with cranks', () => {
  it('while block 2 was being written: its whole lines counted, the crank it ends in unfinished', async () => {
    const writing = cutCopy('writing', (names) => names.find((n) => n.startsWith('slogfile_block_2_')) as string, 0.6, blockNames(BLOCKS).filter((n) => /^slogfile_block_[34]_/.test(n)));
    expect(folderFiles(writing.folder).map((f) => f.replace(`${writing.folder}/`, '').replace(/_\d+\.gz$/, ''))).toEqual(['slogfile_init', 'slogfile_bootstrap', 'slogfile_block_2']);
    const r = await runInProcess(['stats', '--json', writing.folder]);
    expect(r.stderr).toBe(expectedStderr(writing.cut));
    expect(r.status).toBe(0);
    const expected = expectedCounts(writing.folder);
    const counts = countsOf(JSON.parse(r.stdout) as StatsJson);
    expect({ ...counts, lastTime: 0 }).toEqual({ ...expected, lastTime: 0 });
    // Not the uncut folder's: the cut took deliveries away.
    expect(expected.deliveries).toBeGreaterThan(0);
    expect(expected.deliveries).toBeLessThan(expectedCounts(BLOCKS).deliveries);
  });

  it('a copy made mid-write, cut in block 2 with blocks 3 and 4 after it: reading goes on with them', async () => {
    const middle = cutCopy('middle', (names) => names.find((n) => n.startsWith('slogfile_block_2_')) as string, 0.5);
    const r = await runInProcess(['stats', '--json', middle.folder]);
    expect(r.stderr).toBe(expectedStderr(middle.cut));
    expect(r.status).toBe(0);
    const counts = countsOf(JSON.parse(r.stdout) as StatsJson);
    const expected = expectedCounts(middle.folder);
    expect({ ...counts, lastTime: 0 }).toEqual({ ...expected, lastTime: 0 });
    // Blocks 3 and 4 were read: the slog ends where the uncut one does.
    expect(counts.lastTime).toBe(expectedCounts(BLOCKS).lastTime);
  });
});

describe('one gzipped slog cut short', () => {
  const plain = readSlog('a-local-3');
  const cut = gzipSync(plain).subarray(0, 100_000);
  const file = join(dir, 'cut.slog.gz');
  writeFileSync(file, cut);
  // The same bytes as a plain file: what the cut .gz must read as.
  const prefix = join(dir, 'prefix.slog');
  writeFileSync(prefix, gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }));
  const plainStderr = (r: { stderr: string }, name: string): string => r.stderr.replaceAll(prefix, name);
  const jsonWithout = (stdout: string): unknown => ({ ...(JSON.parse(stdout) as object), slog: undefined });

  it('as a file: the render, stats and top are the plain prefix\'s, and one warning more', async () => {
    for (const args of [[], ['--nonoise', '--timing'], ['stats'], ['top']]) {
      const [gz, txt] = [await runInProcess([...args, file]), await runInProcess([...args, prefix])];
      expect(gz.stdout.replaceAll(file, prefix), args.join(' ')).toBe(txt.stdout);
      expect(gz.stderr, args.join(' ')).toBe(`${plainStderr(txt, file)}${expectedStderr(file).split('\n').at(-2)}\n`);
      expect(gz.stderr).toBe(expectedStderr(file));
      expect(gz.status).toBe(0);
    }
  });

  it('from stdin, through bin/slogulate: stats, top and the render; --strict exits 1; no stack trace', async () => {
    const stats = await runCli(['stats', '--json', '-'], { stdin: cut });
    expect(stats.stderr).toBe(expectedStderr(file, '<stdin>'));
    expect(stats.status).toBe(0);
    expect(jsonWithout(stats.stdout)).toEqual(jsonWithout((await runInProcess(['stats', '--json', prefix])).stdout));
    const top = await runCli(['top', '-'], { stdin: cut });
    expect(top.status).toBe(0);
    expect(top.stdout).toBe((await runInProcess(['top', prefix])).stdout.replaceAll(prefix, '<stdin>'));
    const render = await runCli(['-'], { stdin: cut });
    expect(render.status).toBe(0);
    expect(render.stdout).toBe((await runInProcess([prefix])).stdout);
    expect(render.stderr).toBe(expectedStderr(file, '<stdin>'));
    const strict = await runCli(['--strict', '-'], { stdin: cut });
    expect(strict.status).toBe(1);
    expect(strict.stderr).toBe(render.stderr);
    noStack(strict.stderr);
    const file1 = await runCli(['stats', file]);
    expect(file1.status).toBe(0);
    expect(file1.stderr).toBe(expectedStderr(file));
  });

  it('bad bytes in the middle are no truncation: still an error, exit 1', async () => {
    const bad = Buffer.from(gzipSync(plain));
    for (let i = 0; i < 64; i += 1) bad[(bad.length >> 1) + i] = (i * 37) & 0xff;
    const corrupt = join(dir, 'corrupt.slog.gz');
    writeFileSync(corrupt, bad);
    const r = await runInProcess(['stats', corrupt]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^slogulate: ${corrupt.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid gzip data \\([^)]+\\)\\n$`, 'm'));
    expect(r.stderr).not.toContain(WARNING);
  });
});
