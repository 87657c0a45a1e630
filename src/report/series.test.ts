/**
 * The report's series on real slogs, checked against a plain loop over the
 * slog's JSON lines (written apart from the crank model): per bucket of N
 * cranks, crank time, computrons, deliveries and syscalls (replays left
 * out), and the gauges (XS heap, snapshot sizes, kernel heap) as they stand
 * at each bucket's end (the kernel's heap: its value within the bucket);
 * the same through the fast line reader and the plain path; downsampling;
 * rounds; per chain block (against the same loop cutting by begin-block
 * entries, and against the chain view's blocks), with a restart inside a
 * busy block and a slog that starts inside a block; the choice between
 * per block and every N cranks.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analysisPass } from '../run/analyses.js';
import { chainViewOf } from '../run/chain.js';
import type { BlockRow } from '../analyses/chain/blocks.js';
import { Rounds } from '../analyses/common/rounds.js';
import { EVERY_LADDER, EveryNCranks, everyNCranksLadder, MIN_POINTS, PerBlock, PerRound, type Bucketing } from './bucketing.js';
import { chooseSeries, SERIES_READS, SeriesCollector, type SeriesData } from './series.js';
import type { LinesRead } from '../scan/line-reader.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = (name: string): string => join(ROOT, 'fixtures', 'slogs', `${name}.slog`);
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');

type Entry = Record<string, any>;

interface PlainCrank {
  start: Entry;
  items: Entry[];
  finish?: Entry;
}

/** Cranks and outside entries in slog order, by the plain rule: a crank runs from its crank-start to its crank-finish or the next crank-start. */
function plainRead(file: string): Array<{ crank: PlainCrank } | { outside: Entry }> {
  const out: Array<{ crank: PlainCrank } | { outside: Entry }> = [];
  let open: PlainCrank | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line) as Entry;
    if (e.type === 'crank-start') {
      open = { start: e, items: [] };
      out.push({ crank: open });
    } else if (open && e.type === 'crank-finish') {
      open.finish = e;
      open = undefined;
    } else if (open) {
      open.items.push(e);
    } else {
      out.push({ outside: e });
    }
  }
  return out;
}

interface PlainBucket {
  x: number;
  cranks: number;
  /** Cranks with their crank-finish (a crank time). */
  timed: number;
  /** Opened by the bootstrap block's start. */
  bootstrap?: true;
  crankTime: number;
  computrons?: number;
  deliveries: number;
  syscalls: number;
  gauges: Map<string, number>;
}

/**
 * Buckets as the report should count them: per `n` cranks, or (`n` absent)
 * per chain block: a crank is in the block whose begin-block (or bootstrap
 * block start, its height the init's) came last before it; a block with no
 * crank is a bucket too; cranks before the first block are in none.
 */
function plainBuckets(file: string, n?: number): PlainBucket[] {
  const buckets: PlainBucket[] = [];
  const gauges = new Map<string, number>();
  let kernelHeap: number | undefined;
  const gauge = (e: Entry): void => {
    if (e.type === 'heap-snapshot-save' && typeof e.uncompressedSize === 'number') gauges.set(`snapshot:${e.vatID}`, e.uncompressedSize);
    if (e.type === 'cosmic-swingset-after-commit-stats' && typeof e.memoryUsage?.heapUsed === 'number') kernelHeap = e.memoryUsage.heapUsed;
  };
  let current: PlainBucket | undefined;
  let count = 0;
  let initHeight: number | undefined;
  const close = (): void => {
    if (!current) return;
    current.gauges = new Map(gauges);
    if (kernelHeap !== undefined) current.gauges.set('kernelHeap', kernelHeap);
    kernelHeap = undefined;
  };
  const open = (x: number, bootstrap = false): void => {
    if (current?.x === x) return;
    if (current) close();
    else kernelHeap = undefined;
    current = { x, cranks: 0, timed: 0, crankTime: 0, deliveries: 0, syscalls: 0, gauges: new Map(), ...(bootstrap ? { bootstrap: true as const } : {}) };
    buckets.push(current);
  };
  for (const item of plainRead(file)) {
    if ('outside' in item) {
      const e = item.outside;
      if (n === undefined) {
        if (e.type === 'cosmic-swingset-init') initHeight = e.blockHeight;
        if (e.type === 'cosmic-swingset-bootstrap-block-start') open(initHeight as number, true);
        if (e.type === 'cosmic-swingset-begin-block') open(e.blockHeight);
      }
      gauge(e);
      continue;
    }
    const { start, items, finish } = item.crank;
    if (n !== undefined && count % n === 0) open(count);
    count += 1;
    const b = current;
    for (const e of items) {
      if (e.type === 'deliver-result' && e.replay !== true) {
        const usage = e.dr?.[2];
        const vat = e.vatID ?? start.vatID ?? start.message?.vatID;
        if (typeof usage?.allocate === 'number') gauges.set(`heap:${vat}`, usage.allocate);
        if (typeof usage?.currentHeapCount === 'number') gauges.set(`heapCount:${vat}`, usage.currentHeapCount);
      } else if (e.type !== 'deliver' && e.type !== 'syscall') gauge(e);
    }
    if (!b) continue;
    b.cranks += 1;
    if (finish) {
      b.crankTime += (finish.time - start.time) * 1000;
      b.timed += 1;
    }
    for (const e of items) {
      if (e.type === 'deliver' && e.replay !== true) b.deliveries += 1;
      else if (e.type === 'syscall' && e.replay !== true) b.syscalls += 1;
      else if (e.type === 'deliver-result' && e.replay !== true && typeof e.dr?.[2]?.compute === 'number') b.computrons = (b.computrons ?? 0) + e.dr[2].compute;
    }
  }
  close();
  return buckets;
}

async function series(file: string, bucketing: Bucketing | Bucketing[], maxPoints?: number): Promise<SeriesData> {
  return (await seriesRead(file, bucketing, maxPoints)).data;
}

/** The series, and how the pass read the slog's lines (as the line reader counted them). */
async function seriesRead(file: string, bucketing: Bucketing | Bucketing[], maxPoints?: number): Promise<{ data: SeriesData; read: LinesRead; lines: number }> {
  const collector = new SeriesCollector(bucketing, maxPoints);
  const pass = await analysisPass({ inputs: [file], onOpen: (source) => collector.beginFile(source.name) }, SERIES_READS, collector);
  return { data: collector.finish(), read: pass.read, lines: pass.lines };
}

/**
 * The series' points compared with the plain loop's buckets, column by
 * column: per crank when cut every N cranks (each sum divided by the
 * bucket's cranks, crank time by its finished ones), else the sums; the
 * bootstrap block's computrons set aside.
 */
function expectBuckets(data: SeriesData, expected: PlainBucket[]): void {
  expect(data.buckets).toBe(expected.length);
  expect(data.bucketsPerPoint).toBe(1);
  expect(data.points.length).toBe(expected.length);
  expect(data.points.map((p) => p.x)).toEqual(expected.map((b) => b.x));
  expect(column(data, 'cranks')).toEqual(expected.map((b) => b.cranks));
  const per = (b: PlainBucket, v: number, over = b.cranks): number => (data.perCrank ? v / over : v);
  const close = (id: string, want: Array<number | null>): void => {
    const got = column(data, id);
    expect(got.map((v) => v === null), id).toEqual(want.map((v) => v === null));
    got.forEach((v, i) => (v === null ? undefined : expect(v, `${id} ${i}`).toBeCloseTo(want[i] as number, 6)));
  };
  close('deliveries', expected.map((b) => per(b, b.deliveries)));
  close('syscalls', expected.map((b) => per(b, b.syscalls)));
  // A bucket without cranks has 0 computrons, when the slog has any; the bootstrap block's are set aside.
  const hasComputrons = expected.some((b) => b.computrons !== undefined);
  close('computrons', expected.map((b) => (b.bootstrap && hasComputrons ? null : b.computrons === undefined ? (hasComputrons && b.cranks === 0 ? 0 : null) : per(b, b.computrons))));
  const boot = expected.find((b) => b.bootstrap);
  expect(data.setAside?.value).toBe(boot && hasComputrons ? boot.computrons : undefined);
  close('crankTime', expected.map((b) => (data.perCrank && b.timed === 0 ? null : per(b, b.crankTime, b.timed))));
  const gaugeIDs = new Set(expected.flatMap((b) => [...b.gauges.keys()]));
  expect(new Set(data.columns.filter((c) => c.kind !== 'sum').map((c) => c.id))).toEqual(gaugeIDs);
  for (const id of gaugeIDs) expect(column(data, id), id).toEqual(expected.map((b) => b.gauges.get(id) ?? null));
}

/** Column `id`'s mean at each point (null: none). */
const column = (data: SeriesData, id: string): Array<number | null> => {
  const i = data.columns.findIndex((c) => c.id === id);
  return data.points.map((p) => (i < 0 ? null : (p.columns[i]?.mean ?? null)));
};

describe('SeriesCollector, every N cranks', () => {
  for (const [name, file, n] of [
    ['a-xs-3 (computrons, XS heap, snapshots)', FIXTURE('a-xs-3'), 10],
    ['a-local-3', FIXTURE('a-local-3'), 25],
    ['chain-A (replays, a restart, kernel heap after commit)', CHAIN_A, 250],
  ] as const) {
    it(`counts per bucket what a plain loop over the lines counts: ${name}`, async () => {
      const expected = plainBuckets(file, n);
      const data = await series(file, new EveryNCranks(n));
      expectBuckets(data, expected);
      // x: the first crank's number, counted on.
      expect(data.points.map((p) => p.x)).toEqual(expected.map((_, i) => i * n));
      expect(data.points[0]?.from).toBe(`cranks 0-${n - 1}`);
      expect(data.axis).toBe('crank');
      expect(data.leftOut).toBe(0);
    });
  }

  it('sees the gauges the slogs have: XS heap and snapshots in a-xs-3, the kernel heap in chain-A', async () => {
    const xs = await series(FIXTURE('a-xs-3'), new EveryNCranks(250));
    const ids = xs.columns.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['heap:v1', 'heapCount:v1', 'snapshot:v1']));
    const chain = await series(CHAIN_A, new EveryNCranks(250));
    expect(chain.columns.find((c) => c.id === 'kernelHeap')?.kind).toBe('sample');
  });

  it('reads the same through the fast line reader as through the plain path', async () => {
    const fast = await seriesRead(FIXTURE('a-xs-3'), new EveryNCranks(7));
    // Most lines (the crank lines) by the byte reader.
    expect(fast.read.fast).toBeGreaterThan(0.9 * fast.lines);
    const saved = process.env.SLOGULATE_FAST;
    process.env.SLOGULATE_FAST = '0';
    try {
      const plain = await seriesRead(FIXTURE('a-xs-3'), new EveryNCranks(7));
      expect(plain.read).toEqual({ fast: 0, plain: fast.lines, big: 0, lenient: 0 });
      expect(plain.data).toEqual(fast.data);
    } finally {
      if (saved === undefined) delete process.env.SLOGULATE_FAST;
      else process.env.SLOGULATE_FAST = saved;
    }
  });

  it('downsamples to at most maxPoints, keeping the sums and the extremes', async () => {
    const file = FIXTURE('a-xs-3');
    const expected = plainBuckets(file, 3);
    const data = await series(file, new EveryNCranks(3), 8);
    expect(data.buckets).toBe(expected.length);
    expect(data.points.length).toBeLessThanOrEqual(8);
    expect(data.bucketsPerPoint).toBeGreaterThan(1);
    const i = data.columns.findIndex((c) => c.id === 'syscalls');
    // Per crank: each bucket's syscalls over its cranks (the last bucket may hold fewer).
    const perCrank = expected.map((b) => b.syscalls / b.cranks);
    expect(data.perCrank).toBe(true);
    const total = data.points.reduce((s, p) => s + (p.columns[i]?.mean as number) * p.buckets, 0);
    expect(total).toBeCloseTo(perCrank.reduce((s, v) => s + v, 0), 6);
    expect(Math.max(...data.points.map((p) => p.columns[i]?.max as number))).toBeCloseTo(Math.max(...perCrank), 9);
    expect(Math.min(...data.points.map((p) => p.columns[i]?.min as number))).toBeCloseTo(Math.min(...perCrank), 9);
  });
});

describe('other bucketings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-series-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('per round: one bucket per benchmark round, cranks outside rounds left out', async () => {
    // Two rounds marked in a copy of a real slog, as the benchmark prints them.
    const rounds: Array<[number, number]> = [
      [40, 99],
      [150, 209],
    ];
    const lines = readFileSync(FIXTURE('a-local-3'), 'utf8').split('\n').filter((l) => l.trim());
    const marked: string[] = [];
    const mark = (text: string, time: number): string => JSON.stringify({ type: 'console', source: 'vat', vatID: 'v1', level: 'log', args: [text], time, monotime: 0 });
    for (const line of lines) {
      const e = JSON.parse(line) as Entry;
      rounds.forEach(([start], i) => {
        if (e.type === 'crank-start' && e.crankNum === start) marked.push(mark(`Benchmark "demo" round ${i + 1} start crank ${start}`, e.time));
      });
      marked.push(line);
    }
    const file = join(dir, 'marked.slog');
    writeFileSync(file, `${marked.join('\n')}\n`);
    // Marks for ends are in the rounds' last cranks' wake: give them after the crank.
    const withEnds = marked.flatMap((line) => {
      const e = JSON.parse(line) as Entry;
      const i = rounds.findIndex(([, end]) => e.type === 'crank-finish' && e.crankNum === end);
      return i < 0 ? [line] : [line, mark(`Benchmark "demo" round ${i + 1} end crank ${rounds[i]?.[1]}`, e.time)];
    });
    writeFileSync(file, `${withEnds.join('\n')}\n`);
    const data = await series(file, new PerRound(new Rounds()));
    expect(data.axis).toBe('round');
    expect(data.points.map((p) => [p.x, p.from])).toEqual([
      [1, '"demo" round 1: cranks 40-99'],
      [2, '"demo" round 2: cranks 150-209'],
    ]);
    expect(column(data, 'cranks')).toEqual([60, 60]);
    const seen = plainRead(file).filter((x) => 'crank' in x).length;
    expect(data.leftOut).toBe(seen - 120);
  });

});

/** The slog's blocks as the chain view gives them (`blocks --json`), abandoned executions left out. */
async function chainBlocks(file: string): Promise<BlockRow[]> {
  const rows: BlockRow[] = [];
  await chainViewOf({ inputs: [file], onBlock: (row) => rows.push(row) });
  return rows.filter((r) => !r.abandoned);
}

describe('per chain block', () => {
  // chain-A per block, read once for the tests below.
  let chainA: Promise<SeriesData> | undefined;
  const chainPerBlock = (): Promise<SeriesData> => (chainA ??= series(CHAIN_A, new PerBlock()));
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-blocks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const chainLines = readFileSync(CHAIN_A, 'utf8').split('\n').filter((l) => l.trim());
  const lineOf = (type: string, height: number, from = 0): number =>
    chainLines.findIndex((l, i) => i >= from && l.startsWith(`{"type":"${type}","blockHeight":${height},`));

  it('counts per block what a plain loop cutting at begin-block counts: chain-A, blocks without cranks too', async () => {
    const data = await chainPerBlock();
    expect(data.axis).toBe('block');
    expect(data.applies).toBe(true);
    expectBuckets(data, plainBuckets(CHAIN_A));
    expect(data.leftOut).toBe(0);
    expect(data.points.slice(0, 3).map((p) => p.from)).toEqual(['block 1 (bootstrap): cranks 0-128', 'block 2: no cranks', 'block 3: no cranks']);
  });

  it('has a point per block of the chain view, with its cranks, deliveries, computrons and kernel heap (chain-A: a restart at block 85)', async () => {
    const [data, rows] = await Promise.all([chainPerBlock(), chainBlocks(CHAIN_A)]);
    // Block 85 ran twice: the restart abandoned the first execution; one point.
    expect(rows.filter((r) => r.height === 85).length).toBe(1);
    // No crank ran in it: its second begin-block says it ran again.
    expect(data.points.filter((p) => p.from.includes('run again')).map((p) => p.from)).toEqual(['block 85 (run again after a restart): no cranks']);
    expect(data.points.map((p) => p.x)).toEqual(rows.map((r) => r.height));
    expect(column(data, 'cranks')).toEqual(rows.map((r) => r.cranks));
    expect(column(data, 'deliveries')).toEqual(rows.map((r) => r.deliveries));
    // The bootstrap block's computrons (every vat's setup) are set aside, not charted.
    expect(column(data, 'computrons')).toEqual(rows.map((r, i) => (i === 0 ? null : r.computrons)));
    expect(rows[0]?.bootstrap).toBe(true);
    expect(data.setAside).toEqual({ column: 'computrons', label: data.points[0]?.from, value: rows[0]?.computrons });
    expect(column(data, 'kernelHeap')).toEqual(rows.map((r) => r.heapUsed));
    expect(rows.filter((r) => r.cranks > 0).length).toBeGreaterThan(50);
  });

  it('counts a block run again after a restart once: its abandoned cranks are not in the series', async () => {
    // chain-A with a crash inside busy block 91, after its runs and before its commit: the node starts again and runs block 91 again.
    const begin = lineOf('cosmic-swingset-begin-block', 91);
    const endFinish = lineOf('cosmic-swingset-end-block-finish', 91);
    expect(endFinish - begin).toBeGreaterThan(500);
    const t = (JSON.parse(chainLines[endFinish] as string) as Entry).time as number;
    const restart = [
      JSON.stringify({ type: 'kernel-init-start', time: t + 1, monotime: 1 }),
      JSON.stringify({ type: 'kernel-init-finish', time: t + 2, monotime: 2 }),
      JSON.stringify({ type: 'cosmic-swingset-init', blockHeight: 90, time: t + 3, monotime: 3 }),
    ];
    const file = join(dir, 'restart-in-91.slog');
    writeFileSync(file, `${[...chainLines.slice(0, endFinish + 1), ...restart, ...chainLines.slice(begin)].join('\n')}\n`);
    const [plain, spliced] = await Promise.all([chainPerBlock(), series(file, new PerBlock())]);
    const at = plain.points.findIndex((p) => p.x === 91);
    expect(column(plain, 'cranks')[at]).toBeGreaterThan(20);
    expect(spliced.points[at]?.from).toBe(plain.points[at]?.from.replace('block 91', 'block 91 (run again after a restart)'));
    expect({ ...spliced, points: spliced.points.map((p) => ({ ...p, from: '', to: '' })) }).toEqual({ ...plain, points: plain.points.map((p) => ({ ...p, from: '', to: '' })) });
    // The chain view sees both executions; the series, the one committed.
    expect((await chainBlocks(file)).filter((r) => r.height === 91).map((r) => r.again)).toEqual([true]);
  });

  it('leaves out the cranks of a slog that starts inside a block (a flight recorder\'s tail), and says how many', async () => {
    const begin = lineOf('cosmic-swingset-begin-block', 91);
    const cut = chainLines.findIndex((l, i) => i > begin + 300 && l.startsWith('{"type":"crank-start"'));
    const file = join(dir, 'tail.slog');
    writeFileSync(file, `${chainLines.slice(cut).join('\n')}\n`);
    const data = await series(file, new PerBlock());
    const expected = plainBuckets(file);
    expectBuckets(data, expected);
    expect(data.points[0]?.x).toBe(92);
    const cranks = plainRead(file).filter((x) => 'crank' in x).length;
    expect(data.leftOut).toBe(cranks - expected.reduce((s, b) => s + b.cranks, 0));
    expect(data.leftOut).toBeGreaterThan(10);
    expect((await chainBlocks(file)).map((r) => r.height)).toEqual(data.points.map((p) => p.x));
  });

  it('reads per-block files as the slog they were cut from', async () => {
    const whole = await series(join(REAL, 'chain-bot.slog'), new PerBlock());
    const files = await series(join(REAL, 'block-files-bot'), new PerBlock());
    expect(files).toEqual(whole);
    expect(whole.points.map((p) => p.x)).toEqual([1, 2, 3, 4]);
  });

  it('per block when the slog has blocks, else every N cranks', async () => {
    const both = (): Bucketing[] => [new PerBlock(), new EveryNCranks(250)];
    const chain = await series(CHAIN_A, both());
    expect(chain).toEqual(await chainPerBlock());
    const local = await series(FIXTURE('a-local-3'), both());
    expect(local).toEqual(await series(FIXTURE('a-local-3'), new EveryNCranks(250)));
    expect(local.axis).toBe('crank');
    // Two runs share the first that applies to both.
    const collector = new SeriesCollector(both());
    await analysisPass({ inputs: [FIXTURE('a-local-3')] }, SERIES_READS, collector);
    const all = collector.finishAll();
    expect(all.map((d) => [d.axis, d.applies])).toEqual([
      ['block', false],
      ['crank', true],
    ]);
    expect(chooseSeries([all, all])).toBe(1);
    expect(chooseSeries([[{ ...chain }, all[1] as SeriesData], all])).toBe(1);
    expect(chooseSeries([[{ ...chain }, all[1] as SeriesData], [{ ...chain }, all[1] as SeriesData]])).toBe(0);
  });

  it('every N cranks by default: the largest N of the ladder that makes at least MIN_POINTS buckets, else one per crank', async () => {
    // Cranks counted by a plain loop over the lines.
    const cranksOf = (file: string): number => plainRead(file).filter((x) => 'crank' in x).length;
    const chosen = (cranks: number): number => EVERY_LADDER.find((n) => Math.ceil(cranks / n) >= MIN_POINTS) ?? 1;
    for (const file of [FIXTURE('a-local-3'), FIXTURE('b-local-5'), CHAIN_A]) {
      const cranks = cranksOf(file);
      const data = await series(file, everyNCranksLadder());
      const n = chosen(cranks);
      expect(data.cranksPerBucket, file).toBe(n);
      expect(data.buckets, file).toBe(Math.ceil(cranks / n));
      expect(data.buckets, file).toBeGreaterThanOrEqual(Math.min(MIN_POINTS, cranks));
      // The last bucket's cranks, when fewer than N.
      expect(data.lastBucketCranks, file).toBe(cranks % n === 0 ? undefined : cranks % n);
      expectBuckets(data, plainBuckets(file, n));
    }
    // a-local-3's 278 cranks: 56 buckets of 5, not 2 of 250.
    expect(chosen(cranksOf(FIXTURE('a-local-3')))).toBe(5);
    // Fewer cranks than MIN_POINTS: one bucket per crank.
    const dir = mkdtempSync(join(tmpdir(), 'slogulate-ladder-'));
    try {
      const lines = readFileSync(FIXTURE('a-local-3'), 'utf8').split('\n');
      const cut = lines.findIndex((l) => l.startsWith('{"type":"crank-start"') && l.includes('"crankNum":30,'));
      const short = join(dir, 'short.slog');
      writeFileSync(short, `${lines.slice(0, cut).join('\n')}\n`);
      const data = await series(short, everyNCranksLadder());
      expect(cranksOf(short)).toBe(30);
      expect([data.cranksPerBucket, data.buckets, data.lastBucketCranks]).toEqual([1, 30, undefined]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('two runs of the ladder share the largest N that makes enough buckets for both, else the smallest both still have', async () => {
    const runs = async (file: string): Promise<SeriesData[]> => {
      const collector = new SeriesCollector([new PerBlock(), ...everyNCranksLadder()]);
      await analysisPass({ inputs: [file] }, SERIES_READS, collector);
      return collector.finishAll();
    };
    const [a, b, chain] = await Promise.all([runs(FIXTURE('a-local-3')), runs(FIXTURE('b-local-5')), runs(CHAIN_A)]);
    const pick = (x: SeriesData[], y: SeriesData[]): number | undefined => x[chooseSeries([x, y])]?.cranksPerBucket;
    expect(pick(a, b)).toBe(5);
    // chain-A (2543 cranks) stopped its smaller N once 50 made 51 buckets; a-local-3 needs 5: they share 50.
    expect(chain.map((d) => d.complete)).toEqual([true, true, true, true, false, false, false, false, false]);
    expect(pick(a, chain)).toBe(50);
    expect(pick(chain, chain)).toBeUndefined();
    expect(chain[chooseSeries([chain, chain])]?.axis).toBe('block');
  });
});
