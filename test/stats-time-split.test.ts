/**
 * `slogulate stats`' tables of where the crank time went (issue 28 item 3):
 * the parts of all cranks and per vat, page-ins, heap snapshots, GC per
 * vat, stalls (`--gap`), in text, markdown and `--json`; against figures
 * computed here by plain loops over the slogs' JSON lines
 * (test/time-split-loop.ts for the parts and stalls, small loops below for
 * snapshots and GC), never the program's own output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrankPartsStats, SlogAggregate } from '../src/analyses/stats/aggregate.js';
import { StallList } from '../src/analyses/stats/stall-list.js';
import { statsOf } from '../src/run/analyses.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { runPass } from '../src/run/pass.js';
import { READ_NOTHING } from '../src/scan/reads.js';
import { ROOT, runCli, slogPath } from './helpers.js';
import { runMain } from './run-main.js';
import { loopCranks, loopDeliveries, loopStalls, slogEntries, us } from './time-split-loop.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const RESTART = join(REAL, 'restart-replay.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-stats-split-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chainA = slogEntries(CHAIN_A);
let chainAStats: SlogAggregate | undefined;
/** chain-A's aggregate, read once for the tests that need it. */
async function chainAAggregate(): Promise<SlogAggregate> {
  chainAStats ??= (await statsOf({ inputs: [CHAIN_A] })).aggregate;
  return chainAStats;
}

const partOf = (stats: CrankPartsStats, name: string): number => stats.parts.find((p) => p.part === name)?.micros ?? NaN;

// ---------- plain loops ----------

interface LoopSnapshots {
  saves: number;
  loads: number;
  compressMicros: number;
  dbSaveMicros: number;
  archiveWriteMicros: number;
  first: number | undefined;
  last: number | undefined;
  delta: number;
}

/** Per vatID: its heap-snapshot-save and -load lines, their seconds turned into whole µs and summed, the sizes. */
function loopSnapshots(entries: readonly Json[]): Map<string, LoopSnapshots> {
  const out = new Map<string, LoopSnapshots>();
  for (const e of entries) {
    if (e.type !== 'heap-snapshot-save' && e.type !== 'heap-snapshot-load') continue;
    let v = out.get(e.vatID);
    if (!v) {
      v = { saves: 0, loads: 0, compressMicros: 0, dbSaveMicros: 0, archiveWriteMicros: 0, first: undefined, last: undefined, delta: 0 };
      out.set(e.vatID, v);
    }
    if (e.type === 'heap-snapshot-load') {
      v.loads += 1;
      continue;
    }
    v.saves += 1;
    v.compressMicros += typeof e.compressSeconds === 'number' ? us(e.compressSeconds) : 0;
    v.dbSaveMicros += typeof e.dbSaveSeconds === 'number' ? us(e.dbSaveSeconds) : 0;
    v.archiveWriteMicros += typeof e.archiveWriteSeconds === 'number' ? us(e.archiveWriteSeconds) : 0;
    if (typeof e.uncompressedSize === 'number') {
      v.first ??= e.uncompressedSize;
      v.last = e.uncompressedSize;
    }
    v.delta += typeof e.uncompressedSizeDelta === 'number' ? e.uncompressedSizeDelta : 0;
  }
  return out;
}

interface LoopGc {
  deliveries: number;
  micros: number;
  largest: number;
  unknown: number;
}

/**
 * Per vatID, the GC of its live bringOutYourDead deliveries (measure-boyd-gc.py's
 * firsttime): with a worker's list, its second time less its first (receipt to
 * the first event's send, or to the result's send), when the list holds
 * 2 + 2 x (syscalls and the vat's consoles); without one (a local worker),
 * deliver to the first syscall, or to the deliver-result.
 */
function loopGc(entries: readonly Json[]): Map<string, LoopGc> {
  const out = new Map<string, LoopGc>();
  let open: { deliver: Json; firstSyscall: number | undefined; events: number } | undefined;
  for (const e of entries) {
    if (e.replay === true) continue;
    if (e.type === 'deliver') open = e.kd?.[0] === 'bringOutYourDead' ? { deliver: e, firstSyscall: undefined, events: 0 } : undefined;
    if (!open) continue;
    if (e.type === 'syscall') {
      open.firstSyscall ??= us(e.time);
      open.events += 1;
    }
    if (e.type === 'console' && e.source !== 'kernel') open.events += 1;
    if (e.type !== 'deliver-result') continue;
    const vatID = open.deliver.vatID as string;
    let v = out.get(vatID);
    if (!v) {
      v = { deliveries: 0, micros: 0, largest: 0, unknown: 0 };
      out.set(vatID, v);
    }
    v.deliveries += 1;
    const list = e.dr?.[2]?.timestamps as number[] | undefined;
    let gc: number | undefined;
    if (list === undefined) gc = (open.firstSyscall ?? us(e.time)) - us(open.deliver.time);
    else if (list.length === 2 + 2 * open.events) gc = us(list[1] as number) - us(list[0] as number);
    if (gc === undefined) v.unknown += 1;
    else {
      v.micros += gc;
      v.largest = Math.max(v.largest, gc);
    }
    open = undefined;
  }
  return out;
}

/** crankNum -> the vat of the crank's first live deliver. */
function crankVats(entries: readonly Json[]): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of entries) if (e.type === 'deliver' && e.replay !== true && !out.has(e.crankNum)) out.set(e.crankNum, e.vatID);
  return out;
}

// ---------- the tests ----------

describe('where the crank time went, on chain-A', () => {
  it('each part is the sum of the plain loop\'s, the parts add up to the delivery and routing crank time, snapshot is about 41 s of 112 s', async () => {
    const agg = await chainAAggregate();
    const cranks = loopCranks(chainA);
    const sum = (f: (c: (typeof cranks)[number]) => number): number => cranks.reduce((n, c) => n + f(c), 0);
    const split = agg.crankParts;
    expect(agg.abandoned.cranks).toBe(0);
    expect(split.cranks).toBe(cranks.length);
    expect(split.withoutParts).toBe(0);
    expect(split.totalMicros).toBe(sum((c) => c.total));
    expect(partOf(split, 'page-in')).toBe(sum((c) => c.pageIn));
    expect(partOf(split, 'replay')).toBe(sum((c) => c.replay));
    expect(partOf(split, 'snapshot')).toBe(sum((c) => c.snapshot));
    expect(partOf(split, 'syscall')).toBe(sum((c) => c.syscall));
    expect(partOf(split, 'kernel')).toBe(sum((c) => c.kernel));
    expect(partOf(split, 'vat') + partOf(split, 'pipe') + partOf(split, 'unknown')).toBe(sum((c) => c.vatAndPipe));
    // The rows that are no other part's add up to all, exactly.
    const topLevel = split.parts.filter((p) => p.within === undefined);
    expect(topLevel.map((p) => p.part)).toEqual(['page-in', 'vat', 'syscall', 'pipe', 'snapshot', 'kernel', 'unknown']);
    expect(topLevel.reduce((n, p) => n + p.micros, 0)).toBe(split.totalMicros);
    expect(topLevel.reduce((n, p) => n + p.share, 0)).toBeCloseTo(1, 9);
    // The totals' crank times sum float seconds: within a µs per crank of the whole-µs total.
    expect(Math.abs(agg.deliveryCranks.total + agg.routingCranks.total - split.totalMicros)).toBeLessThanOrEqual(cranks.length);
    // The figures: 48 snapshot saves are about 41 s of the 112 s.
    expect(split.totalMicros).toBeGreaterThan(112_000_000);
    expect(split.totalMicros).toBeLessThan(113_000_000);
    expect(partOf(split, 'snapshot')).toBeGreaterThan(40_500_000);
    expect(partOf(split, 'snapshot')).toBeLessThan(41_500_000);
    // Cranks where a part is not 0: snapshot in the 48 cranks that saved one.
    expect(split.parts.find((p) => p.part === 'snapshot')?.cranks).toBe(chainA.filter((e) => e.type === 'heap-snapshot-save').length);
  });

  it('per vat: each vat\'s delivery cranks, then routing, add up to all; a vat\'s page-in and snapshot are its cranks\' in the loop', async () => {
    const agg = await chainAAggregate();
    const cranks = loopCranks(chainA);
    const vats = crankVats(chainA);
    const byVat = new Map<string, { total: number; pageIn: number; snapshot: number; cranks: number }>();
    for (const c of cranks) {
      const vatID = vats.get(c.crankNum as number);
      if (vatID === undefined) continue;
      const v = byVat.get(vatID) ?? { total: 0, pageIn: 0, snapshot: 0, cranks: 0 };
      v.total += c.total;
      v.pageIn += c.pageIn;
      v.snapshot += c.snapshot;
      v.cranks += 1;
      byVat.set(vatID, v);
    }
    expect(agg.crankPartsByVat.map((v) => v.vatID)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10']);
    for (const v of agg.crankPartsByVat) {
      const loop = byVat.get(v.vatID);
      expect({ vat: v.vatID, cranks: v.cranks, total: v.totalMicros, pageIn: partOf(v, 'page-in'), snapshot: partOf(v, 'snapshot') }).toEqual({
        vat: v.vatID,
        ...loop,
      });
    }
    const routing = agg.routingCrankParts;
    expect(routing.cranks).toBe(chainA.filter((e) => e.type === 'crank-start' && e.crankType === 'routing').length);
    expect(partOf(routing, 'kernel')).toBe(routing.totalMicros);
    for (const part of agg.crankParts.parts) {
      const perVat = agg.crankPartsByVat.reduce((n, v) => n + partOf(v, part.part), 0) + partOf(routing, part.part);
      expect(perVat, part.part).toBe(part.micros);
    }
  });

  it('crank 1419 (v6 ledger, mint) is one of v6\'s page-ins; page-ins per vat are its cranks with page-in time, replays its start-replay lines', async () => {
    const agg = await chainAAggregate();
    const cranks = loopCranks(chainA);
    const vats = crankVats(chainA);
    const c1419 = cranks.find((c) => c.crankNum === 1419);
    expect(c1419?.pageIn).toBeGreaterThanOrEqual(1_300_000);
    for (const r of agg.replays) {
      const mine = cranks.filter((c) => vats.get(c.crankNum as number) === r.vatID && c.pageIn > 0);
      expect({ vat: r.vatID, pageIns: r.pageIns, pageInMicros: r.pageInMicros }).toEqual({
        vat: r.vatID,
        pageIns: mine.length,
        pageInMicros: mine.reduce((n, c) => n + c.pageIn, 0),
      });
      expect(r.replays).toBe(chainA.filter((e) => e.type === 'start-replay' && e.vatID === r.vatID).length);
      expect(r.deliveries).toBe(chainA.filter((e) => e.type === 'deliver' && e.replay === true && e.vatID === r.vatID).length);
    }
    expect(agg.replays.find((r) => r.vatID === 'v6')?.pageIns).toBeGreaterThan(0);
  });

  it('heap snapshots per vat: the heap-snapshot lines of each vatID, their seconds as µs, sizes first and last, the deltas summed', async () => {
    const agg = await chainAAggregate();
    const loop = loopSnapshots(chainA);
    expect(agg.snapshotsByVat.map((s) => s.vatID).sort()).toEqual([...loop.keys()].sort());
    for (const s of agg.snapshotsByVat) {
      const l = loop.get(s.vatID) as LoopSnapshots;
      expect(s).toMatchObject({
        saves: l.saves,
        loads: l.loads,
        compressMicros: l.compressMicros,
        dbSaveMicros: l.dbSaveMicros,
        archiveWriteMicros: l.archiveWriteMicros,
        firstUncompressedSize: l.first,
        lastUncompressedSize: l.last,
        uncompressedSizeDelta: l.delta,
      });
    }
    expect(agg.snapshotsByVat.reduce((n, s) => n + s.saves, 0)).toBe(48);
  });

  it('GC per vat: each bringOutYourDead delivery\'s receipt to first send by the worker\'s list', async () => {
    const agg = await chainAAggregate();
    const loop = loopGc(chainA);
    expect(agg.gcByVat.map((g) => g.vatID).sort()).toEqual([...loop.keys()].sort());
    for (const g of agg.gcByVat) {
      const l = loop.get(g.vatID) as LoopGc;
      expect({ vat: g.vatID, deliveries: g.deliveries, gc: g.gcMicros, largest: g.largestMicros, unknown: g.unknown }).toEqual({
        vat: g.vatID,
        deliveries: l.deliveries,
        gc: l.micros,
        largest: l.largest,
        unknown: l.unknown,
      });
    }
    // The crank parts' gc is the same time, summed by crank.
    expect(agg.gcByVat.reduce((n, g) => n + g.gcMicros, 0)).toBe(partOf(agg.crankParts, 'gc'));
  });

  it('stalls (the default 1 s): as the plain loop finds them', async () => {
    const agg = await chainAAggregate();
    const loop = loopStalls(chainA, 1);
    expect(agg.stalls?.gapSeconds).toBe(1);
    expect(agg.stalls?.count).toBe(loop.length);
    expect(agg.stalls?.totalMicros).toBe(loop.reduce((n, s) => n + s.micros, 0));
    expect(agg.stalls?.list.map(({ micros, crankNum, blockNum, runNum, before, after }) => ({ micros, crankNum, blockNum, runNum, before, after }))).toEqual(loop);
  });
});

describe('the parts of every crank, summed, on other slogs', () => {
  it.each([
    ['a-xs-3', slogPath('a-xs-3')],
    ['b-local-5', slogPath('b-local-5')],
    ['y2022-create-vat', join(REAL, 'y2022-create-vat.slog')],
    ['mid-crank-start', join(REAL, 'mid-crank-start.slog')],
  ])('%s', async (_name, file) => {
    const entries = slogEntries(file);
    const { aggregate } = await statsOf({ inputs: [file] });
    const cranks = loopCranks(entries);
    const sum = (f: (c: (typeof cranks)[number]) => number): number => cranks.reduce((n, c) => n + f(c), 0);
    const split = aggregate.crankParts;
    expect(split.cranks).toBe(cranks.length);
    expect(split.totalMicros).toBe(sum((c) => c.total));
    expect(partOf(split, 'page-in')).toBe(sum((c) => c.pageIn));
    expect(partOf(split, 'snapshot')).toBe(sum((c) => c.snapshot));
    expect(partOf(split, 'syscall')).toBe(sum((c) => c.syscall));
    expect(partOf(split, 'kernel')).toBe(sum((c) => c.kernel));
    expect(split.parts.filter((p) => p.within === undefined).reduce((n, p) => n + p.micros, 0)).toBe(split.totalMicros);
    // Cranks left out: one the slog starts inside (entries with a crankNum before the first crank-start), one it ends inside.
    const firstStart = entries.findIndex((e) => e.type === 'crank-start');
    const startsInside = entries.slice(0, firstStart).some((e) => typeof e.crankNum === 'number') ? 1 : 0;
    const lastStart = entries.map((e) => e.type).lastIndexOf('crank-start');
    const endsInside = entries.slice(lastStart).some((e) => e.type === 'crank-finish') ? 0 : 1;
    expect(split.withoutParts).toBe(startsInside + endsInside);
  });

  it('mid-crank-start: the crank it starts inside is left out, and the note says so', async () => {
    const r = await runMain(['stats', join(REAL, 'mid-crank-start.slog')]);
    expect(r.stdout).toContain('; 1 crank without crank-start or crank-finish left out\n');
  });
});

describe('GC of local workers: deliver to the first syscall (or the deliver-result)', () => {
  it.each(['a-local-3', 'b-local-5', 'a-xs-3'])('%s', async (name) => {
    const file = slogPath(name);
    const { aggregate } = await statsOf({ inputs: [file] });
    const loop = loopGc(slogEntries(file));
    expect(aggregate.gcByVat.length).toBeGreaterThan(0);
    expect(Object.fromEntries(aggregate.gcByVat.map((g) => [g.vatID, { deliveries: g.deliveries, micros: g.gcMicros, largest: g.largestMicros, unknown: g.unknown }]))).toEqual(
      Object.fromEntries(loop),
    );
  });
});

describe('stats --json and --gap', () => {
  it('chain-A --gap 0.2: every stall the plain loop finds, with its time, length, entries, crank, block and run', async () => {
    const r = await runMain(['stats', '--json', '--gap', '0.2', CHAIN_A]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as Json;
    const loop = loopStalls(chainA, 0.2);
    expect(loop.length).toBeGreaterThan(100);
    expect(json.stalls.gapSeconds).toBe(0.2);
    expect(json.stalls.count).toBe(loop.length);
    const listed = (json.stalls.list as Json[]).map((s) => ({ micros: s.micros, crankNum: s.crankNum, blockNum: s.blockNum, runNum: s.runNum, before: s.before, after: s.after }));
    expect(listed).toEqual(loop);
    for (const s of json.stalls.list as Json[]) expect(s.micros).toBe(us(s.endTime) - us(s.startTime));
    // Whole µs everywhere in the new fields.
    for (const p of json.crankParts.parts as Json[]) expect(Number.isInteger(p.micros)).toBe(true);
    for (const s of json.snapshotsByVat as Json[]) expect(Number.isInteger(s.compressMicros)).toBe(true);
  });

  it('the longest stalls are listed, in slog order, when there are more than the list holds; all are counted', async () => {
    const list = new StallList(0.2, 10);
    await runPass({ inputs: [CHAIN_A], reads: READ_NOTHING, sink: { entry: () => undefined, crank: () => undefined }, settings: settingsFrom(), observe: (e, _line, place, facts) => list.observe(e, place, facts) });
    const loop = loopStalls(chainA, 0.2);
    const result = list.result();
    expect(result.count).toBe(loop.length);
    const longest = loop
      .map((s, i) => ({ s, i }))
      .sort((a, b) => b.s.micros - a.s.micros || a.i - b.i)
      .slice(0, 10)
      .sort((a, b) => a.i - b.i)
      .map((x) => x.s.micros);
    expect(result.list.map((s) => s.micros)).toEqual(longest);
  });

  it('a slog read again after a restart counts each stall once (restart-replay: read again)', async () => {
    const file = RESTART;
    const { aggregate, pass } = await statsOf({ inputs: [file], stallSeconds: 0.1 });
    expect(pass.held).toBe('read again');
    const loop = loopStalls(slogEntries(file), 0.1);
    expect(loop.length).toBeGreaterThan(0);
    expect(aggregate.stalls?.count).toBe(loop.length);
    expect(aggregate.stalls?.list.map((s) => s.micros)).toEqual(loop.map((s) => s.micros));
  });

  it('the stalls are the whole slog\'s whatever the selection; the parts are the selection\'s', async () => {
    const r = await runMain(['stats', '--json', '--vat', 'v6', CHAIN_A]);
    const json = JSON.parse(r.stdout) as Json;
    expect(json.stalls.count).toBe(loopStalls(chainA, 1).length);
    expect(json.crankPartsByVat.map((v: Json) => v.vatID)).toEqual(['v6']);
    expect(json.crankParts.totalMicros).toBe(json.crankPartsByVat[0].totalMicros);
    expect(json.routingCrankParts.cranks).toBe(0);
    // The vat's heap snapshots only.
    const v6 = loopSnapshots(chainA).get('v6') as LoopSnapshots;
    expect(json.snapshotsByVat.map((s: Json) => [s.vatID, s.saves, s.loads])).toEqual([['v6', v6.saves, v6.loads]]);
  });

  it('--gap takes a number of seconds above 0; anything else is a usage error', async () => {
    for (const bad of ['0', '-1', 'abc', '']) {
      const r = await runCli(['stats', '--gap', bad, 'a-local-3.slog']);
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toMatch(/--gap <seconds>.*expected a number of seconds above 0/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('the text and markdown tables', () => {
  it('chain-A: the parts right after the totals, readable, each row the JSON\'s figure', async () => {
    const agg = await chainAAggregate();
    const r = await runMain(['stats', '--gap', '1', CHAIN_A]);
    expect(r.status).toBe(0);
    const text = r.stdout;
    const titles = [...text.matchAll(/^([A-Z][^:\n]*):$/gm)].map((m) => m[1]);
    expect(titles).toEqual([
      'Totals',
      'Where the crank time went',
      'Syscalls by type',
      'Deliveries by vat',
      'Deliveries by vat and method',
      'Delivery cranks by vat',
      'Crank time by vat',
      'Deliveries by run trigger',
      'Page-ins and replays by vat',
      'Heap snapshots by vat',
      'Garbage collection by vat',
      'Stalls (more than 1 s between two entries)',
    ]);
    // The totals' times in a readable unit (the JSON has the exact µs): chain-A's 112 s of delivery crank time.
    expect(text).toMatch(new RegExp(`^delivery crank time +${(agg.deliveryCranks.total / 1e6).toFixed(2).replace('.', '\\.')} s$`, 'm'));
    const table = text.slice(text.indexOf('Where the crank time went:'));
    const seconds = (micros: number): string => `${(micros / 1e6).toFixed(2)} s`;
    const snapshot = partOf(agg.crankParts, 'snapshot');
    const share = `${((snapshot / agg.crankParts.totalMicros) * 100).toFixed(2)}%`;
    expect(table).toMatch(new RegExp(`^snapshot +${seconds(snapshot).replace('.', '\\.')} +${share.replace('.', '\\.')} +48 `, 'm'));
    expect(table).toMatch(/^ {2}replay +\d+\.\d\d s /m);
    expect(table).toMatch(/^ {2}gc +\d+\.\d\d s /m);
    expect(table).toMatch(new RegExp(`^all +${seconds(agg.crankParts.totalMicros).replace('.', '\\.')} +100\\.00% +${loopCranks(chainA).length} `, 'm'));
    // Stalls: one row per stall, the 15 s bundling of the kernel first.
    const stalls = text.slice(text.indexOf('Stalls ('));
    expect(stalls.split('\n')[2]).toMatch(/^2026-11-23T03:50:36\.381Z +15\.24 s +bundle-kernel-start +bundle-kernel-finish$/);
    expect(stalls).toContain(`stalls over the whole slog, whatever the selection: ${loopStalls(chainA, 1).length} (`);
  });

  it('markdown has the new tables too', async () => {
    const r = await runMain(['stats', '--format', 'markdown', slogPath('a-xs-3')]);
    for (const title of ['Where the crank time went', 'Crank time by vat', 'Heap snapshots by vat', 'Garbage collection by vat', 'Stalls \\(more than 1 s between two entries\\)']) {
      expect(r.stdout).toMatch(new RegExp(`^### ${title}\n\n\\| `, 'm'));
    }
    expect(r.stdout).toMatch(/^\| {3}replay \| /m);
  });
});

describe('hand-made: a worker timestamps list cut short', () => {
  it('its vat and pipe go to the unknown row, its GC to an unknown column, as the slog\'s figures say', async () => {
    // a-xs-3 with one bringOutYourDead's list cut short by one time.
    const lines = readFileSync(slogPath('a-xs-3'), 'utf8').split('\n');
    let cut = -1;
    let deliver = -1;
    for (let i = 0; i < lines.length && cut < 0; i += 1) {
      const e = lines[i] ? (JSON.parse(lines[i] as string) as Json) : undefined;
      if (e?.type === 'deliver' && e.replay !== true) deliver = e.kd?.[0] === 'bringOutYourDead' ? i : -1;
      if (e?.type === 'deliver-result' && deliver >= 0 && Array.isArray(e.dr?.[2]?.timestamps)) {
        e.dr[2].timestamps.pop();
        lines[i] = JSON.stringify(e);
        cut = i;
      }
    }
    expect(cut).toBeGreaterThan(0);
    const file = join(dir, 'cut-list.slog');
    writeFileSync(file, lines.join('\n'));
    const d = JSON.parse(lines[deliver] as string) as Json;
    // Its list is now of the wrong length: its crank's vat and pipe are unknown, every delivery's time less its syscalls (correlate-timestamps.py's reading).
    const rows = loopDeliveries(slogEntries(file)).filter((x) => x.crankNum === d.crankNum);
    expect(rows.find((x) => x.deliveryNum === d.deliveryNum)?.worker).toBeUndefined();
    const unknown = rows.reduce((n, x) => n + x.micros - x.syscallMicros, 0);
    const { aggregate } = await statsOf({ inputs: [file] });
    expect(partOf(aggregate.crankParts, 'unknown')).toBe(unknown);
    expect(aggregate.crankParts.parts.find((p) => p.part === 'vat')?.unknownIn).toBe(1);
    const gc = aggregate.gcByVat.find((g) => g.vatID === d.vatID);
    expect(gc?.unknown).toBe(1);
    const r = await runMain(['stats', file]);
    expect(r.stdout).toContain("; vat and pipe unknown in 1 crank (a worker's timestamps list unusable): on the unknown row");
    expect(r.stdout).toMatch(/^vat +name +bringOutYourDead +GC time +largest +unknown$/m);
    expect(r.stdout).toMatch(/^unknown +\d+(\.\d\d)? [mµ]?s +\d+\.\d\d% +1 /m);
  });
});
