/**
 * `--since TIME` and `--until TIME` (analyses/common/time-bounds.ts,
 * selection.ts, source/last-time.ts): the cranks whose crank-start time is
 * >= since and < until, on the real slogs, against a plain loop over their
 * JSON lines (each crank-start, its number, type and time; the slog's last
 * `time`). The render's crank headers, `top`'s ranked cranks and `stats`'
 * counts are compared with the loop's; the epoch, ISO (with and without a
 * zone) and duration forms of one time select the same cranks; with
 * `--cranks` (which seeks) the intersection, and the same as a read of
 * every line (SLOGULATE_SEEK=0). Bad values: one line, exit 2.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTimeBound } from '../src/analyses/common/time-bounds.js';
import { lastTimeOf } from '../src/source/last-time.js';
import { ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const A_LOCAL = slogPath('a-local-3');
const SHARED_A_LOCAL = join(ROOT, '..', 'shared', 'slogs', 'a-local-3.slog');
const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');

/** A crank-start by a plain loop: its number, type and time. */
interface Start {
  crankNum: number;
  crankType: string;
  time: number;
}

/** The slog's crank-starts in order, and its last time, by a plain loop over its lines. */
function facts(file: string): { starts: Start[]; lastTime: number } {
  const starts: Start[] = [];
  let lastTime = NaN;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof e.time === 'number') lastTime = e.time;
    if (e.type === 'crank-start') starts.push({ crankNum: e.crankNum as number, crankType: e.crankType as string, time: e.time as number });
  }
  return { starts, lastTime };
}

/** The crank numbers the loop selects, in slog order. */
function selected(starts: readonly Start[], since: number, until: number, cranks?: [number, number]): Start[] {
  return starts.filter((s) => s.time >= since && s.time < until && (cranks === undefined || (s.crankNum >= cranks[0] && s.crankNum <= cranks[1])));
}

/** The crank numbers of the render's headers, in order. */
function renderedCranks(text: string): number[] {
  return [...text.matchAll(/^\/\/ crank (\d+):/gm)].map((m) => Number(m[1]));
}

async function ok(args: string[], env?: Record<string, string | undefined>): Promise<string> {
  const r = await runMain(args, env ? { env } : {});
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

/** Checks the render, `top` and `stats` with `args` against the loop's `want`. */
async function checkAll(file: string, args: string[], want: readonly Start[], total: number): Promise<void> {
  expect(want.length).toBeGreaterThan(0);
  expect(renderedCranks(await ok([...args, file]))).toEqual(want.map((s) => s.crankNum));
  const delivery = want.filter((s) => s.crankType === 'delivery').map((s) => s.crankNum);
  const top = JSON.parse(await ok(['top', '--json', '--by', 'total', '-n', '100000', ...args, file])) as { ranked: number; rankings: Array<{ cranks: Array<{ crankNum: number }> }> };
  expect(top.ranked).toBe(delivery.length);
  expect(top.rankings[0]?.cranks.map((c) => c.crankNum).sort((a, b) => a - b)).toEqual([...delivery].sort((a, b) => a - b));
  const stats = JSON.parse(await ok(['stats', '--json', ...args, file])) as { cranks: { seen: number; selected: number; delivery: number; routing: number } };
  expect(stats.cranks).toMatchObject({ seen: total, selected: want.length, delivery: delivery.length, routing: want.filter((s) => s.crankType === 'routing').length });
}

/** A time between two crank-starts, to the millisecond: its epoch text and its ISO date (from Date, not slogulate). */
function msBetween(a: Start, b: Start): { seconds: number; epoch: string; iso: string } {
  const ms = Math.floor(((a.time + b.time) / 2) * 1000);
  return { seconds: ms / 1000, epoch: String(ms / 1000), iso: new Date(ms).toISOString() };
}

describe.each([
  ['a-local-3', SHARED_A_LOCAL],
  ['chain-A', CHAIN_A],
])('--since and --until on %s', (_name, file) => {
  const { starts, lastTime } = facts(file);
  const n = starts.length;
  const since = starts[Math.floor(n / 3)] as Start;
  const until = starts[Math.floor((2 * n) / 3)] as Start;

  it('a crank-start time itself is in --since and out of --until (epoch seconds)', async () => {
    const want = selected(starts, since.time, until.time);
    await checkAll(file, ['--since', String(since.time), '--until', String(until.time)], want, n);
    // The selection's words: the times as ISO dates.
    const stats = await ok(['stats', '--since', String(since.time), '--until', String(until.time), file]);
    expect(stats).toMatch(/^selection +cranks since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z until \d{4}-\d\d-\d\dT[\d:.]+Z$/m);
  });

  it('an ISO date, with a zone, without one (UTC) and with an offset, selects as its epoch seconds', async () => {
    const a = msBetween(starts[Math.floor(n / 4)] as Start, starts[Math.floor(n / 4) + 1] as Start);
    const b = msBetween(starts[Math.floor(n / 2)] as Start, starts[Math.floor(n / 2) + 1] as Start);
    const want = selected(starts, a.seconds, b.seconds);
    await checkAll(file, ['--since', a.iso, '--until', b.iso], want, n);
    const byEpoch = await ok(['--since', a.epoch, '--until', b.epoch, file]);
    expect(await ok(['--since', a.iso.replace(/Z$/, ''), '--until', b.iso.replace(/Z$/, ''), file])).toBe(byEpoch);
    // The same instant two hours east.
    const east = (iso: string): string => new Date(Date.parse(iso) + 2 * 3600e3).toISOString().replace(/Z$/, '+02:00');
    expect(await ok(['--since', east(a.iso), '--until', east(b.iso), file])).toBe(byEpoch);
    expect(renderedCranks(byEpoch)).toEqual(want.map((s) => s.crankNum));
  });

  it('a duration counts back from the slog\'s last time', async () => {
    const span = lastTime - (starts[0] as Start).time;
    const back = Math.max(1, Math.floor(span / 3));
    const want = selected(starts, lastTime - back, Infinity);
    await checkAll(file, ['--since', `${back}s`], want, n);
    const mixed = back >= 60 ? `${Math.floor(back / 60)}m${back % 60}s` : `${back}s`;
    expect(await ok(['--since', mixed, file])).toBe(await ok(['--since', `${back}s`, file]));
    const until = selected(starts, -Infinity, lastTime - back);
    await checkAll(file, ['--until', `${back}s`], until, n);
  });

  it('with --cranks: the intersection, the same seeking as reading every line', async () => {
    const range: [number, number] = [since.crankNum, (starts[Math.floor(n / 2)] as Start).crankNum];
    const cut = msBetween(starts[Math.floor((5 * n) / 12)] as Start, starts[Math.floor((5 * n) / 12) + 1] as Start);
    const want = selected(starts, cut.seconds, Infinity, range);
    const args = ['--cranks', `${range[0]}-${range[1]}`, '--since', cut.iso];
    await checkAll(file, args, want, n);
    for (const cmd of [[], ['top', '-n', '3']]) {
      expect(await ok([...cmd, ...args, file])).toBe(await ok([...cmd, ...args, file], { SLOGULATE_SEEK: '0' }));
    }
  });
});

describe('--since and --until: bad values', () => {
  it.each([
    [['--since', 'tomorrow']],
    [['--since', '1h30']],
    [['--until', '2026-02-30']],
    [['--until', '2026-11-20T25:00:00Z']],
    [['--since', '30m1h']],
    [['--since', '']],
    [['--since', '2s', '--until', '3s']],
    [['--since', '1795308043', '--until', '1795308042.5']],
    [['top', '--since', 'yesterday']],
    [['stats', '--until', '10 minutes']],
  ])('%j is a one-line usage error', async (args) => {
    const r = await runMain([...args, A_LOCAL]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^slogulate: --(since|until)[^\n]*\n$/);
  });

  it('a duration needs the slog\'s end: not stdin, not a big gzip without an index; compare takes times only', async () => {
    const gz = join(ROOT, '..', 'shared', 'slogs', 'big-local-1200.slog.gz');
    for (const [args, why] of [
      [['--since', '10m', gz], /big-local-1200\.slog\.gz is gzip of more than 8 MB without an index \(slogulate index makes one\): give a time instead$/m],
      [['--since', '10m', '-'], /not stdin/],
      [['compare', '--until', '1m', A_LOCAL, A_LOCAL], /not taken here/],
    ] as const) {
      const r = await runMain([...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr.split('\n')).toHaveLength(2);
    }
  });
});

describe('a duration on a per-block folder and on gzip files without an index', () => {
  const folder = join(ROOT, '..', 'shared', 'slogs', 'real', 'block-files-bot');
  const tmp = mkdtempSync(join(tmpdir(), 'slogulate-since-gz-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('a folder counts back from its last block file\'s last time', async () => {
    // The folder's slog by a plain loop: its files in the order block-slog named them (init, bootstrap, the blocks by height).
    const names = readdirSync(folder);
    const order = (n: string): number => (n.includes('_init_') ? -2 : n.includes('_bootstrap_') ? -1 : Number(/_block_(\d+)_/.exec(n)?.[1]));
    const whole = join(tmp, 'folder.slog');
    writeFileSync(whole, Buffer.concat(names.sort((a, b) => order(a) - order(b)).map((n) => gunzipSync(readFileSync(join(folder, n))))));
    const { starts, lastTime } = facts(whole);
    const back = Math.max(1, Math.floor((lastTime - (starts[0] as Start).time) / 3));
    await checkAll(folder, ['--since', `${back}s`], selected(starts, lastTime - back, Infinity), starts.length);
    await checkAll(folder, ['--until', `${back}s`], selected(starts, -Infinity, lastTime - back), starts.length);
    // The slog is named as it was given: the folder, not its first file and how many more.
    const slogRow = (await ok(['stats', '--since', `${back}s`, folder])).split('\n').find((l) => l.startsWith('slog '));
    expect(slogRow?.replace(/^slog +/, '')).toBe(folder);
  });

  it('a small gzip file is inflated whole for its end: one member, several, cut short; a big one is refused', async () => {
    const plain = readFileSync(CHAIN_A);
    const { lastTime } = facts(CHAIN_A);
    const one = join(tmp, 'chain-A.slog.gz');
    writeFileSync(one, gzipSync(plain));
    const half = plain.indexOf(10, plain.length >> 1) + 1;
    const two = join(tmp, 'two-members.slog.gz');
    writeFileSync(two, Buffer.concat([gzipSync(plain.subarray(0, half)), gzipSync(plain.subarray(half))]));
    expect(lastTimeOf(one)).toBe(lastTime);
    expect(lastTimeOf(two)).toBe(lastTime);
    // Cut in its second member: the end of what is there, as the pass reads it (a gzip cut short reads what it holds).
    const cut = join(tmp, 'cut.slog.gz');
    const twoBytes = readFileSync(two);
    writeFileSync(cut, twoBytes.subarray(0, twoBytes.length - 20_000));
    const cutEnd = lastTimeOf(cut);
    expect(typeof cutEnd).toBe('number');
    expect(cutEnd as number).toBeLessThan(lastTime);
    expect(cutEnd as number).toBeGreaterThan(facts(CHAIN_A).starts[0]?.time as number);
    // The render of a duration: the same as on the plain file.
    expect(await ok(['--since', '40s', one])).toBe(await ok(['--since', '40s', CHAIN_A]));
    expect(await ok(['top', '--until', '1m', two])).toBe(await ok(['top', '--until', '1m', CHAIN_A]));
    expect(lastTimeOf(one, 1000)).toEqual({ cannot: 'gzip of more than 1000 bytes without an index (slogulate index makes one)' });
  });
});

describe('--since and --until on a crank without its crank-start', () => {
  // mid-crank-start.slog begins inside a crank: that crank's time is its first entry's.
  const file = join(ROOT, '..', 'shared', 'slogs', 'real', 'mid-crank-start.slog');
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
  const firstStart = lines.findIndex((e) => e.type === 'crank-start');
  const headless = lines[0]?.crankNum as number;
  const firstTime = lines.find((e) => typeof e.time === 'number')?.time as number;
  const laterTime = lines.find((e) => typeof e.time === 'number' && e.time > firstTime)?.time as number;
  const startTime = lines[firstStart]?.time as number;

  it('is selected by its first entry\'s time', async () => {
    expect(firstStart).toBeGreaterThan(0);
    expect(lines.slice(0, firstStart).every((e) => e.crankNum === headless)).toBe(true);
    const until = JSON.parse(await ok(['stats', '--json', '--until', String(startTime), file])) as { cranks: { selected: number } };
    expect(until.cranks.selected).toBe(1);
    expect(renderedCranks(await ok(['--until', String(startTime), file]))).toEqual([headless]);
    expect(renderedCranks(await ok(['--since', String(firstTime), '--until', String(laterTime), file]))).toEqual([headless]);
    const none = await runMain(['--since', String(laterTime), '--until', String(startTime), file]);
    expect(renderedCranks(none.stdout)).toEqual([]);
    expect(none.stderr).toMatch(/: no cranks match cranks since \S+Z until \S+Z\n$/);
  });
});

describe('TIME forms and the slog\'s last time', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'slogulate-since-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('parses each form', () => {
    expect(parseTimeBound('1795308042.5')).toEqual({ at: 1795308042.5 });
    expect(parseTimeBound('2026-11-20T10:00:00Z')).toEqual({ at: Date.UTC(2026, 10, 20, 10) / 1000 });
    expect(parseTimeBound('2026-11-20T10:00')).toEqual({ at: Date.UTC(2026, 10, 20, 10) / 1000 });
    expect(parseTimeBound('2026-11-20')).toEqual({ at: Date.UTC(2026, 10, 20) / 1000 });
    expect(parseTimeBound('2026-11-20T12:00:00+02:00')).toEqual({ at: Date.UTC(2026, 10, 20, 10) / 1000 });
    expect(parseTimeBound('2026-11-20T10:00:00.25Z')).toEqual({ at: Date.UTC(2026, 10, 20, 10) / 1000 + 0.25 });
    expect(parseTimeBound('10m')).toEqual({ ago: 600 });
    expect(parseTimeBound('90s')).toEqual({ ago: 90 });
    expect(parseTimeBound('1h30m')).toEqual({ ago: 5400 });
    expect(parseTimeBound('1d2h')).toEqual({ ago: 93600 });
  });

  it('reads the last line with a time from the tail: a long last line without one, CRLF, no final newline', () => {
    const file = join(tmp, 'tail.slog');
    const long = JSON.stringify({ type: 'x', blob: 'y'.repeat(200_000) });
    writeFileSync(file, `{"type":"a","time":1.5}\r\n{"type":"b","time":2.25}\r\n${long}\r\n${long}`);
    expect(lastTimeOf(file)).toBe(2.25);
    const none = join(tmp, 'none.slog');
    writeFileSync(none, `${long}\n`);
    expect(lastTimeOf(none)).toBeUndefined();
    writeFileSync(none, `{"type":"a","time":1}\n${JSON.stringify({ type: 'c', blob: 'z'.repeat(150_000), time: 3.5 })}\n`);
    expect(lastTimeOf(none)).toBe(3.5);
    expect(lastTimeOf(tmp)).toEqual({ cannot: 'a folder' });
  });
});
