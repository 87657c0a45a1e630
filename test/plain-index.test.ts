/**
 * Plain slogs with an index (docs/gzip-index.md, "Plain slogs"): `slogulate
 * index FILE` cuts a plain slog into pieces that stand for a gzip file's
 * members, so that a selection takes what the byte search would find
 * (create-vat lines, kernel starts, openers) from the index and searches
 * only the pieces that may hold it. Checked against plain loops: the range
 * each selection reads (at sampled crank boundaries, on a restart and a
 * mid-crank start), the text (the full scan's, SLOGULATE_SEEK=0), the
 * bytes searched (a fraction of the file's), a bad line's number, and a
 * slog that grew after it was indexed (the index not used, one note).
 */
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexOfPlain } from '../src/run/gzip-index.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { renderSlog } from '../src/run/render.js';
import { indexOf, writeIndex } from '../src/source/gzip-index.js';
import { planSeek, type SeekPlan, type SeekRange } from '../src/source/seek.js';
import { expectSameText, ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';
import { afterRestart, cranks, expectedRange, expectSame, isPlan, placed, renderBothWithBadLines, SEEK, withBadLineBefore, type Placed } from './seek-oracle.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const BIG_LINE = settingsFrom().bigLineBytes;
const tmp = mkdtempSync(join(tmpdir(), 'slogulate-plain-index-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of `slog` in the temp folder, indexed in pieces of `pieceBytes`. */
function indexed(slog: string, name: string, pieceBytes: number): string {
  const file = join(tmp, name);
  copyFileSync(slog, file);
  writeIndex(file, indexOfPlain(file, pieceBytes));
  return file;
}

describe('a plain slog with an index: selections search only the pieces that may hold them', () => {
  it('a-local-3 at every 5th crank boundary: the plain loop\'s range, a fraction of the bytes searched, the same text', async () => {
    const bytes = readFileSync(slogPath('a-local-3'));
    const file = indexed(slogPath('a-local-3'), 'a-local-3.slog', 32 << 10);
    const nums = placed(bytes).filter((l) => l.e.type === 'crank-start').map((l) => l.e.crankNum as number);
    const sample = nums.filter((_, i) => i % 5 === 0);
    expect(sample.length).toBeGreaterThan(20);
    for (const n of sample) {
      const range: SeekRange = { key: 'crankNum', from: n, to: n + 1 };
      const withIndex = planSeek(file, range, BIG_LINE) as SeekPlan;
      const without = planSeek(slogPath('a-local-3'), range, BIG_LINE) as SeekPlan;
      expect(withIndex, `cranks ${n}-${n + 1}`).toMatchObject(expectedRange(bytes, range));
      expect(without.searched).toBe(bytes.length);
      expect(withIndex.searched).toBeLessThan(bytes.length / 4);
    }
    for (const n of sample.filter((_, i) => i % 6 === 3)) expect(isPlan(await expectSame(file, cranks(n, n + 1)))).toBe(true);
  }, 120_000);

  it('chain-A: blocks and cranks after its restart seek, cranks before it are refused; the same text', async () => {
    const bytes = readFileSync(join(REAL, 'chain-A.slog'));
    const file = indexed(join(REAL, 'chain-A.slog'), 'chain-A.slog', 256 << 10);
    const sample = afterRestart(placed(bytes), 'cosmic-swingset-begin-block', 'blockHeight').filter((_, i) => i % 20 === 0);
    expect(sample.length).toBeGreaterThan(3);
    for (const h of sample) {
      const range: SeekRange = { key: 'blockHeight', from: h, to: h };
      expect(planSeek(file, range, BIG_LINE), `block ${h}`).toMatchObject(expectedRange(bytes, range));
    }
    expect(isPlan(await expectSame(file, { blocks: [{ from: sample[1] as number, to: (sample[1] as number) + 2 }] }))).toBe(true);
    expect(isPlan(await expectSame(file, cranks(1880, 1890)))).toBe(true);
    expect(await expectSame(file, cranks(500, 510))).toMatchObject({ refused: expect.stringContaining('before a restart') });
  }, 180_000);

  it('restart-replay and mid-crank-start: the plain loop\'s ranges, (again after restart) and the head as the full scan reads them', async () => {
    const restart = indexed(join(REAL, 'restart-replay.slog'), 'restart.slog', 8 << 10);
    const rbytes = readFileSync(restart);
    const sample = afterRestart(placed(rbytes), 'crank-start', 'crankNum').filter((_, i) => i % 4 === 0);
    expect(sample.length).toBeGreaterThan(5);
    for (const n of sample) {
      const range: SeekRange = { key: 'crankNum', from: n, to: n + 1 };
      expect(planSeek(restart, range, BIG_LINE), `cranks ${n}-${n + 1}`).toMatchObject(expectedRange(rbytes, range));
    }
    const before = await renderSlog({ inputs: [restart], selection: cranks(45, 50), settings: SEEK });
    expect(before.seek).toMatchObject({ refused: expect.stringContaining('before a restart') });
    expect(before.text).toContain('(again after restart)');
    const mid = indexed(join(REAL, 'mid-crank-start.slog'), 'mid.slog', 8 << 10);
    expect(planSeek(mid, { key: 'crankNum', from: 11, to: 11 }, BIG_LINE)).toMatchObject({ start: 0 });
    expect(isPlan(await expectSame(mid, cranks(11, 11)))).toBe(true);
    expect(isPlan(await expectSame(mid, cranks(50, 55)))).toBe(true);
  }, 120_000);

  it('ranges over many pieces (a run of cranks, a stretch of time): the pieces all inside them are not searched; the plain loop\'s range, the same text', async () => {
    for (const [name, slog, pieceBytes] of [
      ['a-local-3', slogPath('a-local-3'), 8 << 10],
      ['chain-A after its restart', join(REAL, 'chain-A.slog'), 64 << 10],
    ] as const) {
      const bytes = readFileSync(slog);
      const file = indexed(slog, `many-${pieceBytes}.slog`, pieceBytes);
      const lines = placed(bytes);
      const floor = lines.filter((l) => l.e.type === 'kernel-init-start').pop()?.at ?? 0;
      const starts = lines.filter((l) => l.at >= floor && l.e.type === 'crank-start');
      const nums = afterRestart(lines, 'crank-start', 'crankNum');
      // A fifth of the last run's cranks, from a third of the way in: many pieces, under a quarter of the file.
      const span = Math.floor(nums.length / 5);
      const from = Math.floor(nums.length / 3);
      const first = starts.find((l) => l.e.crankNum === nums[from]) as Placed;
      const last = starts[starts.indexOf(first) + span] as Placed;
      const ranges: SeekRange[] = [
        { key: 'crankNum', from: first.e.crankNum as number, to: (last.e.crankNum as number) - 1 },
        { key: 'time', from: first.e.time as number, to: last.e.time as number },
      ];
      for (const range of ranges) {
        const withIndex = planSeek(file, range, BIG_LINE) as SeekPlan;
        const without = planSeek(slog, range, BIG_LINE) as SeekPlan;
        const what = `${name} ${JSON.stringify(range)}`;
        expect(isPlan(without), what).toBe(true);
        expect(withIndex, what).toMatchObject({ start: without.start, end: without.end, prelude: without.prelude, postlude: without.postlude });
        expect(withIndex.end - withIndex.start, what).toBeGreaterThan(6 * pieceBytes);
        // The two pieces at the range's ends, not those between them.
        expect(withIndex.searched, what).toBeLessThanOrEqual(2 * pieceBytes + 2 * (4 << 10));
      }
      expect(isPlan(await expectSame(file, cranks(ranges[0]?.from as number, ranges[0]?.to as number))), name).toBe(true);
      expect(isPlan(await expectSame(file, { since: ranges[1]?.from as number, until: ranges[1]?.to as number })), name).toBe(true);
    }
  }, 180_000);

  it('a bad line in the range: the seek refused as without the index, reported with its line number in the file', async () => {
    const damaged = join(tmp, 'damaged.slog');
    const line = withBadLineBefore(damaged, 105);
    writeIndex(damaged, indexOfPlain(damaged, 16 << 10));
    const { seek: a, whole: b, seekBad, wholeBad } = await renderBothWithBadLines(damaged, cranks(100, 110));
    // A bad line where a seek must parse: refused, with or without the index.
    expect(a.seek).toMatchObject({ refused: expect.stringContaining('not a slog entry') });
    expectSameText(a.text, b.text);
    expect(seekBad).toEqual([line]);
    expect(wholeBad).toEqual([line]);
  });

  it('the command line: index a plain slog, seek with it; a slog that grew since: the index not used, one note, the full scan\'s text', async () => {
    const file = join(tmp, 'live.slog');
    copyFileSync(slogPath('a-local-3'), file);
    const made = await runMain(['index', file]);
    expect(made.status, made.stderr).toBe(0);
    expect(made.stdout).toBe(`${file}: ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB in 1 piece; index ${file}.slogidx\n`);
    expect(indexOf(file)).toMatchObject({ index: expect.any(Object) });
    const fresh = await runMain(['--cranks', '100-102', file]);
    expect(fresh.stderr).toBe('');
    // A live slog: one more line.
    appendFileSync(file, readFileSync(slogPath('a-local-3'), 'utf8').split('\n')[0] + '\n');
    const grown = await runMain(['--cranks', '100-102', file]);
    expect(grown.stdout).toBe(fresh.stdout);
    expect(grown.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^slogulate: ${file}: its index ${file}.slogidx is not used \\(the slog is \\d+ bytes, the index was made of \\d+\\): run slogulate index ${file}$`))]);
    const whole = await runMain(['--cranks', '100-102', file], { env: { SLOGULATE_SEEK: '0' } });
    expect(grown.stdout).toBe(whole.stdout);
  });
});
