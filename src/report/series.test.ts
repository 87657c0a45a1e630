/**
 * The report's series on real slogs, checked against a plain loop over the
 * slog's JSON lines (written apart from the crank model): per bucket of N
 * cranks, crank time, computrons, deliveries and syscalls (replays left
 * out), and the gauges (XS heap, snapshot sizes, kernel heap) as they stand
 * at each bucket's end; the same through the fast line reader and the plain
 * path; downsampling; rounds and a per-block strategy plugged in.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analysisPass } from '../run/analyses.js';
import type { Crank } from '../model/crank.js';
import type { SlogEntry } from '../scan/entry-types.js';
import { Rounds } from '../analyses/rounds.js';
import { EveryNCranks, PerRound, type BucketKey, type Bucketing } from './bucketing.js';
import { SERIES_READS, SeriesCollector, type SeriesData } from './series.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = (name: string): string => join(ROOT, 'fixtures', 'slogs', `${name}.slog`);
const CHAIN_A = join(ROOT, '..', 'shared', 'slogs', 'real', 'chain-A.slog');

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
  cranks: number;
  crankTime: number;
  computrons?: number;
  deliveries: number;
  syscalls: number;
  gauges: Map<string, number>;
}

/** Per `n` cranks, as the report should count them. */
function plainBuckets(file: string, n: number): PlainBucket[] {
  const buckets: PlainBucket[] = [];
  const gauges = new Map<string, number>();
  const gauge = (e: Entry): void => {
    if (e.type === 'heap-snapshot-save' && typeof e.uncompressedSize === 'number') gauges.set(`snapshot:${e.vatID}`, e.uncompressedSize);
    if (e.type === 'cosmic-swingset-after-commit-stats' && typeof e.memoryUsage?.heapUsed === 'number') gauges.set('kernelHeap', e.memoryUsage.heapUsed);
  };
  let current: PlainBucket | undefined;
  let count = 0;
  const close = (): void => {
    if (current) current.gauges = new Map(gauges);
  };
  for (const item of plainRead(file)) {
    if ('outside' in item) {
      gauge(item.outside);
      continue;
    }
    const { start, items, finish } = item.crank;
    if (count % n === 0) {
      close();
      current = { cranks: 0, crankTime: 0, deliveries: 0, syscalls: 0, gauges: new Map() };
      buckets.push(current);
    }
    count += 1;
    const b = current as PlainBucket;
    b.cranks += 1;
    if (finish) b.crankTime += (finish.time - start.time) * 1000;
    for (const e of items) {
      if (e.type === 'deliver' && e.replay !== true) b.deliveries += 1;
      else if (e.type === 'syscall' && e.replay !== true) b.syscalls += 1;
      else if (e.type === 'deliver-result' && e.replay !== true) {
        const usage = e.dr?.[2];
        if (typeof usage?.compute === 'number') b.computrons = (b.computrons ?? 0) + usage.compute;
        const vat = e.vatID ?? start.vatID ?? start.message?.vatID;
        if (typeof usage?.allocate === 'number') gauges.set(`heap:${vat}`, usage.allocate);
        if (typeof usage?.currentHeapCount === 'number') gauges.set(`heapCount:${vat}`, usage.currentHeapCount);
      } else gauge(e);
    }
  }
  close();
  return buckets;
}

async function series(file: string, bucketing: Bucketing, maxPoints?: number): Promise<SeriesData> {
  const collector = new SeriesCollector(bucketing, maxPoints);
  await analysisPass({ inputs: [file], onOpen: (source) => collector.beginFile(source.name) }, SERIES_READS, collector);
  return collector.finish();
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
      expect(data.buckets).toBe(expected.length);
      expect(data.bucketsPerPoint).toBe(1);
      expect(data.points.length).toBe(expected.length);
      expect(column(data, 'cranks')).toEqual(expected.map((b) => b.cranks));
      expect(column(data, 'deliveries')).toEqual(expected.map((b) => b.deliveries));
      expect(column(data, 'syscalls')).toEqual(expected.map((b) => b.syscalls));
      expect(column(data, 'computrons')).toEqual(expected.map((b) => b.computrons ?? null));
      column(data, 'crankTime').forEach((v, i) => expect(v).toBeCloseTo(expected[i]?.crankTime as number, 6));
      const gaugeIDs = new Set(expected.flatMap((b) => [...b.gauges.keys()]));
      expect(new Set(data.columns.filter((c) => c.kind === 'gauge').map((c) => c.id))).toEqual(gaugeIDs);
      for (const id of gaugeIDs) expect(column(data, id)).toEqual(expected.map((b) => b.gauges.get(id) ?? null));
      // x: the first crank's number, counted on.
      const first = data.points[0];
      expect(first?.x).toBe(0);
      expect(data.points.map((p) => p.x)).toEqual(expected.map((_, i) => i * n));
      expect(first?.from).toBe(`cranks 0-${n - 1}`);
    });
  }

  it('sees the gauges the slogs have: XS heap and snapshots in a-xs-3, the kernel heap in chain-A', async () => {
    const xs = await series(FIXTURE('a-xs-3'), new EveryNCranks(250));
    const ids = xs.columns.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(['heap:v1', 'heapCount:v1', 'snapshot:v1']));
    const chain = await series(CHAIN_A, new EveryNCranks(250));
    expect(chain.columns.map((c) => c.id)).toContain('kernelHeap');
  });

  it('reads the same through the fast line reader as through the plain path', async () => {
    const fast = await series(FIXTURE('a-xs-3'), new EveryNCranks(7));
    const saved = process.env.SLOGULATE_FAST;
    process.env.SLOGULATE_FAST = '0';
    try {
      expect(await series(FIXTURE('a-xs-3'), new EveryNCranks(7))).toEqual(fast);
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
    const total = data.points.reduce((s, p) => s + (p.columns[i]?.mean as number) * p.buckets, 0);
    expect(total).toBeCloseTo(expected.reduce((s, b) => s + b.syscalls, 0), 6);
    expect(Math.max(...data.points.map((p) => p.columns[i]?.max as number))).toBe(Math.max(...expected.map((b) => b.syscalls)));
    expect(Math.min(...data.points.map((p) => p.columns[i]?.min as number))).toBe(Math.min(...expected.map((b) => b.syscalls)));
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

  it('takes a strategy of its own: per chain block (cosmic-swingset-begin-block)', async () => {
    /** A per-block strategy as the block model will plug one in. */
    class PerBlock implements Bucketing {
      readonly axis = 'block';
      private current: BucketKey | undefined;
      private last = -Infinity;
      entry(entry: SlogEntry): void {
        if (entry.type !== 'cosmic-swingset-begin-block') return;
        const height = Number(entry.blockHeight);
        // A block run again after a restart keeps its first bucket.
        this.current = height > this.last ? { x: height, name: `block ${height}` } : undefined;
        if (height > this.last) this.last = height;
      }
      bucketOf(crank: Crank): BucketKey | undefined {
        void crank;
        return this.current;
      }
    }
    const data = await series(CHAIN_A, new PerBlock());
    expect(data.axis).toBe('block');
    const xs = data.points.map((p) => p.x);
    expect(xs.length).toBeGreaterThan(50);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    expect(data.points[0]?.from).toMatch(/^block \d+: cranks? \d+/);
    // Every crank is in a block bucket or left out (the re-run blocks, bootstrap).
    const cranks = plainRead(CHAIN_A).filter((x) => 'crank' in x).length;
    expect(column(data, 'cranks').reduce((s: number, v) => s + (v ?? 0), 0) + data.leftOut).toBe(cranks);
  });
});
