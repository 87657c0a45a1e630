/**
 * Seeking (source/seek.ts, run/pass-seek.ts): a selection of cranks or
 * blocks reads only its bytes of a plain file, and prints what a read of
 * every byte prints (SLOGULATE_SEEK=0's settings: `seek: false`), for the
 * render, `top` and `stats` (which reads every byte: it prints whole-slog
 * figures); where it cannot be sure (a restart before the range, a crank
 * begun before it, a bad line in it, a crank run again without its kernel
 * start) it is refused and the whole file is read. The range a seek reads
 * is checked against a plain loop over the slog's lines, and so is how few
 * lines the pass then read.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SelectionSpec } from '../src/analyses/common/selection.js';
import { statsOf, topOf } from '../src/run/analyses.js';
import type { BadLineReport } from '../src/run/pass.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { renderSlog } from '../src/run/render.js';
import { planSeek, type SeekPlan, type SeekRange } from '../src/source/seek.js';
import { expectSameText, ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';
import { afterRestart, expectedRange as rangeIn, isPlan, placed as placedIn, SEEK, WHOLE, type Placed } from './seek-oracle.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const RESTART = join(REAL, 'restart-replay.slog');
const MID_CRANK = join(REAL, 'mid-crank-start.slog');
const BIG_LINE = settingsFrom().bigLineBytes;

/** The plain loop's lines (test/seek-oracle.ts) of the slog at `file`. */
const placed = (file: string): Placed[] => placedIn(readFileSync(file));
/** The plain loop's range (test/seek-oracle.ts) of a selection of the slog at `file`. */
const expectedRange = (file: string, range: SeekRange): { start: number; end: number } => rangeIn(readFileSync(file), range);

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-seek-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Render (two option sets), top and stats, seeking and reading every byte: the same text, figures and bad lines. */
async function expectSame(file: string, selection: SelectionSpec): Promise<{ seek: unknown; selected: number }> {
  const bad = { seek: [] as BadLineReport[], whole: [] as BadLineReport[] };
  let seek: unknown;
  let selected = 0;
  for (const options of [{}, { timing: true, parts: true }]) {
    const a = await renderSlog({ inputs: [file], selection, options, settings: SEEK, onBadLine: (b) => bad.seek.push(b) });
    const b = await renderSlog({ inputs: [file], selection, options, settings: WHOLE, onBadLine: (b) => bad.whole.push(b) });
    expectSameText(a.text, b.text, `render ${JSON.stringify(options)}`);
    expect(a.selected).toBe(b.selected);
    expect(b.seek).toBeUndefined();
    seek = a.seek;
    selected = b.selected;
  }
  const ta = await topOf({ inputs: [file], selection, n: 5, settings: SEEK });
  const tb = await topOf({ inputs: [file], selection, n: 5, settings: WHOLE });
  expect(JSON.stringify(ta.top)).toBe(JSON.stringify(tb.top));
  expect(ta.cranksSelected).toBe(tb.cranksSelected);
  expect(isPlan(ta.pass.seek)).toBe(isPlan(seek));
  const sa = await statsOf({ inputs: [file], selection, settings: SEEK });
  const sb = await statsOf({ inputs: [file], selection, settings: WHOLE });
  expect(JSON.stringify(sa.aggregate)).toBe(JSON.stringify(sb.aggregate));
  // stats prints figures of the whole slog: it never seeks.
  expect(sa.pass.seek).toBeUndefined();
  return { seek, selected: bad.seek.length === bad.whole.length ? selected : -1 };
}

const cranks = (from: number, to: number): SelectionSpec => ({ cranks: [{ from, to }] });
const blocks = (from: number, to: number): SelectionSpec => ({ blocks: [{ from, to }] });

describe('a seek reads the range a plain loop finds, and prints what the whole read prints', () => {
  const seeking: Array<[string, string, SelectionSpec, SeekRange]> = [
    ['a-local-3', slogPath('a-local-3'), cranks(100, 110), { key: 'crankNum', from: 100, to: 110 }],
    ['a-local-3', slogPath('a-local-3'), cranks(250, Infinity), { key: 'crankNum', from: 250, to: Infinity }],
    ['a-local-3', slogPath('a-local-3'), cranks(5, 5), { key: 'crankNum', from: 5, to: 5 }],
    ['a-local-3 (past its end)', slogPath('a-local-3'), cranks(1000, 2000), { key: 'crankNum', from: 1000, to: 2000 }],
    ['b-local-5', slogPath('b-local-5'), cranks(40, 45), { key: 'crankNum', from: 40, to: 45 }],
    ['a-xs-3', slogPath('a-xs-3'), cranks(30, 31), { key: 'crankNum', from: 30, to: 31 }],
    ['chain-A blocks', CHAIN_A, blocks(100, 102), { key: 'blockHeight', from: 100, to: 102 }],
    ['chain-A one block', CHAIN_A, blocks(150, 150), { key: 'blockHeight', from: 150, to: 150 }],
    ['chain-A cranks', CHAIN_A, cranks(1500, 1510), { key: 'crankNum', from: 1500, to: 1510 }],
    ['restart-replay, after the restart', RESTART, cranks(60, 70), { key: 'crankNum', from: 60, to: 70 }],
    ['chain-A, the first cranks after its restart', CHAIN_A, cranks(1090, 1092), { key: 'crankNum', from: 1090, to: 1092 }],
    ['mid-crank-start', MID_CRANK, cranks(50, 55), { key: 'crankNum', from: 50, to: 55 }],
  ];
  for (const [name, file, selection, range] of seeking) {
    it(`${name}: ${JSON.stringify(range)}`, async () => {
      const plan = planSeek(file, range, BIG_LINE);
      expect(plan).toMatchObject(expectedRange(file, range));
      const { seek, selected } = await expectSame(file, selection);
      expect(isPlan(seek)).toBe(true);
      expect(selected).toBeGreaterThanOrEqual(0);
    });
  }

  it('a slog that starts inside a crank, selected from its first crank: read from its head', async () => {
    const plan = planSeek(MID_CRANK, { key: 'crankNum', from: 11, to: 11 }, BIG_LINE);
    expect(plan).toMatchObject({ start: 0 });
    // Its first crank has no crank-start: it is the one the slog started inside.
    expect(placed(MID_CRANK).find((l) => typeof l.e.crankNum === 'number')?.e.type).not.toBe('crank-start');
    const { seek, selected } = await expectSame(MID_CRANK, cranks(11, 11));
    expect(isPlan(seek)).toBe(true);
    expect(selected).toBe(1);
  });
});

describe('--cranks with --blocks: seeks by the blocks (a crank\'s block is known from its begin-block)', () => {
  it('chain-A --blocks 150-152 --cranks 1900-1950: the cranks of both, as the whole read selects them', async () => {
    const selection: SelectionSpec = { blocks: [{ from: 150, to: 152 }], cranks: [{ from: 1900, to: 1950 }] };
    const { seek, selected } = await expectSame(CHAIN_A, selection);
    expect(seek).toMatchObject(expectedRange(CHAIN_A, { key: 'blockHeight', from: 150, to: 152 }));
    // By a plain loop: the crank-starts between begin-block 150 and end-block-finish 152 numbered 1900-1950.
    let block: number | undefined;
    let want = 0;
    for (const l of placed(CHAIN_A)) {
      if (l.e.type === 'cosmic-swingset-begin-block') block = l.e.blockHeight as number;
      if (l.e.type === 'cosmic-swingset-end-block-finish') block = undefined;
      const n = l.e.crankNum as number;
      if (l.e.type === 'crank-start' && block !== undefined && block >= 150 && block <= 152 && n >= 1900 && n <= 1950) want += 1;
    }
    expect(selected).toBe(want);
  }, 60_000);
});

describe('at every crank boundary of a sample: the range a plain loop finds', () => {
  /** The crank numbers of a slog's crank-starts after its last kernel start, by a plain loop. */
  const crankNums = (file: string): number[] => {
    const lines = placed(file);
    const starts = lines.filter((l) => l.e.type === 'kernel-init-start');
    const floor = starts.length > 1 ? (starts[starts.length - 1] as Placed).at : 0;
    const before = lines.filter((l) => l.at < floor && l.e.type === 'crank-start').map((l) => l.e.crankNum as number);
    const ran = Math.max(-1, ...before);
    return lines.filter((l) => l.at >= floor && l.e.type === 'crank-start' && (l.e.crankNum as number) > ran).map((l) => l.e.crankNum as number);
  };

  for (const [name, file, every] of [
    ['a-local-3, every 3rd crank', slogPath('a-local-3'), 3],
    ['b-local-5, every 7th crank', slogPath('b-local-5'), 7],
    ['chain-A after its restart, every 71st crank', CHAIN_A, 71],
    ['restart-replay after its restart, every 4th crank', RESTART, 4],
  ] as const) {
    it(name, () => {
      const nums = crankNums(file).filter((_, i) => i % every === 0);
      expect(nums.length).toBeGreaterThan(10);
      for (const n of nums) {
        const range: SeekRange = { key: 'crankNum', from: n, to: n + 1 };
        const plan = planSeek(file, range, BIG_LINE);
        expect(plan, `${name}: cranks ${n}-${n + 1}`).toMatchObject(expectedRange(file, range));
      }
    });
  }

  it('chain-A after its restart, every 14th block: the range, and the render and top the same', async () => {
    const sample = afterRestart(placed(CHAIN_A), 'cosmic-swingset-begin-block', 'blockHeight').filter((_, i) => i % 14 === 0);
    expect(sample.length).toBeGreaterThan(5);
    for (const h of sample) {
      const range: SeekRange = { key: 'blockHeight', from: h, to: h };
      expect(planSeek(CHAIN_A, range, BIG_LINE), `block ${h}`).toMatchObject(expectedRange(CHAIN_A, range));
    }
    for (const h of sample.slice(0, 3)) {
      const { seek } = await expectSame(CHAIN_A, blocks(h, h));
      expect(isPlan(seek)).toBe(true);
    }
    // Each sample reads chain-A twice over (the plan, the loop's range): some 10 s a sample on two loaded cores.
  }, 180_000);
});

describe('a seek is refused where it cannot be sure, and the whole file is read', () => {
  it('cranks and blocks that ran before a restart: run again after it, marked so', async () => {
    const restart = await renderSlog({ inputs: [RESTART], selection: cranks(45, 50), settings: WHOLE });
    expect(restart.text).toContain('(again after restart)');
    for (const [file, selection, range] of [
      [RESTART, cranks(45, 50), { key: 'crankNum', from: 45, to: 50 }],
      [RESTART, cranks(5, 8), { key: 'crankNum', from: 5, to: 8 }],
      [CHAIN_A, blocks(50, 52), { key: 'blockHeight', from: 50, to: 52 }],
      [CHAIN_A, cranks(500, 510), { key: 'crankNum', from: 500, to: 510 }],
    ] as const) {
      expect(planSeek(file, range, BIG_LINE)).toMatchObject({ refused: expect.stringContaining('before a restart') });
      const { seek } = await expectSame(file, selection);
      expect(seek).toMatchObject({ refused: expect.stringContaining('before a restart') });
    }
  });

  const lines = readFileSync(slogPath('a-local-3'), 'utf8').split('\n');
  const index = (pred: (e: Record<string, unknown>) => boolean): number => lines.findIndex((l) => l !== '' && pred(JSON.parse(l) as Record<string, unknown>));
  const made = (name: string, text: string): string => {
    const file = join(tmp, name);
    writeFileSync(file, text);
    return file;
  };

  it('a bad line inside the range: refused, reported with its line number as the whole read does', async () => {
    const at = index((e) => e.type === 'deliver' && e.crankNum === 105);
    const file = made('bad-inside.slog', [...lines.slice(0, at), '{"type":"deliver", cut short', ...lines.slice(at)].join('\n'));
    expect(planSeek(file, { key: 'crankNum', from: 100, to: 110 }, BIG_LINE)).toMatchObject({ refused: expect.stringContaining('not a slog entry') });
    const { seek, selected } = await expectSame(file, cranks(100, 110));
    expect(seek).toMatchObject({ refused: expect.any(String) });
    expect(selected).toBe(11);
  });

  it('a bad line outside the range: the seek does not read it, so does not report it; --strict reads every line and does', async () => {
    const at = index((e) => e.type === 'deliver' && e.crankNum === 20);
    const file = made('bad-outside.slog', [...lines.slice(0, at), 'not json at all', ...lines.slice(at)].join('\n'));
    const bad = { seek: [] as BadLineReport[], whole: [] as BadLineReport[] };
    const a = await renderSlog({ inputs: [file], selection: cranks(100, 110), settings: SEEK, onBadLine: (b) => bad.seek.push(b) });
    const b = await renderSlog({ inputs: [file], selection: cranks(100, 110), settings: WHOLE, onBadLine: (b) => bad.whole.push(b) });
    expect(isPlan(a.seek)).toBe(true);
    expectSameText(a.text, b.text);
    expect(bad.seek).toEqual([]);
    expect(bad.whole).toEqual([{ source: file, line: at + 1, why: expect.stringContaining('not JSON') }]);
    const strict = await runMain(['--strict', '--cranks', '100-110', file]);
    expect(strict.status).toBe(1);
    expect(strict.stderr).toContain(`${file}:${at + 1}: not JSON`);
    expect(strict.stdout).toBe(b.text);
  });

  it('a crank whose crank-start is lost, where the range would begin: refused', async () => {
    const at = index((e) => e.type === 'crank-start' && e.crankNum === 105);
    const file = made('no-start.slog', [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n'));
    expect(planSeek(file, { key: 'crankNum', from: 105, to: 107 }, BIG_LINE)).toMatchObject({ refused: expect.stringContaining('no crank-start') });
    const { seek } = await expectSame(file, cranks(105, 107));
    expect(seek).toMatchObject({ refused: expect.any(String) });
  });

  it('a slog joined to itself without its kernel start (its cranks run twice, unmarked): refused, both printed', async () => {
    const body = lines.filter((l) => l !== '' && !l.includes('"kernel-init-start"'));
    const file = made('twice.slog', `${[...body, ...body].join('\n')}\n`);
    expect(planSeek(file, { key: 'crankNum', from: 100, to: 110 }, BIG_LINE)).toMatchObject({ refused: expect.any(String) });
    const whole = await renderSlog({ inputs: [file], selection: cranks(100, 110), settings: WHOLE });
    expect(whole.selected).toBe(22);
    const { seek } = await expectSame(file, cranks(100, 110));
    expect(seek).toMatchObject({ refused: expect.any(String) });
  });

  it('gzip, stdin, several files, --nonoise and --summarize: no seek', async () => {
    const { gzipSync } = await import('node:zlib');
    const gz = made('a.slog.gz', '');
    writeFileSync(gz, gzipSync(readFileSync(slogPath('a-local-3'))));
    expect(planSeek(gz, { key: 'crankNum', from: 100, to: 110 }, BIG_LINE)).toEqual({ refused: 'gzip' });
    const two = await renderSlog({ inputs: [slogPath('a-local-3'), slogPath('b-local-5')], selection: cranks(100, 110), settings: SEEK });
    expect(two.seek).toEqual({ refused: 'not one file' });
    for (const options of [{ nonoise: true }, { summarize: true }]) {
      const r = await renderSlog({ inputs: [CHAIN_A], selection: blocks(100, 102), options, settings: SEEK });
      expect(r.seek).toBeUndefined();
    }
  });
});

describe('a seek reads few bytes', () => {
  it('chain-A --cranks 1500-1510: the pass reads the lines of those cranks only; what else is read to find them is counted', async () => {
    const range: SeekRange = { key: 'crankNum', from: 1500, to: 1510 };
    const r = await renderSlog({ inputs: [CHAIN_A], selection: cranks(1500, 1510), settings: SEEK });
    const plan = r.seek as SeekPlan;
    expect(isPlan(plan)).toBe(true);
    const { start, end } = expectedRange(CHAIN_A, range);
    const all = placed(CHAIN_A);
    const inRange = all.filter((l) => l.at >= start && l.at < end).length;
    // The lines read: those of the range, and the prelude's (lines that name vats: learned, not printed).
    expect(r.lines).toBe(inRange);
    expect(r.lines).toBeLessThan(all.length / 100);
    // Parsed besides the range: the probes and the lines that name vats, a small share of the file.
    expect(plan.probed).toBeLessThan(plan.size / 5);
    // The byte search (no parsing) goes over every byte: restarts and vat names can be anywhere.
    expect(plan.searched).toBeGreaterThanOrEqual(plan.size);
  });
});

/** The crank-starts after a slog's last kernel start, by a plain loop: where, number, time; and whether the slog has one kernel run. */
function startsAfterFloor(file: string): { starts: Array<{ at: number; crankNum: number; time: number }>; oneRun: boolean; before: number[] } {
  const lines = placed(file);
  const kernel = lines.filter((l) => l.e.type === 'kernel-init-start');
  const floor = kernel.length > 1 ? (kernel[kernel.length - 1] as Placed).at : 0;
  const starts = lines.filter((l) => l.at >= floor && l.e.type === 'crank-start').map((l) => ({ at: l.at, crankNum: l.e.crankNum as number, time: l.e.time as number }));
  const before = lines.filter((l) => l.at < floor && l.e.type === 'crank-start').map((l) => l.e.time as number);
  return { starts, oneRun: floor === 0, before };
}

/** What a time seek must read, by the plain loop: from the first crank-start at or after `from` (the head, when it is the slog's first) to the first at or after `to`. */
function expectedTimeRange(file: string, from: number, to: number): { start: number; end: number } {
  const { starts, oneRun } = startsAfterFloor(file);
  const size = readFileSync(file).length;
  const first = starts.findIndex((s) => s.time >= from);
  if (first < 0) return { start: size, end: size };
  const last = starts.find((s) => s.time >= to);
  return { start: first === 0 && oneRun ? 0 : (starts[first] as { at: number }).at, end: last?.at ?? size };
}

const times = (since: number | undefined, until: number | undefined): SelectionSpec => ({ ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) });

describe('--since and --until seek: the range a plain loop finds at crank boundaries, and the same output', () => {
  for (const [name, file, every] of [
    ['a-local-3, every 5th crank', slogPath('a-local-3'), 5],
    ['b-local-5, every 9th crank', slogPath('b-local-5'), 9],
    ['chain-A after its restart, every 61st crank', CHAIN_A, 61],
    ['restart-replay after its restart, every 4th crank', RESTART, 4],
    ['mid-crank-start, every 6th crank', MID_CRANK, 6],
  ] as const) {
    it(`${name}: since a crank-start's time, until the time of the third after`, async () => {
      const { starts, before } = startsAfterFloor(file);
      const lastBefore = Math.max(-Infinity, ...before);
      const sample = starts.filter((s, i) => i % every === 0 && i + 3 < starts.length && s.time > lastBefore);
      expect(sample.length).toBeGreaterThan(5);
      const planned: Array<{ since: number; until: number }> = [];
      for (const s of sample) {
        const i = starts.indexOf(s);
        const range: SeekRange = { key: 'time', from: s.time, to: (starts[i + 3] as { time: number }).time };
        const plan = planSeek(file, range, BIG_LINE);
        if (isPlan(plan)) {
          planned.push({ since: range.from, until: range.to });
          expect(plan, `${name}: ${JSON.stringify(range)}`).toMatchObject(expectedTimeRange(file, range.from, range.to));
        } else {
          // Refused only where a crank of the range ran before a restart (its number at or below one run before), or the range is big.
          expect(plan, `${name}: ${JSON.stringify(range)}`).toMatchObject({ refused: expect.stringMatching(/before a restart|more than a quarter/) });
        }
      }
      expect(planned.length).toBeGreaterThan(sample.length / 2);
      for (const { since, until } of planned.slice(1, 3)) {
        const { seek } = await expectSame(file, times(since, until));
        expect(isPlan(seek), name).toBe(true);
      }
    }, 180_000);
  }

  it('times between crank-starts, --since alone and --until alone', async () => {
    const { starts } = startsAfterFloor(CHAIN_A);
    const mid = starts[Math.floor(starts.length * 0.9)] as { time: number };
    const next = starts[Math.floor(starts.length * 0.9) + 1] as { time: number };
    const between = (mid.time + next.time) / 2;
    const since = planSeek(CHAIN_A, { key: 'time', from: between, to: Infinity }, BIG_LINE);
    expect(since).toMatchObject(expectedTimeRange(CHAIN_A, between, Infinity));
    expect((await expectSame(CHAIN_A, times(between, undefined))).seek).toMatchObject({ start: expect.any(Number) });
    const local = startsAfterFloor(slogPath('a-local-3')).starts;
    const early = ((local[10] as { time: number }).time + (local[11] as { time: number }).time) / 2;
    expect(planSeek(slogPath('a-local-3'), { key: 'time', from: -Infinity, to: early }, BIG_LINE)).toMatchObject({ ...expectedTimeRange(slogPath('a-local-3'), -Infinity, early), start: 0 });
    const { seek, selected } = await expectSame(slogPath('a-local-3'), times(undefined, early));
    expect(isPlan(seek)).toBe(true);
    expect(selected).toBe(11);
  });

  it('a slog that starts inside a crank, from its first crank-start: read from its head (the crank begun before is selected by its first entry\'s time)', async () => {
    const { starts } = startsAfterFloor(MID_CRANK);
    const from = (starts[0] as { time: number }).time - 1000;
    const to = (starts[1] as { time: number }).time;
    expect(planSeek(MID_CRANK, { key: 'time', from, to }, BIG_LINE)).toMatchObject({ start: 0 });
    const whole = await renderSlog({ inputs: [MID_CRANK], selection: times(from, to), settings: WHOLE });
    expect(whole.text).toContain('(started before the slog)');
    expect(isPlan((await expectSame(MID_CRANK, times(from, to))).seek)).toBe(true);
  });

  it('restart-replay: times before its restart are refused (the whole read selects both runs of a crank), after it seek', async () => {
    const { starts, before } = startsAfterFloor(RESTART);
    const early = before[Math.floor(before.length / 2)] as number;
    expect(planSeek(RESTART, { key: 'time', from: early, to: Infinity }, BIG_LINE)).toMatchObject({ refused: expect.stringContaining('before a restart') });
    const { seek } = await expectSame(RESTART, times(early, undefined));
    expect(seek).toMatchObject({ refused: expect.any(String) });
    const late = (starts[starts.length - 10] as { time: number }).time;
    expect(isPlan((await expectSame(RESTART, times(late, undefined))).seek)).toBe(true);
  });

  const lines = readFileSync(slogPath('a-local-3'), 'utf8').split('\n');
  const at = (pred: (e: Record<string, unknown>) => boolean): number => lines.findIndex((l) => l !== '' && pred(JSON.parse(l) as Record<string, unknown>));
  const timeOfCrank = (n: number): number => (JSON.parse(lines[at((e) => e.type === 'crank-start' && e.crankNum === n)] as string) as { time: number }).time;

  it('crank-start times not in order (a clock set back): refused, the whole read', async () => {
    const i = at((e) => e.type === 'crank-start' && e.crankNum === 150);
    const e = JSON.parse(lines[i] as string) as { time: number };
    const back = [...lines];
    back[i] = JSON.stringify({ ...e, time: timeOfCrank(20) });
    const file = join(tmp, 'clock-back.slog');
    writeFileSync(file, back.join('\n'));
    const range = { key: 'time' as const, from: timeOfCrank(100), to: timeOfCrank(110) };
    expect(planSeek(file, range, BIG_LINE)).toMatchObject({ refused: expect.stringContaining('not in order') });
    const { seek } = await expectSame(file, times(range.from, range.to));
    expect(seek).toMatchObject({ refused: expect.any(String) });
  });

  it('a bad line inside a time range: read, and reported with its line number in the file, as the whole read does', async () => {
    const i = at((e) => e.type === 'deliver' && e.crankNum === 105);
    const file = join(tmp, 'bad-inside-times.slog');
    writeFileSync(file, [...lines.slice(0, i), '{"type":"deliver", cut short', ...lines.slice(i)].join('\n'));
    const selection = times(timeOfCrank(100), timeOfCrank(111));
    const bad = { seek: [] as BadLineReport[], whole: [] as BadLineReport[] };
    const a = await renderSlog({ inputs: [file], selection, settings: SEEK, onBadLine: (b) => bad.seek.push(b) });
    const b = await renderSlog({ inputs: [file], selection, settings: WHOLE, onBadLine: (b) => bad.whole.push(b) });
    expect(isPlan(a.seek)).toBe(true);
    expect((a.seek as SeekPlan).linesBefore()).toBe(at((e) => e.type === 'crank-start' && e.crankNum === 100));
    expectSameText(a.text, b.text);
    expect(bad.whole).toEqual([{ source: file, line: i + 1, why: expect.any(String) }]);
    expect(bad.seek).toEqual(bad.whole);
  });

  it('the crank-start before the range lost (its lines would be a crank selected by its first entry\'s time): refused', async () => {
    const i = at((e) => e.type === 'crank-start' && e.crankNum === 104);
    const file = join(tmp, 'lost-before.slog');
    writeFileSync(file, [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n'));
    // Cranks 105-110 by time; the lines of 104, without its crank-start, lie just before.
    const range = { key: 'time' as const, from: timeOfCrank(105), to: timeOfCrank(111) };
    expect(planSeek(file, range, BIG_LINE)).toMatchObject({ refused: expect.stringContaining('without its crank-start') });
    const { seek } = await expectSame(file, times(range.from, range.to));
    expect(seek).toMatchObject({ refused: expect.any(String) });
  });
});
