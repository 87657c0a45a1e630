/**
 * `--cranks`, `--blocks`, `--since` and `--until` in `export`, `query`,
 * `kref` and `report` (issue 30, item 5), on the shared slogs: what each
 * prints for a selection equals what it prints for the whole slog, then
 * filtered here by a plain test of each row (a crank row's crankNum,
 * blockNum or startTime, a kref mention's crank number), or, for the
 * report, the crank counts of a plain loop over the slog's lines.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectReport } from '../src/run/report.js';
import { emptyAnnotations } from '../src/model/annotations.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';
import { csvRows } from './csv-rows.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const A_LOCAL = slogPath('a-local-3');
const B_LOCAL = slogPath('b-local-5');

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-sel-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A table of a CSV export: its header and rows (every part file under DIR/TABLE, in name order). */
function table(dir: string, name: string): { header: string[]; rows: string[][] } {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.csv')) files.push(p);
    }
  };
  walk(join(dir, name));
  let header: string[] = [];
  const rows: string[][] = [];
  for (const f of files) {
    const [h, ...rest] = csvRows(readFileSync(f, 'utf8'));
    header = h ?? header;
    rows.push(...rest);
  }
  return { header, rows };
}

async function ok(args: string[]): Promise<string> {
  const r = await runMain(args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
}

/** A crank row's test, by its cells (by column name). */
type RowTest = (cell: (column: string) => string) => boolean;

const num = (text: string): number => (text === '' ? NaN : Number(text));

describe('export: a selection keeps the rows of its cranks, each as the whole export has it', () => {
  const exports = new Map<string, string>();
  /** The whole export of `file`, made once. */
  const whole = async (file: string): Promise<string> => {
    let dir = exports.get(file);
    if (dir === undefined) {
      dir = join(tmp, `whole-${exports.size}`);
      await ok(['export', file, '--to', dir, '--format', 'csv', '-q']);
      exports.set(file, dir);
    }
    return dir;
  };

  const cases: Array<[string, string, string[], RowTest]> = [
    ['a-local-3 --cranks 100-140', A_LOCAL, ['--cranks', '100-140'], (c) => num(c('crankNum')) >= 100 && num(c('crankNum')) <= 140],
    ['b-local-5 --cranks 10-20,300-', B_LOCAL, ['--cranks', '10-20,300-'], (c) => (num(c('crankNum')) >= 10 && num(c('crankNum')) <= 20) || num(c('crankNum')) >= 300],
    ['chain-A --blocks 150-155', CHAIN_A, ['--blocks', '150-155'], (c) => num(c('blockNum')) >= 150 && num(c('blockNum')) <= 155],
  ];
  for (const [name, file, args, test] of cases) {
    it(name, async () => {
      const all = await whole(file);
      const dir = join(tmp, `sel-${name.replace(/\W+/g, '-')}`);
      await ok(['export', file, '--to', dir, '--format', 'csv', '-q', ...args]);
      checkExport(all, dir, test);
    }, 120_000);
  }

  it('a-local-3 --since/--until: the cranks whose startTime is in [since, until)', async () => {
    const all = await whole(A_LOCAL);
    const cranks = table(all, 'cranks');
    const at = cranks.header.indexOf('startTime');
    const times = cranks.rows.map((r) => num(r[at] as string)).filter(Number.isFinite);
    const since = times[Math.floor(times.length / 3)] as number;
    const until = times[Math.floor((2 * times.length) / 3)] as number;
    const dir = join(tmp, 'sel-since');
    await ok(['export', A_LOCAL, '--to', dir, '--format', 'csv', '-q', '--since', String(since), '--until', String(until)]);
    checkExport(all, dir, (c) => num(c('startTime')) >= since && num(c('startTime')) < until);
  });
});

/**
 * The cranks table of `dir` is the whole export's rows that pass `test`;
 * deliveries and syscalls those of the same cranks (by crank number and
 * `abandoned`); the other tables are the whole export's.
 */
function checkExport(all: string, dir: string, test: RowTest): void {
  const whole = table(all, 'cranks');
  const cell = (row: string[]) => (column: string): string => {
    const i = whole.header.indexOf(column);
    expect(i).toBeGreaterThanOrEqual(0);
    return row[i] as string;
  };
  const want = whole.rows.filter((r) => test(cell(r)));
  expect(want.length).toBeGreaterThan(0);
  expect(want.length).toBeLessThan(whole.rows.length);
  const got = table(dir, 'cranks');
  expect(got.header).toEqual(whole.header);
  expect(got.rows).toEqual(want);
  const kept = new Set(want.map((r) => `${cell(r)('crankNum')}/${cell(r)('abandoned')}`));
  for (const name of ['deliveries', 'syscalls']) {
    const w = table(all, name);
    const crankAt = w.header.indexOf('crankNum');
    const abandonedAt = w.header.indexOf('abandoned');
    const rows = w.rows.filter((r) => kept.has(`${r[crankAt]}/${r[abandonedAt]}`));
    expect(rows.length, name).toBeGreaterThan(0);
    expect(table(dir, name).rows, name).toEqual(rows);
  }
  for (const name of ['blocks', 'runs', 'snapshots', 'stalls', 'vats']) {
    expect(table(dir, name), name).toEqual(table(all, name));
  }
}

describe('query: a selection queries the rows export keeps', () => {
  it('chain-A --blocks 150-155 and a-local-3 --cranks: the counts a plain loop gives', async () => {
    // A plain loop: the cranks begun between begin-block 150 and end-block-finish 155, after the last kernel start (chain-A restarts before block 150).
    const lines = readFileSync(CHAIN_A, 'utf8').split('\n').filter((l) => l.trim());
    let block: number | undefined;
    let inBlocks = 0;
    for (const l of lines) {
      const e = JSON.parse(l) as Record<string, unknown>;
      if (e.type === 'cosmic-swingset-begin-block') block = e.blockHeight as number;
      if (e.type === 'cosmic-swingset-end-block-finish') block = undefined;
      if (e.type === 'crank-start' && block !== undefined && block >= 150 && block <= 155) inBlocks += 1;
    }
    const out = await ok(['query', 'SELECT count(*) AS n FROM cranks', CHAIN_A, '--blocks', '150-155', '--format', 'csv']);
    expect(out).toBe(`n\n${inBlocks}\n`);
    const local = readFileSync(A_LOCAL, 'utf8').split('\n').filter((l) => l.includes('"crank-start"'));
    const starts = local.map((l) => (JSON.parse(l) as { crankNum: number }).crankNum).filter((n) => n >= 50 && n <= 99);
    const deliveries = readFileSync(A_LOCAL, 'utf8').split('\n').filter((l) => l.includes('"type":"deliver"')).map((l) => JSON.parse(l) as { crankNum?: number }).filter((e) => (e.crankNum ?? -1) >= 50 && (e.crankNum ?? -1) <= 99);
    expect(await ok(['query', 'SELECT (SELECT count(*) FROM cranks) AS c, (SELECT count(*) FROM deliveries) AS d', '--cranks', '50-99', A_LOCAL, '--format', 'csv'])).toBe(`c,d\n${starts.length},${deliveries.length}\n`);
  }, 120_000);

  it('with an export folder: a usage error saying to select in the SQL', async () => {
    const dir = join(tmp, 'folder-for-query');
    await ok(['export', A_LOCAL, '--to', dir, '--format', 'csv', '-q']);
    const r = await runMain(['query', 'SELECT 1', dir, '--cranks', '1-5']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^slogulate: .*an export folder .*select in the SQL.*\n$/);
  });
});

/** The kref's text split: what it says before the mentions, and each mention (its header's crank number, its lines). */
function mentions(text: string): { head: string[]; list: Array<{ crank: number; text: string }> } {
  const [head, ...blocks] = text.trimEnd().split('\n\n');
  return {
    head: (head as string).split('\n'),
    list: blocks.map((b) => ({ crank: Number(/^\/\/ crank (\d+):/.exec(b)?.[1]), text: b })),
  };
}

describe('kref: a selection keeps the mentions in its cranks; what the slog says of the kref is the whole slog\'s', () => {
  for (const [name, file, kref, args, keep] of [
    ['a-local-3 --cranks 60-200', A_LOCAL, 'ko30', ['--cranks', '60-200'], (n: number) => n >= 60 && n <= 200],
    ['chain-A --cranks 1200-1900', CHAIN_A, 'ko35', ['--cranks', '1200-1900'], (n: number) => n >= 1200 && n <= 1900],
  ] as const) {
    it(name, async () => {
      const all = mentions(await ok(['kref', kref, file]));
      const sel = mentions(await ok(['kref', kref, ...args, file]));
      const want = all.list.filter((m) => keep(m.crank));
      expect(want.length).toBeGreaterThan(0);
      expect(want.length).toBeLessThan(all.list.length);
      expect(sel.list).toEqual(want);
      // The summary: the same but for the count of mentions, which names the selection.
      expect(sel.head.slice(0, -1)).toEqual(all.head.slice(0, -1));
      expect(sel.head.at(-1)).toBe(`mentioned in ${want.length} crank${want.length === 1 ? '' : 's'} of cranks ${args[1]}`);
    }, 60_000);
  }

  it('b-local-5 --since: the mentions in cranks begun at or after it (crank-start times by a plain loop)', async () => {
    const starts = new Map<number, number>();
    for (const l of readFileSync(B_LOCAL, 'utf8').split('\n')) {
      if (!l.includes('"crank-start"')) continue;
      const e = JSON.parse(l) as { crankNum: number; time: number };
      starts.set(e.crankNum, e.time);
    }
    const times = [...starts.values()];
    const since = times[Math.floor(times.length / 2)] as number;
    const all = mentions(await ok(['kref', 'ko30', B_LOCAL]));
    const sel = mentions(await ok(['kref', 'ko30', '--since', String(since), B_LOCAL]));
    const want = all.list.filter((m) => (starts.get(m.crank) ?? -Infinity) >= since);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(all.list.length);
    expect(sel.list).toEqual(want);
  });
});

describe('report: a selection keeps its cranks in the figures, rankings and charts', () => {
  it('a-local-3 --cranks 100-199: the summary counts, the rankings\' cranks, the charts\' points, by a plain loop', async () => {
    const starts: Array<{ crankNum: number; type: string }> = [];
    for (const l of readFileSync(A_LOCAL, 'utf8').split('\n')) {
      if (!l.includes('"crank-start"')) continue;
      const e = JSON.parse(l) as { crankNum: number; crankType: string };
      starts.push({ crankNum: e.crankNum, type: e.crankType });
    }
    const inRange = starts.filter((s) => s.crankNum >= 100 && s.crankNum <= 199);
    const outcome = await collectReport({
      runs: [[A_LOCAL]],
      every: 10,
      roundMarks: false,
      topN: 1000,
      annotations: emptyAnnotations(),
      thresholds: [],
      settings: settingsFrom(),
      selection: { cranks: [{ from: 100, to: 199 }] },
    });
    const side = outcome.data.sides[0];
    const summary = new Map(side?.summary);
    expect(summary.get('selection')).toBe('cranks 100-199');
    expect(summary.get('cranks')).toMatch(new RegExp(`^${inRange.length} of ${starts.length}\\b`));
    const ranked = new Set(side?.top.rankings.flatMap((r) => r.cranks.map((c) => c.crankNum)));
    const delivery = new Set(inRange.filter((s) => s.type === 'delivery').map((s) => s.crankNum));
    expect(ranked).toEqual(delivery);
    // The charts' points (every 10 cranks: the first crank of each bucket): the selected cranks' buckets only.
    const chart = outcome.data.charts.find((c) => c.id === 'deliveries');
    expect(chart?.x).toEqual([100, 110, 120, 130, 140, 150, 160, 170, 180, 190]);
  });
});
