/**
 * `slogulate compare BASE HEAD` on the real slogs: a slog against itself has
 * no delta; two different slogs give the deltas a plain loop over their JSON
 * lines recomputes (test/compare-loop.ts); selections, rounds and formats.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareJson, CompareRow } from '../src/analyses/compare/compare.js';
import { loopSide, percentile, sum, type LoopSide } from './compare-loop.js';
import { READABLE_TIME, readSlog, runCli, slogPath, withRoundMarks } from './helpers.js';
import { runInProcess } from './run-main.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function compareJson(args: string[]): Promise<CompareJson> {
  const r = await runInProcess(['compare', '--format', 'json', ...args]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as CompareJson;
}

const section = (json: CompareJson, id: string): CompareRow[] => {
  const s = json.sections.find((x) => x.id === id);
  expect(s, `section ${id}`).toBeDefined();
  return s?.rows ?? [];
};

/**
 * How the report keys a side's vat: its ID, or its own name where both slogs
 * name the vat of that ID, each another name (two vats, one on each side).
 */
function vatKeyOf(mine: LoopSide, other: LoopSide): (vat: string) => string {
  return (vat) => {
    const name = mine.vatNames.get(vat);
    const theirs = other.vatNames.get(vat);
    return name !== undefined && theirs !== undefined && name !== theirs ? name : vat;
  };
}

/** The expected base/head value of every row of the comparison, from the plain loops. */
function expectedRows(b: LoopSide, h: LoopSide, bd = 1, hd = 1): Map<string, [number, number]> {
  const rows = new Map<string, [number, number]>();
  const both = (key: string, bv: number, hv: number): void => {
    rows.set(key, [bv / bd, hv / hd]);
  };
  const union = <T>(x: Map<string, T>, y: Map<string, T>): string[] => [...new Set([...x.keys(), ...y.keys()])];
  const keys = { base: vatKeyOf(b, h), head: vatKeyOf(h, b) };
  /** Per-vat figures of each side under the key the report gives its vat (`vat` or `vat method`). */
  const perVat = (prefix: string, x: Map<string, number>, y: Map<string, number>): void => {
    const keyed = new Map<string, [number, number]>();
    for (const [side, m] of [['base', x], ['head', y]] as const) {
      for (const [k, v] of m) {
        const [vat, method] = k.split(' ');
        const key = `${prefix},vat=${keys[side](vat as string)}${method === undefined ? '' : `,method=${method}`}`;
        const pair = keyed.get(key) ?? [0, 0];
        pair[side === 'base' ? 0 : 1] += v;
        keyed.set(key, pair);
      }
    }
    for (const [key, [bv, hv]] of keyed) both(key, bv, hv);
  };
  both('cranks', b.cranks.all, h.cranks.all);
  both('cranks.delivery', b.cranks.delivery, h.cranks.delivery);
  both('cranks.routing', b.cranks.routing, h.cranks.routing);
  perVat('deliveries', b.deliveriesByVat, h.deliveriesByVat);
  both('deliveries', sum([...b.deliveriesByVat.values()]), sum([...h.deliveriesByVat.values()]));
  perVat('deliveries', b.deliveriesByVatMethod, h.deliveriesByVatMethod);
  for (const type of union(b.syscallsByType, h.syscallsByType)) {
    both(`syscalls.${type}`, b.syscallsByType.get(type) ?? 0, h.syscallsByType.get(type) ?? 0);
  }
  both('syscalls', b.syscalls, h.syscalls);
  if (b.computronsByVat.size || h.computronsByVat.size) {
    perVat('computrons', b.computronsByVat, h.computronsByVat);
    both('computrons', b.computrons, h.computrons);
  }
  return rows;
}

/** Every deterministic row of the JSON against the loops: same set of rows, same values, deltas. */
function checkCounts(json: CompareJson, b: LoopSide, h: LoopSide, bd = 1, hd = 1): void {
  const expected = expectedRows(b, h, bd, hd);
  const seen = new Set<string>();
  // Growth (slopes of what is alive) is checked against its own loops in compare-growth.test.ts.
  for (const s of json.sections.filter((x) => x.deterministic && x.id !== 'growth')) {
    for (const row of s.rows) {
      const want = expected.get(row.key);
      expect(want, `unexpected row ${row.key}`).toBeDefined();
      const [bv, hv] = want as [number, number];
      expect(row.base, row.key).toBeCloseTo(bv, 9);
      expect(row.head, row.key).toBeCloseTo(hv, 9);
      expect(row.delta, row.key).toBeCloseTo(hv - bv, 9);
      if (bv === 0) expect(row.deltaPercent, row.key).toBe(hv === 0 ? 0 : null);
      else expect(row.deltaPercent as number, row.key).toBeCloseTo(((hv - bv) / bv) * 100, 9);
      seen.add(row.key);
    }
  }
  expect([...expected.keys()].filter((k) => !seen.has(k))).toEqual([]);
}

function checkTimes(json: CompareJson, b: LoopSide, h: LoopSide, bd = 1, hd = 1): void {
  const rows = section(json, 'time');
  const get = (key: string): CompareRow => rows.find((r) => r.key === key) as CompareRow;
  expect(get('time.total').base).toBeCloseTo(sum(b.deliveryMicros) / bd, 3);
  expect(get('time.total').head).toBeCloseTo(sum(h.deliveryMicros) / hd, 3);
  expect(get('time.mean').base).toBeCloseTo(sum(b.deliveryMicros) / b.deliveryMicros.length, 3);
  expect(get('time.p95').base).toBe(percentile(b.deliveryMicros, 95));
  expect(get('time.p95').head).toBe(percentile(h.deliveryMicros, 95));
  let checked = 0;
  const headKey = vatKeyOf(h, b);
  for (const [key, micros] of h.deliveryMicrosByVatMethod) {
    const [id, method] = key.split(' ');
    const vat = headKey(id as string);
    expect(get(`time.p95,vat=${vat},method=${method}`).head).toBe(percentile(micros, 95));
    expect(get(`time.total,vat=${vat},method=${method}`).head).toBeCloseTo(sum(micros) / hd, 3);
    checked += 1;
  }
  expect(checked).toBeGreaterThan(10);
  // Timings come after every count.
  const ids = json.sections.map((s) => s.deterministic);
  expect(ids.lastIndexOf(true)).toBeLessThan(ids.indexOf(false));
}

describe('a slog compared with itself', () => {
  it('has zero deltas everywhere and exits 0, plain against gzipped', async () => {
    const gz = join(dir, 'a-xs-3.slog.gz');
    writeFileSync(gz, gzipSync(readSlog('a-xs-3')));
    const json = await compareJson(['a-xs-3.slog', gz]);
    expect(json.format).toBe('slogulate-compare');
    expect(json.version).toBe(2);
    let rows = 0;
    for (const s of json.sections) {
      for (const row of s.rows) {
        expect(row.delta, row.key).toBe(0);
        expect(row.deltaPercent, row.key).toBe(0);
        expect(row.base).toBe(row.head);
        rows += 1;
      }
    }
    expect(rows).toBeGreaterThan(100);
    const loop = loopSide(readFileSync(slogPath('a-xs-3'), 'utf8'));
    checkCounts(json, loop, loop);
  });

  it('passes every +0 threshold (exit 0) and says so', async () => {
    const r = await runInProcess([
      'compare',
      ...['cranks', 'deliveries', 'syscalls', 'computrons', 'time.p95', 'time.mean,vat=v7'].flatMap((m) => ['--fail-on', `${m}:+0`]),
      'a-xs-3.slog',
      'a-xs-3.slog',
    ]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^no threshold exceeded \(6 checked\)$/m);
  });
});

describe('two different real slogs', () => {
  it('a-local-3 against b-local-5: every count and delta as a plain loop computes them', async () => {
    const json = await compareJson(['a-local-3.slog', 'b-local-5.slog']);
    const b = loopSide(readFileSync(slogPath('a-local-3'), 'utf8'));
    const h = loopSide(readFileSync(slogPath('b-local-5'), 'utf8'));
    checkCounts(json, b, h);
    checkTimes(json, b, h);
    expect(json.sections.some((s) => s.id === 'computronsByVat')).toBe(false);
    expect(section(json, 'cranks').find((r) => r.key === 'cranks')?.delta).toBe(h.cranks.all - b.cranks.all);
    expect(b.cranks.all).not.toBe(h.cranks.all);
  });

  it('a-local-3 against a-xs-3 (local vs XS workers): computrons appear on one side only', async () => {
    const json = await compareJson(['a-local-3.slog', 'a-xs-3.slog']);
    const b = loopSide(readFileSync(slogPath('a-local-3'), 'utf8'));
    const h = loopSide(readFileSync(slogPath('a-xs-3'), 'utf8'));
    checkCounts(json, b, h);
    expect(json.base.hasComputrons).toBe(false);
    expect(json.head.hasComputrons).toBe(true);
    const total = section(json, 'computronsByVat').find((r) => r.key === 'computrons');
    expect(total?.head).toBe(h.computrons);
    expect(total?.deltaPercent).toBe(null);
  });

  it('--cranks and --vat select the same cranks on both sides', async () => {
    const json = await compareJson(['--cranks', '100-200', '--vat', 'bob', '--vat', 'v1', 'a-local-3.slog', 'a-xs-3.slog']);
    const keep = (n: number, vat: string | undefined): boolean => n >= 100 && n <= 200 && (vat === 'v7' || vat === 'v1');
    const b = loopSide(readFileSync(slogPath('a-local-3'), 'utf8'), keep);
    const h = loopSide(readFileSync(slogPath('a-xs-3'), 'utf8'), keep);
    checkCounts(json, b, h);
    expect(json.base.selection).toBe('cranks 100-200 and vat bob, v1');
    expect(b.cranks.delivery).toBeGreaterThan(10);
  });

  it('the text and markdown reports show the same rows, counts first and times flagged as noisy', async () => {
    const json = await compareJson(['a-local-3.slog', 'b-local-5.slog']);
    const [text, md] = await Promise.all([
      runInProcess(['compare', '--time-rows', '0', 'a-local-3.slog', 'b-local-5.slog']),
      runInProcess(['compare', '--format', 'markdown', 'a-local-3.slog', 'b-local-5.slog']),
    ]);
    expect(text.status).toBe(0);
    expect(md.status).toBe(0);
    const lines = text.stdout.split('\n');
    const syscallLines = lines.slice(lines.indexOf('Syscalls by type:'));
    for (const row of section(json, 'syscallsByType')) {
      const label = row.subtype ?? 'all';
      const line = syscallLines.find((l) => l.split(/\s+/)[0] === label && /^\S+\s+\d/.test(l));
      expect(line, label).toBeDefined();
      expect((line as string).split(/\s+/).slice(1, 4)).toEqual([`${row.base}`, `${row.head}`, row.delta > 0 ? `+${row.delta}` : `${row.delta}`]);
    }
    // Every µs row: of the delivery times and of crank time by part (--time-rows 0: all of them).
    const timeRows = section(json, 'time').length + section(json, 'timeByPart').length;
    expect(lines.filter((l) => READABLE_TIME.test(l) && !/^vat\s/.test(l)).length).toBe(timeRows);
    expect(text.stdout.indexOf('Syscalls by type:')).toBeLessThan(text.stdout.indexOf('Delivery times'));
    expect(text.stdout).toMatch(/noisy/);
    expect(md.stdout).toMatch(/^## slogulate compare$/m);
    expect(md.stdout).toMatch(/^### Syscalls by type$/m);
    expect(md.stdout).toMatch(/^\| syscall \| base \| head \| delta \| delta% \|$/m);
  });

  it('--changed leaves out the rows that did not change', async () => {
    const [all, changed] = await Promise.all([
      runInProcess(['compare', 'a-local-3.slog', 'a-xs-3.slog']),
      runInProcess(['compare', '--changed', 'a-local-3.slog', 'a-xs-3.slog']),
    ]);
    const zeroRows = (t: string): string[] => t.split('\n').filter((l) => /\s0\s+0\.00%$/.test(l));
    expect(zeroRows(all.stdout).length).toBeGreaterThan(5);
    expect(zeroRows(changed.stdout).filter((l) => !READABLE_TIME.test(l))).toEqual([]);
    expect(changed.stdout).toMatch(/unchanged rows? not shown/);
  });
});

describe('benchmark rounds', () => {
  // Two rounds marked in a copy of a real slog, as the benchmark prints them.
  const ROUNDS: Array<[number, number]> = [
    [100, 180],
    [181, 260],
  ];
  const mark = (text: string, time: number): string =>
    `${JSON.stringify({ type: 'console', source: 'benchmark', level: 'log', args: [text], time, monotime: 0 })}\n`;
  let marked: string;
  let log: string;

  beforeAll(() => {
    marked = join(dir, 'marked.slog');
    writeFileSync(marked, withRoundMarks(readSlog('a-local-3').toString('utf8'), ROUNDS));
    log = join(dir, 'bench.log');
    writeFileSync(
      log,
      ROUNDS.flatMap(([s, e], i) => [`Benchmark "demo" round ${i + 1} start crank ${s}`, 'noise', `Benchmark "demo" round ${i + 1} end crank ${e}`]).join('\n'),
    );
  });

  const inRounds = (n: number): boolean => ROUNDS.some(([s, e]) => n >= s && n <= e);

  it('counts only the cranks of the rounds, divided by the round count', async () => {
    const json = await compareJson(['--round-marks', marked, marked]);
    const loop = loopSide(readFileSync(slogPath('a-local-3'), 'utf8'), inRounds);
    checkCounts(json, loop, loop, 2, 2);
    checkTimes(json, loop, loop, 2, 2);
    expect(json.perRound).toBe(true);
    expect(json.base.rounds).toBe(2);
    expect(json.base.roundList?.map((r) => [r.start, r.end])).toEqual(ROUNDS);
    expect(section(json, 'cranks')[0]?.base).toBe(loop.cranks.all / 2);
  });

  it('reads the marks from the benchmark console output just the same', async () => {
    const fromSlog = await compareJson(['--round-marks', marked, marked]);
    const fromLog = await compareJson(['--base-log', log, '--head-log', log, 'a-local-3.slog', 'a-local-3.slog']);
    expect(fromLog.sections).toEqual(fromSlog.sections);
  });

  it('a log that is a folder, missing or unreadable is one line naming it, exit 2 (not an internal error)', async () => {
    const folder = join(dir, 'logs');
    mkdirSync(folder, { recursive: true });
    const runs = await Promise.all([
      runInProcess(['compare', '--base-log', log, '--head-log', folder, 'a-local-3.slog', 'b-local-5.slog']),
      runInProcess(['compare', '--base-log', folder, '--head-log', log, 'a-local-3.slog', 'b-local-5.slog']),
      // Said first, whatever the slogs hold (a-local-3.slog has no marks of its own).
      runInProcess(['compare', '--round-marks', '--head-log', folder, 'a-local-3.slog', 'b-local-5.slog']),
      runInProcess(['compare', '--base-log', log, '--head-log', join(dir, 'nope.log'), 'a-local-3.slog', 'b-local-5.slog']),
    ]);
    expect(runs.map((r) => [r.status, r.stdout, r.stderr])).toEqual([
      [2, '', `slogulate: ${folder}: is a directory\n`],
      [2, '', `slogulate: ${folder}: is a directory\n`],
      [2, '', `slogulate: ${folder}: is a directory\n`],
      [2, '', `slogulate: ${join(dir, 'nope.log')}: no such file\n`],
    ]);
  });

  it('refuses a slog without marks, or marks that come after their cranks (exit 2)', async () => {
    const late = join(dir, 'late.slog');
    writeFileSync(late, `${readSlog('a-local-3').toString('utf8')}${mark('Benchmark "demo" round 1 start crank 10', 0)}`);
    const [none, tooLate] = await Promise.all([
      runInProcess(['compare', '--round-marks', 'a-local-3.slog', marked]),
      runInProcess(['compare', '--round-marks', marked, late]),
    ]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^slogulate: a-local-3\.slog \(console entries\): no benchmark round marks/);
    expect(tooLate.status).toBe(2);
    expect(tooLate.stderr).toMatch(/late\.slog:\d+: Benchmark "demo" round 1 start mark \(crank 10\) comes after crank \d+ was read/);
    expect(tooLate.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('usage', () => {
  it('reads one side from stdin, not both', async () => {
    const one = await runCli(['compare', '--format', 'json', '-', 'a-local-3.slog'], { stdin: readSlog('a-local-3') });
    expect(one.status).toBe(0);
    const json = JSON.parse(one.stdout) as CompareJson;
    expect(json.base.slog).toBe('<stdin>');
    expect(json.sections.every((s) => s.rows.every((r) => r.delta === 0))).toBe(true);
    const both = await runCli(['compare', '-', '-']);
    expect(both.status).toBe(2);
    expect(both.stderr).toBe('slogulate: only one of base and head can be read from stdin\n');
  });

  it('a missing slog is one line and exit 2', async () => {
    const r = await runCli(['compare', 'a-local-3.slog', 'nope.slog']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['slogulate: nope.slog: no such file']);
  });
});
