/**
 * `compare --round-marks` when end marks are missing: a round without its end
 * mark ends where the next round starts (the crank before it), the last one at
 * the end of the slog; rounds never overlap, and stderr says where each such
 * round was cut (docs/compare.md, "Per benchmark round").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareJson, CompareRow } from '../src/analyses/compare/compare.js';
import { Rounds } from '../src/analyses/common/rounds.js';
import { loopSide } from './compare-loop.js';
import { readSlog, slogPath, withRoundMarks } from './helpers.js';
import { runInProcess } from './run-main.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-rounds-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a-local-3 (cranks 0-277) with round marks: `[start, end]`, an end of undefined leaving the end mark out. */
function markedSlog(name: string, rounds: Array<[number, number | undefined]>): string {
  const file = join(dir, name);
  writeFileSync(file, withRoundMarks(readSlog('a-local-3').toString('utf8'), rounds));
  return file;
}

async function compare(file: string): Promise<{ json: CompareJson; stderr: string }> {
  const r = await runInProcess(['compare', '--format', 'json', '--round-marks', file, file]);
  expect(r.status, r.stderr).toBe(0);
  return { json: JSON.parse(r.stdout) as CompareJson, stderr: r.stderr };
}

const cranksRow = (json: CompareJson): CompareRow | undefined => json.sections.find((s) => s.id === 'cranks')?.rows.find((r) => r.key === 'cranks');
const deliveriesRow = (json: CompareJson): CompareRow | undefined =>
  json.sections.find((s) => s.id === 'deliveriesByVat')?.rows.find((r) => r.key === 'deliveries');

describe('rounds without their end mark', () => {
  const text = (): string => readFileSync(slogPath('a-local-3'), 'utf8');

  it('round 1 (no end mark) ends where round 2 starts; round 2 (no end mark) runs to the end of the slog', async () => {
    const file = markedSlog('no-ends.slog', [
      [50, undefined],
      [120, undefined],
    ]);
    const { json, stderr } = await compare(file);
    expect(json.base.roundList).toEqual([
      { benchmark: 'demo', round: 1, start: 50, end: null, cranks: 70 },
      { benchmark: 'demo', round: 2, start: 120, end: null, cranks: 158 },
    ]);
    // Every crank from 50 on counted once, divided by the 2 rounds.
    const loop = loopSide(text(), (n) => n >= 50);
    expect(cranksRow(json)?.base).toBe(loop.cranks.all / 2);
    expect(deliveriesRow(json)?.base).toBe([...loop.deliveriesByVat.values()].reduce((a, b) => a + b, 0) / 2);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toContain(`slogulate: ${file}: Benchmark "demo" round 1 has no end mark: counted up to crank 119, where round 2 starts`);
    expect(lines).toContain(`slogulate: ${file}: Benchmark "demo" round 2 has no end mark: counted up to the end of the slog`);
  });

  it('a round without its end mark before a round with one: the later round keeps its own cranks, none after its end counts', async () => {
    const file = markedSlog('first-end-missing.slog', [
      [50, undefined],
      [120, 200],
    ]);
    const { json, stderr } = await compare(file);
    expect(json.base.roundList?.map((r) => [r.start, r.end, r.cranks])).toEqual([
      [50, null, 70],
      [120, 200, 81],
    ]);
    const loop = loopSide(text(), (n) => n >= 50 && n <= 200);
    expect(cranksRow(json)?.base).toBe(loop.cranks.all / 2);
    // Once per side (the same slog on both).
    expect(stderr).toBe(`slogulate: ${file}: Benchmark "demo" round 1 has no end mark: counted up to crank 119, where round 2 starts\n`.repeat(2));
  });

  it('the same in per-round blocks (blocks --round-marks) and in Rounds itself', async () => {
    const file = markedSlog('no-ends-blocks.slog', [
      [50, undefined],
      [120, undefined],
    ]);
    const blocks = await runInProcess(['blocks', '--round-marks', '--json', file]);
    expect(blocks.status, blocks.stderr).toBe(0);
    const rows = blocks.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { cranks: number; firstCrank: number; lastCrank: number });
    expect(rows.map((r) => [r.firstCrank, r.lastCrank, r.cranks])).toEqual([
      [50, 119, 70],
      [120, 277, 158],
    ]);
    // Each warning says where its round was cut: at the next round's start, the last at the end of the slog.
    expect(blocks.stderr.trimEnd().split('\n')).toEqual([
      `slogulate: ${file}: Benchmark "demo" round 1 has no end mark: counted up to crank 119, where round 2 starts`,
      `slogulate: ${file}: Benchmark "demo" round 2 has no end mark: counted up to the end of the slog`,
    ]);

    const rounds = new Rounds();
    rounds.noteText('Benchmark "demo" round 1 start crank 50', 'log:1');
    expect(rounds.contains(200)?.round).toBe(1);
    rounds.noteText('Benchmark "demo" round 2 start crank 120', 'log:2');
    expect([49, 50, 119, 120, 200].map((n) => rounds.contains(n)?.round)).toEqual([undefined, 1, 1, 2, 2]);
    rounds.noteText('Benchmark "demo" round 2 end crank 150', 'log:3');
    expect([119, 120, 150, 151].map((n) => rounds.contains(n)?.round)).toEqual([1, 2, 2, undefined]);
  });
});
