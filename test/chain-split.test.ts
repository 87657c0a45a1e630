/**
 * `blocks` and `runs` with the time split (issue 28, item 5), in process:
 * each block's, run's and group's crank time by part (`--json`: exact µs)
 * equals the sum over its cranks that an independent loop over the slog's
 * lines finds (test/time-split-loop.ts splits each crank; this file places
 * the cranks in blocks, runs and groups); a block's cosmos time, interval,
 * processing share and trailing averages are monitor-slog-block-time.py's,
 * computed here from the begin-block, end-block-start and end-block-finish
 * lines; and the `--split` tables show them. The report's series of crank
 * time by part (its stacked chart) per bucket of N cranks, likewise.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analysisPass } from '../src/run/analyses.js';
import { EveryNCranks } from '../src/report/bucketing.js';
import { SERIES_READS, SeriesCollector } from '../src/report/series.js';
import { ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';
import { loopCranks, slogEntries, type LoopCrank } from './time-split-loop.js';

const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** chain-A's lines, parsed once for the whole file. */
let chainALines: Json[] | undefined;
const chainA = (): Json[] => (chainALines ??= slogEntries(CHAIN_A));

const jsonLines = async (args: string[]): Promise<Json[]> => {
  const r = await runMain(args);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Json);
};

/** The parts of some cranks summed, keyed as the JSON lines key them; vat, pipe and unknown together (the loop does not tell them apart). */
function sums(cranks: readonly LoopCrank[]): Record<string, number> {
  const add = (f: (c: LoopCrank) => number): number => cranks.reduce((n, c) => n + f(c), 0);
  return {
    crankMicros: add((c) => c.total),
    pageInMicros: add((c) => c.pageIn),
    replayMicros: add((c) => c.replay),
    syscallMicros: add((c) => c.syscall),
    snapshotMicros: add((c) => c.snapshot),
    kernelMicros: add((c) => c.kernel),
    vatPipeUnknown: add((c) => c.vatAndPipe),
  };
}

/** A row's parts, keyed as `sums` keys them. */
const rowSums = (row: Json): Record<string, number> => ({
  crankMicros: row.crankMicros,
  pageInMicros: row.pageInMicros,
  replayMicros: row.replayMicros,
  syscallMicros: row.syscallMicros,
  snapshotMicros: row.snapshotMicros,
  kernelMicros: row.kernelMicros,
  vatPipeUnknown: row.vatMicros + row.pipeMicros + row.unknownMicros,
});

interface LoopBlock {
  height: number;
  bootstrap: boolean;
  /** The lines from its opener (begin-block, bootstrap-block-start) to its end-block-finish (-finish), or to what cut it. */
  lines: Json[];
  begin?: number;
  endStart?: number;
  endFinish?: number;
  /** end-block-finish's own `seconds`. */
  endSeconds?: number;
}

/**
 * Every block execution of a chain slog, in order, by a plain loop: a
 * block's lines run from its begin-block (or the bootstrap's
 * bootstrap-block-start) to its end-block-finish (bootstrap-block-finish);
 * a kernel-init-start (a restart) cuts the open one.
 */
function loopBlocks(entries: readonly Json[]): LoopBlock[] {
  const out: LoopBlock[] = [];
  let open: LoopBlock | undefined;
  let bootstrapHeight = NaN;
  for (const e of entries) {
    if (e.type === 'cosmic-swingset-init') bootstrapHeight = e.blockHeight;
    if (e.type === 'kernel-init-start') open = undefined;
    if (e.type === 'cosmic-swingset-begin-block' || e.type === 'cosmic-swingset-bootstrap-block-start') {
      const bootstrap = e.type !== 'cosmic-swingset-begin-block';
      open = { height: bootstrap ? bootstrapHeight : e.blockHeight, bootstrap, lines: [], ...(bootstrap ? {} : { begin: e.time }) };
      out.push(open);
    }
    if (!open) continue;
    open.lines.push(e);
    if (e.type === 'cosmic-swingset-end-block-start') open.endStart = e.time;
    if (e.type === 'cosmic-swingset-end-block-finish') {
      open.endFinish = e.time;
      open.endSeconds = e.seconds;
    }
    if (e.type === 'cosmic-swingset-end-block-finish' || e.type === 'cosmic-swingset-bootstrap-block-finish') open = undefined;
  }
  return out;
}

describe('blocks --json on chain-A: crank time by part', () => {
  it('each block\'s parts are the sums of its cranks\' parts, found by a plain loop; the parts add up to the crank time', async () => {
    const entries = chainA();
    const blocks = loopBlocks(entries);
    const rows = await jsonLines(['blocks', '--json', CHAIN_A]);
    expect(rows.map((r) => r.height)).toEqual(blocks.map((b) => b.height));
    let all = 0;
    rows.forEach((row, i) => {
      const cranks = loopCranks((blocks[i] as LoopBlock).lines);
      expect(rowSums(row), `block ${row.height}`).toEqual(sums(cranks));
      expect(row.cranksWithoutParts, `block ${row.height}`).toBe(row.cranks - cranks.length);
      const parts = ['pageIn', 'vat', 'syscall', 'pipe', 'snapshot', 'kernel', 'unknown'].reduce((n, k) => n + (row[`${k}Micros`] as number), 0);
      expect(parts, `block ${row.height}`).toBe(row.crankMicros);
      all += row.crankMicros;
    });
    // Every crank of the slog is in a block: the blocks' crank time is the slog's.
    expect(all).toBe(sums(loopCranks(entries)).crankMicros);
  });

  it('the block holding crank 808 (v5 timer, bringOutYourDead) has 1.8 s or more of snapshot; the one holding crank 1419 1.3 s of page-in', async () => {
    const rows = await jsonLines(['blocks', '--json', CHAIN_A]);
    const holding = (n: number): Json => rows.find((r) => !r.abandoned && r.firstCrank <= n && n <= r.lastCrank) as Json;
    const b808 = holding(808);
    expect(b808.snapshotMicros).toBeGreaterThanOrEqual(1_800_000);
    const b1419 = holding(1419);
    expect(b1419.pageInMicros).toBeGreaterThanOrEqual(1_300_000);
    expect(b1419.replayMicros).toBeGreaterThan(400_000);
    expect(b1419.replayMicros).toBeLessThanOrEqual(b1419.pageInMicros);
  });

  it('runs --json: each run\'s parts are the sums of its cranks\' (run-start to run-finish), and a block\'s runs add up to it', async () => {
    const entries = chainA();
    const runs: Json[][] = [];
    let open: Json[] | undefined;
    for (const e of entries) {
      if (e.type === 'cosmic-swingset-run-start') {
        open = [];
        runs.push(open);
      }
      if (e.type === 'kernel-init-start') open = undefined;
      open?.push(e);
      if (e.type === 'cosmic-swingset-run-finish') open = undefined;
    }
    const rows = await jsonLines(['runs', '--json', CHAIN_A]);
    expect(rows.length).toBe(runs.length);
    rows.forEach((row, i) => expect(rowSums(row), `block ${row.height} run ${row.run}`).toEqual(sums(loopCranks(runs[i] as Json[]))));
    const blocks = await jsonLines(['blocks', '--json', CHAIN_A]);
    const snapshotOfRuns = rows.reduce((n, r) => n + r.snapshotMicros, 0);
    expect(snapshotOfRuns).toBe(blocks.reduce((n, b) => n + b.snapshotMicros, 0));
    expect(snapshotOfRuns).toBeGreaterThan(40_000_000);
  });

  it('--sort snapshot -n 3: the three blocks with the most snapshot time, by the loop', async () => {
    const blocks = loopBlocks(chainA()).map((b) => ({ height: b.height, snapshot: sums(loopCranks(b.lines)).snapshotMicros as number }));
    const want = [...blocks].sort((a, b) => b.snapshot - a.snapshot).slice(0, 3);
    const rows = await jsonLines(['blocks', '--json', '--sort', 'snapshot', '-n', '3', CHAIN_A]);
    expect(rows.map((r) => [r.height, r.snapshotMicros])).toEqual(want.map((b) => [b.height, b.snapshot]));
    const runs = await jsonLines(['runs', '--json', '--sort', 'page-in', '-n', '1', CHAIN_A]);
    expect(runs[0]?.pageInMicros).toBeGreaterThanOrEqual(1_300_000);
  });
});

describe('blocks on chain-A: cosmos time, interval, processing share, trailing averages (monitor-slog-block-time.py)', () => {
  it('are the script\'s figures, computed from the begin-block, end-block-start and end-block-finish lines', async () => {
    const blocks = loopBlocks(chainA());
    const n = 5;
    const rows = await jsonLines(['blocks', '--json', '--average', String(n), CHAIN_A]);
    expect(rows.length).toBe(blocks.length);
    // The script's rules: cosmos = end-block-start - begin-block; the block time = this end-block-finish less
    // height - 1's (its last); proc = (end-block-finish - begin-block) / that.
    const finishOf = new Map<number, number>();
    const window: Array<Record<string, number | null>> = [];
    let checked = 0;
    rows.forEach((row, i) => {
      const b = blocks[i] as LoopBlock;
      const cosmos = b.begin !== undefined && b.endStart !== undefined ? b.endStart - b.begin : null;
      expect(row.cosmosSeconds, `block ${b.height}`).toBe(cosmos);
      const before = finishOf.get(b.height - 1);
      const interval = before !== undefined && b.endFinish !== undefined && !b.bootstrap ? b.endFinish - before : null;
      expect(row.intervalSeconds, `block ${b.height}`).toBe(interval);
      const share = interval !== null && b.begin !== undefined ? ((b.endFinish as number) - b.begin) / interval : null;
      expect(row.processingShare, `block ${b.height}`).toBe(share);
      if (share !== null) checked += 1;
      if (b.endFinish !== undefined && !b.bootstrap) {
        finishOf.set(b.height, b.endFinish);
        window.push({ cranks: row.cranks, seconds: b.endSeconds ?? null, cosmos, share, interval });
        if (window.length > n) window.shift();
      }
      const mean = (k: string): number | null => {
        const known = window.map((w) => w[k]).filter((v): v is number => v !== null && v !== undefined);
        return known.length ? known.reduce((s, v) => s + v, 0) / known.length : null;
      };
      const avg = row.averages as Json;
      expect(avg.blocks, `block ${b.height}`).toBe(window.length);
      expect(avg.cranks).toBe(mean('cranks'));
      for (const [key, mine] of [
        ['seconds', 'seconds'],
        ['cosmosSeconds', 'cosmos'],
        ['processingShare', 'share'],
        ['intervalSeconds', 'interval'],
      ] as const) {
        const want = mean(mine);
        if (want === null) expect(avg[key], `block ${b.height} ${key}`).toBeNull();
        else expect(avg[key], `block ${b.height} ${key}`).toBeCloseTo(want, 12);
      }
    });
    // Every block but the bootstrap, the one after it (the bootstrap has no end-block-finish) has a share.
    expect(checked).toBe(blocks.length - 2);
  });

  it('--split prints them, and the crank time by part, in readable units', async () => {
    const rows = await jsonLines(['blocks', '--json', '--blocks', '46-60', CHAIN_A]);
    const r = await runMain(['blocks', '--split', '--average', '3', '--blocks', '46-60', CHAIN_A]);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    const head = (lines[0] as string).trim().split(/\s{2,}/);
    expect(head).toEqual([
      'height', 'time (UTC)', 'runs', 'cranks', 'end-block', 'cosmos', 'commit', 'interval', 'proc%',
      'avg cranks', 'avg end-block', 'avg cosmos', 'avg proc%',
      'crank time', 'page-in', 'replay', 'vat', 'syscall', 'pipe', 'snapshot', 'kernel', 'unknown', 'gc', 'note',
    ]);
    const readable = (us: number): string => (us === 0 ? '0' : us >= 1e6 ? `${(us / 1e6).toFixed(2)} s` : us >= 1e3 ? `${(us / 1e3).toFixed(2)} ms` : `${us} µs`);
    expect(lines.length).toBe(rows.length + 1);
    rows.forEach((row, i) => {
      const line = lines[i + 1] as string;
      expect(line.trim().startsWith(String(row.height))).toBe(true);
      const want = [row.crankMicros, row.pageInMicros, row.replayMicros, row.vatMicros, row.syscallMicros, row.pipeMicros, row.snapshotMicros, row.kernelMicros, row.unknownMicros, row.gcMicros]
        .map(readable)
        .join('  ')
        .replace(/\s+/g, ' ');
      expect(line.replace(/\s+/g, ' ')).toContain(want);
      if (row.processingShare !== null) expect(line).toContain(`${(row.processingShare * 100).toFixed(1)}%`);
    });
  });
});

describe('groups and runs without blocks: --every N', () => {
  it.each(['a-xs-3', 'a-local-3'])('%s: each group of 100 cranks has its cranks\' parts', async (slog) => {
    const entries = slogEntries(slogPath(slog));
    const rows = await jsonLines(['blocks', '--every', '100', '--json', slogPath(slog)]);
    // The slog's cranks in order, 100 a group (each crank has its start and finish in these slogs).
    const cranks = loopCranks(entries);
    expect(rows.reduce((n, r) => n + r.cranks, 0)).toBe(cranks.length);
    rows.forEach((row, i) => expect(rowSums(row), row.group).toEqual(sums(cranks.slice(i * 100, i * 100 + 100))));
    const snapshots = entries.filter((e) => e.type === 'heap-snapshot-save').length;
    if (slog === 'a-local-3') {
      // A local-worker benchmark: no snapshot, no pipe (its page-in, vats started in its first cranks, is the loop's, above).
      for (const row of rows) expect([row.snapshotMicros, row.pipeMicros]).toEqual([0, 0]);
    } else {
      expect(snapshots).toBeGreaterThan(0);
      expect(rows.reduce((n, r) => n + r.snapshotMicros, 0)).toBeGreaterThan(0);
    }
  });

  it('--split on groups; --average is for chain blocks only', async () => {
    const r = await runMain(['blocks', '--every', '100', '--split', slogPath('a-xs-3')]);
    expect(r.status).toBe(0);
    expect((r.stdout.split('\n')[0] as string).trim().split(/\s{2,}/)).toEqual([
      'group', 'time (UTC)', 'seconds', 'cranks', 'crank time', 'page-in', 'replay', 'vat', 'syscall', 'pipe', 'snapshot', 'kernel', 'unknown', 'gc', 'note',
    ]);
    const bad = await runMain(['blocks', '--every', '100', '--average', '5', slogPath('a-xs-3')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--average/);
    const runs = await runMain(['runs', '--split', '--busy', '--blocks', '8', CHAIN_A]);
    expect(runs.status).toBe(0);
    expect((runs.stdout.split('\n')[0] as string).trim().split(/\s{2,}/)).toEqual([
      'height', 'run', 'phase', 'cranks', 'seconds', 'crank time', 'page-in', 'replay', 'vat', 'syscall', 'pipe', 'snapshot', 'kernel', 'unknown', 'gc', 'note', 'trigger',
    ]);
  });
});

describe('the report\'s series of crank time by part', () => {
  it.each([
    ['a-xs-3', 10],
    ['a-local-3', 25],
  ] as const)('%s, every %i cranks: each bucket\'s parts (ms per crank) are its cranks\', by a plain loop', async (slog, n) => {
    const collector = new SeriesCollector(new EveryNCranks(n));
    await analysisPass({ inputs: [slogPath(slog)] }, SERIES_READS, collector);
    const data = collector.finish();
    const col = (id: string): Array<number | null> => {
      const i = data.columns.findIndex((c) => c.id === id);
      expect(i, id).toBeGreaterThanOrEqual(0);
      return data.points.map((p) => p.columns[i]?.mean ?? null);
    };
    const cranks = loopCranks(slogEntries(slogPath(slog)));
    expect(data.points.length).toBe(Math.ceil(cranks.length / n));
    // Every crank of these slogs finished: the report shows each bucket's sums per crank, over all its cranks (the last bucket holds fewer).
    expect(cranks.every((c) => Number.isFinite(c.total))).toBe(true);
    const perCrank = (b: readonly LoopCrank[]): Record<string, number> => Object.fromEntries(Object.entries(sums(b)).map(([k, v]) => [k, v / b.length]));
    const buckets = data.points.map((_, k) => perCrank(cranks.slice(k * n, k * n + n)));
    const pairs: Array<[string, (b: Record<string, number>) => number]> = [
      ['part:page-in', (b) => b.pageInMicros as number],
      ['part:syscall', (b) => b.syscallMicros as number],
      ['part:snapshot', (b) => b.snapshotMicros as number],
      ['part:kernel', (b) => b.kernelMicros as number],
    ];
    for (const [id, f] of pairs) col(id).forEach((v, k) => expect(v, `${id} bucket ${k}`).toBeCloseTo(f(buckets[k] as Record<string, number>) / 1000, 6));
    const vat = col('part:vat');
    const pipe = col('part:pipe');
    const unknown = col('part:unknown');
    buckets.forEach((b, k) => expect((vat[k] ?? 0) + (pipe[k] ?? 0) + (unknown[k] ?? 0), `vat+pipe+unknown bucket ${k}`).toBeCloseTo((b.vatPipeUnknown as number) / 1000, 6));
  });
});

describe('every slog of ../shared/slogs and ../shared/slogs/real', () => {
  const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
  const files = [
    ...readdirSync(join(ROOT, '..', 'shared', 'slogs')).filter((f) => /\.slog(\.gz)?$/.test(f) && !f.startsWith('big-')).map((f) => join(ROOT, '..', 'shared', 'slogs', f)),
    ...readdirSync(REAL).filter((f) => /\.(slog|jsonl)$/.test(f)).map((f) => join(REAL, f)),
    join(REAL, 'block-files-bot'),
  ];

  it.each(files.map((f) => [relative(ROOT, f), f]))('%s: each row\'s parts are whole µs, not below 0, and add up to its crank time', async (_name, file) => {
    // A slog without blocks or runs says so on stderr: only the exit status counts here.
    const lines = async (args: string[]): Promise<Json[]> => {
      const r = await runMain([...args, file as string]);
      expect(r.status, r.stderr).toBe(0);
      return r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Json);
    };
    const blocks = await lines(['blocks', '--json']);
    const groups = await lines(['blocks', '--every', '50', '--json']);
    const runs = await lines(['runs', '--json']);
    const rows = [...blocks, ...groups, ...runs];
    const keys = ['pageInMicros', 'vatMicros', 'syscallMicros', 'pipeMicros', 'snapshotMicros', 'kernelMicros', 'unknownMicros'];
    for (const row of rows) {
      for (const k of [...keys, 'crankMicros', 'replayMicros', 'gcMicros', 'cranksWithoutParts']) {
        expect(Number.isInteger(row[k]), `${k} ${JSON.stringify(row[k])}`).toBe(true);
        expect(row[k], k).toBeGreaterThanOrEqual(0);
      }
      expect(keys.reduce((n, k) => n + (row[k] as number), 0)).toBe(row.crankMicros);
      expect(row.replayMicros).toBeLessThanOrEqual(row.pageInMicros);
      expect(row.gcMicros).toBeLessThanOrEqual(row.vatMicros);
    }
    // The groups hold every crank once: their crank time is the slog's (blocks and runs may repeat none, or leave some out).
    const all = groups.reduce((n, r) => n + r.crankMicros, 0);
    expect(all).toBeGreaterThanOrEqual(blocks.reduce((n, r) => n + r.crankMicros, 0));
  });
});
