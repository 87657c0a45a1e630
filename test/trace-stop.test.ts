/**
 * `trace` with a selection (issue 30, item 5): it needs every line before
 * its selection (its time origin, run queue and causes come from every
 * crank before), none after, so the read stops once past the selection
 * when the seek's plan holds (run/pass.ts planStop). The file it writes is
 * the whole read's (SLOGULATE_SEEK=0), byte for byte, on the real slogs
 * and a hand-made one; and the read does stop early, where the plan holds
 * and only there.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TraceWriter } from '../src/analyses/trace/trace.js';
import { emptyAnnotations } from '../src/model/annotations.js';
import type { Crank } from '../src/model/crank.js';
import { tracePass } from '../src/run/analyses.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import type { SeekRange } from '../src/source/seek.js';
import { ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const A_LOCAL = slogPath('a-local-3');

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-trace-stop-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The trace file of `args`, as the command line writes it on stdout. */
async function trace(args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await runMain(['trace', ...args], { env });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

/** The trace with its read stopped where the plan lets it, and the whole read's: the same bytes. */
async function same(args: string[]): Promise<string> {
  const text = await trace(args);
  expect(text).toBe(await trace(args, { SLOGULATE_SEEK: '0' }));
  return text;
}

/** The library's trace pass of `file` for `range` (cranks selected by it alone): whether it stopped, and the lines it read (`seek` false: never planned, the whole read). */
async function traced(file: string, range: SeekRange, seek = true): Promise<{ text: string; stopped: boolean; lines: number; planned: boolean }> {
  let text = '';
  const writer = new TraceWriter({ write: (t) => (text += t), annotations: emptyAnnotations(), processName: 'test', selectCrank: (c) => inRange(range, c) });
  writer.begin();
  const result = await tracePass({ inputs: [file], settings: { ...settingsFrom(), seek } }, writer, range);
  writer.end();
  // The plan holds when tracePass armed the stop (and a plan is kept in the result).
  return { text, stopped: result.stopped !== undefined, lines: result.lines, planned: writer.stopPast !== undefined && result.seek !== undefined && 'start' in result.seek };
}

function inRange(range: SeekRange, crank: Crank): boolean {
  if (range.key !== 'crankNum') throw new Error('cranks only');
  return crank.crankNum >= range.from && crank.crankNum <= range.to;
}

const lineCount = (file: string): number => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).length;

describe('trace stops reading after its selection', () => {
  it('chain-A: cranks and blocks after its restart, times; before it (the plan refuses): the whole read\'s file', async () => {
    for (const args of [
      ['--cranks', '1500-1520'],
      ['--cranks', '1500-1520,2000'],
      ['--blocks', '150-152'],
      ['--since', '2026-11-23T03:52:40Z', '--until', '2026-11-23T03:52:50Z'],
      ['--cranks', '100-120'],
      ['--blocks', '50-52'],
      ['--blocks', '150-152', '--vat', 'v6'],
    ]) {
      const text = await same([...args, CHAIN_A]);
      expect(JSON.parse(text).traceEvents.length, args.join(' ')).toBeGreaterThan(10);
    }
  });

  it('every real slog and a-local-3, a range from a third of its cranks to the half', async () => {
    for (const file of [A_LOCAL, ...['chain-bot.slog', 'mid-crank-start.slog', 'restart-replay.slog', 'y2022-create-vat.slog', 'lone-deliver-result.slog'].map((f) => join(REAL, f))]) {
      const nums = [...readFileSync(file, 'utf8').matchAll(/"type":"crank-start"[^\n]*?"crankNum":(\d+)/g)].map((m) => Number(m[1]));
      const n = nums.length;
      // A slog with no crank-start (one crank, begun before it): that crank.
      const only = /"crankNum":(\d+)/.exec(readFileSync(file, 'utf8'))?.[1];
      const args = n > 3 ? ['--cranks', `${nums[Math.floor(n / 3)]}-${nums[Math.floor(n / 2)]}`] : ['--cranks', `${only}`];
      await same([...args, file]);
    }
  });

  it('stops where the plan holds, and only there; the same file as a whole read', async () => {
    const total = lineCount(A_LOCAL);
    const early = await traced(A_LOCAL, { key: 'crankNum', from: 20, to: 30 });
    expect(early.planned).toBe(true);
    expect(early.stopped).toBe(true);
    expect(early.lines).toBeLessThan(total / 2);
    const whole = await traced(A_LOCAL, { key: 'crankNum', from: 20, to: 30 }, false);
    expect(whole).toMatchObject({ planned: false, stopped: false, lines: total });
    expect(early.text).toBe(whole.text);
    // chain-A's cranks 100-120 ran before its restart: the plan refuses, the read goes to the end.
    const refused = await traced(CHAIN_A, { key: 'crankNum', from: 100, to: 120 });
    expect(refused.planned).toBe(false);
    expect(refused.stopped).toBe(false);
    expect(refused.lines).toBe(lineCount(CHAIN_A));
    // restart-replay's cranks 40-42 run again after its restart: the plan refuses, and both executions are drawn.
    const replay = join(REAL, 'restart-replay.slog');
    expect((await traced(replay, { key: 'crankNum', from: 40, to: 42 })).planned).toBe(false);
    const both = JSON.parse(await same(['--cranks', '40-42', replay])) as { traceEvents: Array<{ ph: string; cat?: string; args?: { crank?: number } }> };
    expect(both.traceEvents.filter((e) => e.ph === 'X' && e.cat !== 'syscall' && e.args?.crank === 40)).toHaveLength(2);
    // A range that selects nothing: no crank drawn, nothing to stop after.
    const none = await traced(A_LOCAL, { key: 'crankNum', from: 1_000_000, to: 1_000_010 });
    expect(none.stopped).toBe(false);
  });

  it('a kernel-stats inside the first crank past the selection is drawn, as the whole read draws it', async () => {
    // kernel-stats is drawn after a drawn crank, until the next one ends: put one inside the crank after the selection.
    const lines = readFileSync(A_LOCAL, 'utf8').split('\n');
    const start = lines.findIndex((l) => l.includes('"type":"crank-start"') && l.includes('"crankNum":31,'));
    expect(start).toBeGreaterThan(0);
    const time = (JSON.parse(lines[start] as string) as { time: number }).time;
    const stats = JSON.stringify({ type: 'kernel-stats', stats: { runQueueLength: 7, runQueueLengthUp: 9 }, time: time + 0.0001, monotime: 1 });
    const file = join(tmp, 'stats-inside.slog');
    writeFileSync(file, [...lines.slice(0, start + 1), stats, ...lines.slice(start + 1)].join('\n'));
    const text = await same(['--cranks', '20-30', file]);
    expect(text).toContain('"runQueueLength"');
    expect((await traced(file, { key: 'crankNum', from: 20, to: 30 })).stopped).toBe(true);
  });
});
