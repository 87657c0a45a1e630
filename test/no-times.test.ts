/**
 * `--no-times`: the text keeps everything the vats did and drops every
 * wall-clock figure, so two runs of the same work render identically.
 *
 * Two slogs made from one real slog, differing only in their timestamps
 * (time, monotime, seconds), render the same with --no-times and differently
 * without it; and the --no-times text is the reference text with exactly the
 * time figures taken out.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSlog, referenceText, SLOG_NAMES, expectSameText } from './helpers.js';
import { runInProcess } from './run-main.js';
import { renderEntries } from './render-helpers.js';
import type { Line as SlogEntry } from './slog-lines.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slogulate-no-times-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A deterministic pseudo-random sequence (no Math.random: the test must be repeatable). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Rewrites every line with its timestamps changed by `shift` (each line by a different amount). */
function perturbTimes(slog: Buffer, seed: number): string {
  const rand = lcg(seed);
  let clock = 0;
  return slog
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      // Time moves forward by a random amount at every line: durations all change.
      clock += rand() * 0.01;
      if (typeof entry.time === 'number') entry.time = entry.time + 1000 + clock;
      if (typeof entry.monotime === 'number') entry.monotime = entry.monotime + 50 + clock;
      if (typeof entry.seconds === 'number') entry.seconds = entry.seconds * (1 + rand());
      return `${JSON.stringify(entry)}\n`;
    })
    .join('');
}

/** The reference text with the wall-clock figures removed, as --no-times promises. */
function withoutTimeFigures(text: string): string {
  return text
    .replace(/^crank-finish: \d+µs crank/gm, 'crank-finish: crank')
    .replace(/^(kernel-init|bundle-kernel|kernel-import): \d+µs$/gm, '$1:')
    .replace(/^(vat-startup: \S+) \d+µs$/gm, '$1')
    .replace(/^(finish-replay \S+) \d+µs$/gm, '$1')
    .replace(/^(\/\/ crank \d+: .*) \[total:\d+µs local:\d+µs [\d.]+% syscall:\d+µs [\d.]+%\] (\d+ syscalls)/gm, '$1 $2')
    .replace(/^(\/\/ crank \d+: routing) \d+µs$/gm, '$1')
    .replace(/ \(\d+µs\)$/gm, '');
}

describe.each(SLOG_NAMES)('%s', (name) => {
  let a: string;
  let b: string;
  beforeAll(() => {
    if (name === 'a-local-3') return;
    // Both copies go through the same parse/stringify, so only the times differ.
    a = join(dir, `${name}-a.slog`);
    b = join(dir, `${name}-b.slog`);
    writeFileSync(a, perturbTimes(readSlog(name), 1));
    writeFileSync(b, perturbTimes(readSlog(name), 2));
  });

  // Two option sets on two slogs are enough here (the reference checks below cover all three).
  const perturbed = name === 'a-local-3' ? [] : [[], ['--timing']];
  for (const args of perturbed) {
    it(`${args.join(' ') || 'default'}: identical with --no-times, different without`, async () => {
      const [na, nb, ta, tb] = await Promise.all([
        runInProcess([...args, '--no-times', a]),
        runInProcess([...args, '--no-times', b]),
        runInProcess([...args, a]),
        runInProcess([...args, b]),
      ]);
      for (const r of [na, nb, ta, tb]) {
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
      }
      expectSameText(na.stdout, nb.stdout);
      expect(ta.stdout === tb.stdout).toBe(false);
      expect(na.stdout).not.toMatch(/\d+µs/);
    });
  }

  for (const [reference, args] of [
    ['default', []],
    ['timing', ['--timing']],
    ['nonoise-novatstore-timing', ['--nonoise', '--novatstore', '--timing']],
  ] as const) {
    it(`--no-times ${args.join(' ')} is the ${reference} reference without its time figures`, async () => {
      const r = await runInProcess([...args, '--no-times', `${name}.slog`]);
      expect(r.status).toBe(0);
      const expected = withoutTimeFigures(referenceText(name, reference));
      expect(expected).not.toMatch(/\d+µs/);
      expectSameText(r.stdout, expected);
    });
  }
});

describe('hand-made block and unknown entries', () => {
  const t0 = 1_700_000_000;
  const entries = (shift: number, scale: number): SlogEntry[] => [
    { type: 'cosmic-swingset-bootstrap-block-start', blockTime: 1000, time: t0 + shift },
    { type: 'cosmic-swingset-bootstrap-block-finish', blockTime: 1000, time: t0 + shift + 0.5 * scale },
    { type: 'cosmic-swingset-begin-block', blockHeight: 7, blockTime: 1010, time: t0 + shift + 1, monotime: 3 + shift },
    { type: 'cosmic-swingset-end-block-start', blockHeight: 7, blockTime: 1010, time: t0 + shift + 1.1 * scale },
    { type: 'cosmic-swingset-end-block-finish', blockHeight: 7, blockTime: 1010, time: t0 + shift + 1.3 * scale },
    { type: 'cosmic-swingset-commit-block-start', blockHeight: 7, blockTime: 1010, time: t0 + shift + 1.4 * scale },
    { type: 'cosmic-swingset-commit-block-finish', blockHeight: 7, blockTime: 1010, time: t0 + shift + 1.6 * scale },
    { type: 'cosmic-swingset-run-finish', runNum: 3, seconds: 0.25 * scale, usedBeans: 100, time: t0 + shift + 2 },
    { type: 'some-future-entry', detail: 'x', time: t0 + shift + 3, monotime: 9 + shift },
  ];

  it('drops the durations, `seconds` and the times of unknown entries, keeps the rest', () => {
    const a = renderEntries(entries(0, 1), { noTimes: true });
    const b = renderEntries(entries(5, 1.7), { noTimes: true });
    expect(a).toBe(b);
    expect(renderEntries(entries(0, 1))).not.toBe(renderEntries(entries(5, 1.7)));
    const lines = a.split('\n');
    expect(lines).toContain('cosmic-swingset-bootstrap-block:');
    expect(lines).toContain('cosmic-swingset-end-block: 7 1010');
    expect(lines).toContain('cosmic-swingset-commit-block: 7 1010');
    expect(lines).toContain('cosmic-swingset-run-finish: runNum=3 usedBeans=100');
    expect(lines).toContain('@ some-future-entry: {"type":"some-future-entry","detail":"x"}');
    // Without --no-times the same lines carry the figures.
    const timed = renderEntries(entries(0, 1)).split('\n');
    expect(timed).toContain('cosmic-swingset-bootstrap-block: 500000µs');
    expect(timed).toContain('cosmic-swingset-run-finish: runNum=3 seconds=250000µs usedBeans=100');
  });
});
