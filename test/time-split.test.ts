/**
 * Where a crank's time went (src/model/time-split.ts, docs/time-split.md):
 * the parts the crank model puts on every crank, against figures a plain
 * loop computes from the slog's JSON lines (test/time-split-loop.ts), on the
 * shared slogs, and on hand-made lines for what they lack.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrankAssembler, type CrankSink } from '../src/model/assembler.js';
import type { Crank, CrankParts, DeliveryTimes } from '../src/model/crank.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { runPass } from '../src/run/pass.js';
import type { ReadPath } from '../src/scan/line-reader.js';
import { READ_NOTHING } from '../src/scan/reads.js';
import { ROOT } from './helpers.js';
import { readEntries, type Line } from './slog-lines.js';
import { loopCranks, loopDeliveries, slogEntries, us } from './time-split-loop.js';

const SHARED = join(ROOT, '..', 'shared', 'slogs');
const REAL = join(SHARED, 'real');
/** big-local-1200 (19 MB of gzip) is left to the bench: every other shared slog is read here. */
const TOO_BIG = ['big-local-1200.slog.gz'];
const ALL_SLOGS = [
  ...readdirSync(SHARED)
    .filter((n) => /\.(slog|jsonl|gz)$/.test(n) && !TOO_BIG.includes(n))
    .map((n) => join(SHARED, n)),
  ...readdirSync(REAL)
    .filter((n) => /\.(slog|jsonl)$/.test(n))
    .map((n) => join(REAL, n)),
  join(REAL, 'block-files-bot'),
];

interface Seen {
  crankNum: number;
  parts: CrankParts | undefined;
  deliveryTimes: readonly DeliveryTimes[];
  hasStart: boolean;
  hasFinish: boolean;
}

const seen = (c: Crank): Seen => ({ crankNum: c.crankNum, parts: c.parts, deliveryTimes: c.deliveryTimes, hasStart: c.start !== undefined, hasFinish: c.finish !== undefined });

/** How the sink takes syscalls: all held, spilled one by one, or never held (syscallsUnread). */
type Mode = 'held' | 'spilled' | 'unread';

function collector(mode: Mode, out: Seen[]): CrankSink {
  const crank = (c: Crank): void => {
    out.push(seen(c));
  };
  if (mode === 'spilled') return { entry: () => undefined, crank, spill: () => undefined };
  if (mode === 'unread') return { entry: () => undefined, crank, syscallsUnread: true };
  return { entry: () => undefined, crank };
}

/** Every crank of a slog as the crank model hands it over, in a pass on `path`, the sink taking syscalls as `mode` says. */
async function cranksOf(input: string, mode: Mode = 'held', path: ReadPath = 'fast'): Promise<Seen[]> {
  const out: Seen[] = [];
  const settings = { ...settingsFrom(), path, spillAt: mode === 'spilled' ? 1 : undefined };
  await runPass({ inputs: [input], reads: READ_NOTHING, sink: collector(mode, out), settings });
  return out;
}

/** The cranks of hand-made lines (read by both readers), through the crank model. */
function cranksOfLines(lines: Line[], mode: Mode = 'held'): Seen[] {
  const out: Seen[] = [];
  const assembler = new CrankAssembler(collector(mode, out), mode === 'spilled' ? { spillAt: 1 } : {});
  readEntries(lines, READ_NOTHING).forEach((e, i) => assembler.push(e, i + 1));
  assembler.end();
  return out;
}

const sumOf = (p: CrankParts): number => p.pageIn + (p.vat ?? 0) + p.syscall + (p.pipe ?? 0) + p.snapshot + p.kernel + p.unknown;

function expectWhole(p: CrankParts, where: string): void {
  expect(sumOf(p), `${where}: parts add up to the total`).toBe(p.total);
  const parts = { total: p.total, pageIn: p.pageIn, replay: p.replay, vat: p.vat ?? 0, syscall: p.syscall, pipe: p.pipe ?? 0, snapshot: p.snapshot, kernel: p.kernel, unknown: p.unknown, gc: p.gc ?? 0 };
  for (const [name, value] of Object.entries(parts)) {
    expect(Number.isInteger(value), `${where}: ${name} ${value} is whole µs`).toBe(true);
    expect(value, `${where}: ${name}`).toBeGreaterThanOrEqual(0);
  }
  expect(p.replay, `${where}: replay is part of page-in`).toBeLessThanOrEqual(p.pageIn);
  expect(p.vat === undefined, `${where}: vat and pipe unknown together`).toBe(p.pipe === undefined);
  if (p.vat !== undefined) expect(p.unknown, where).toBe(0);
}

describe('on every shared slog', () => {
  it.each(ALL_SLOGS.map((f) => [f.slice(SHARED.length + 1), f]))('%s: every crank with both ends has parts that add up to its total, none below 0', async (name, file) => {
    const cranks = await cranksOf(file);
    // Three small slogs of other shapes have no crank with both ends (SLOG-FORMAT.md's table of real slogs).
    const none = ['real/chain-shapes.synthetic.slog', 'real/console-no-level.slog', 'real/lone-deliver-result.slog'].includes(name);
    expect(cranks.filter((c) => c.parts !== undefined).length > 0, name).toBe(!none);
    for (const c of cranks) {
      const where = `${name} crank ${c.crankNum}`;
      if (!c.hasStart || !c.hasFinish) {
        expect(c.parts, `${where}: no total without both ends`).toBeUndefined();
        continue;
      }
      expect(c.parts, where).toBeDefined();
      expectWhole(c.parts as CrankParts, where);
    }
  });

  it('the same parts whatever the sink holds (all syscalls, spilled one by one, none) and whichever path reads the lines', async () => {
    for (const file of [join(REAL, 'chain-A.slog'), join(SHARED, 'a-xs-3.slog'), join(REAL, 'restart-replay.slog'), join(REAL, 'y2022-create-vat.slog')]) {
      const held = await cranksOf(file, 'held');
      expect(await cranksOf(file, 'spilled'), file).toEqual(held);
      expect(await cranksOf(file, 'unread'), file).toEqual(held);
      expect(await cranksOf(file, 'held', 'plain'), file).toEqual(held);
    }
  });

  it('chain-bot in its contextual and per-block forms: the same parts', async () => {
    const plain = await cranksOf(join(REAL, 'chain-bot.slog'));
    expect(plain.filter((c) => c.parts?.snapshot).length).toBeGreaterThan(0);
    expect(await cranksOf(join(REAL, 'contextual-bot.jsonl'))).toEqual(plain);
    expect(await cranksOf(join(REAL, 'block-files-bot'))).toEqual(plain);
  });
});

describe('against a plain loop over the lines', () => {
  /** Page-in, replay, snapshot, syscalls, the deliveries' time and kernel of every crank with both ends, as time-split-loop.ts splits it. */
  it.each([
    ['real/chain-A.slog'],
    ['a-xs-3.slog'],
    ['a-local-3.slog'],
    ['b-local-5.slog'],
    ['real/restart-replay.slog'],
    ['real/y2022-create-vat.slog'],
    ['real/mid-crank-start.slog'],
    ['real/chain-bot.slog'],
  ])('%s: every crank', async (name) => {
    const file = join(SHARED, name);
    const model = (await cranksOf(file)).filter((c) => c.parts !== undefined);
    const loop = loopCranks(slogEntries(file));
    const mine = model.map((c) => {
      const p = c.parts as CrankParts;
      return { total: p.total, pageIn: p.pageIn, replay: p.replay, snapshot: p.snapshot, syscall: p.syscall, vatAndPipe: (p.vat ?? 0) + (p.pipe ?? 0) + p.unknown, kernel: p.kernel };
    });
    expect(mine).toEqual(loop.map(({ crankNum: _, ...figures }) => figures));
    // The slog's own figures: page-in and snapshot where it has them.
    if (name === 'real/chain-A.slog' || name === 'a-xs-3.slog') expect(mine.filter((c) => c.snapshot > 0).length).toBeGreaterThan(10);
    if (name === 'real/chain-A.slog' || name === 'real/restart-replay.slog') expect(mine.filter((c) => c.replay > 0).length).toBeGreaterThan(5);
  });

  it.each([['a-xs-3.slog'], ['real/y2022-create-vat.slog'], ['real/chain-A.slog'], ['a-local-3.slog']])(
    '%s: per delivery, worker, pipe, syscall and GC µs as correlate-timestamps.py and measure-boyd-gc.py compute them',
    async (name) => {
      const file = join(SHARED, name);
      const model = (await cranksOf(file)).flatMap((c) => c.deliveryTimes);
      const loop = loopDeliveries(slogEntries(file));
      expect(model.length).toBe(loop.length);
      expect(
        model.map((d) => ({ deliveryNum: d.deliveryNum, dispatch: d.dispatch, micros: d.micros, syscallMicros: d.syscallMicros, syscalls: d.syscalls, consoles: d.consoles, worker: d.workerMicros, pipe: d.pipeMicros, gc: d.gcMicros })),
      ).toEqual(loop.map(({ crankNum: _, ...figures }) => figures));
      const listed = loop.filter((d) => d.pipe !== undefined && d.pipe > 0);
      const boyd = loop.filter((d) => d.gc !== undefined);
      if (name !== 'a-local-3.slog') {
        // XS workers: nearly every delivery has its list, and some bringOutYourDead.
        expect(listed.length / loop.length, name).toBeGreaterThan(0.9);
        expect(boyd.length, name).toBeGreaterThan(2);
      } else {
        expect(listed.length).toBe(0);
      }
    },
  );
});

describe('chain-A (issue 28)', () => {
  it('crank 808 is a snapshot, 1419 a page-in, not vat code', async () => {
    const cranks = await cranksOf(join(REAL, 'chain-A.slog'));
    const one = (n: number): CrankParts => cranks.find((c) => c.crankNum === n)?.parts as CrankParts;
    const c808 = one(808);
    expect(c808.snapshot).toBeGreaterThanOrEqual(1_800_000);
    expect(c808.vat).toBeLessThan(60_000);
    const c1419 = one(1419);
    expect(c1419.pageIn).toBeGreaterThanOrEqual(1_300_000);
    expect(Math.abs(c1419.replay - 454_000)).toBeLessThan(2_000);
    expect(c1419.vat).toBeLessThan(40_000);
    // From its lines: its last deliver-result, to the save that restarts the worker, to the load.
    const lines = slogEntries(join(REAL, 'chain-A.slog'));
    const lastResult = lines.findLastIndex((e) => e.type === 'deliver-result' && e.crankNum === 808);
    const save = lines.findIndex((e, i) => i > lastResult && e.type === 'heap-snapshot-save');
    const load = lines.findIndex((e, i) => i > save && e.type === 'heap-snapshot-load');
    expect([lines[save]?.vatID, lines[save]?.restartWorker, lines[load]?.vatID]).toEqual(['v5', true, 'v5']);
    expect(c808.snapshot).toBe(us(lines[load]?.time) - us(lines[lastResult]?.time));
  });
});

// ---- hand-made lines

const T0 = 1795400000;
/** Lines of crank `n`, times in µs after T0. */
const at = (micros: number): number => T0 + micros / 1e6;
const start = (n: number, t: number, crankType = 'delivery'): Line => ({ type: 'crank-start', crankType, crankNum: n, time: at(t) });
const finish = (n: number, t: number): Line => ({ type: 'crank-finish', crankType: 'delivery', crankNum: n, time: at(t) });
const deliver = (n: number, t: number, dispatch = 'message', vatID = 'v1', deliveryNum = 1): Line => ({
  type: 'deliver',
  crankNum: n,
  vatID,
  deliveryNum,
  replay: false,
  dispatch,
  kd: [dispatch],
  vd: [dispatch],
  time: at(t),
});
const result = (n: number, t: number, timestamps: number[] | null, vatID = 'v1', deliveryNum = 1): Line => ({
  type: 'deliver-result',
  crankNum: n,
  vatID,
  deliveryNum,
  replay: false,
  dr: ['ok', null, timestamps === null ? null : { compute: 1, timestamps: timestamps.map(at) }],
  time: at(t),
});
const syscall = (n: number, t: number, replay = false): Line => ({ type: 'syscall', ...(replay ? {} : { crankNum: n }), vatID: 'v1', replay, syscall: 'vatstoreGet', vsc: ['vatstoreGet', 'k'], time: at(t) });
const sysResult = (n: number, t: number, replay = false): Line => ({ type: 'syscall-result', ...(replay ? {} : { crankNum: n }), vatID: 'v1', replay, syscall: 'vatstoreGet', vsr: ['ok', null], time: at(t) });

/** A delivery from `t` with `count` syscalls, each 10 µs in the kernel, 5 µs each way in the pipe, 20 µs of vat code before each; its worker list. */
function delivery(n: number, t: number, count: number, dispatch = 'message'): { lines: Line[]; end: number; list: number[] } {
  const lines: Line[] = [deliver(n, t, dispatch)];
  const list: number[] = [t + 5];
  let now = t + 5;
  for (let i = 0; i < count; i += 1) {
    now += 20;
    list.push(now);
    lines.push(syscall(n, now + 5));
    lines.push(sysResult(n, now + 15));
    now += 20;
    list.push(now);
  }
  now += 20;
  list.push(now);
  return { lines, end: now + 5, list };
}

function onlyCrank(lines: Line[], mode: Mode = 'held'): Seen {
  const cranks = cranksOfLines(lines, mode);
  expect(cranks.length).toBe(1);
  expect(cranksOfLines(lines, mode === 'held' ? 'unread' : 'held')).toEqual(cranks);
  return cranks[0] as Seen;
}

describe('hand-made lines', () => {
  it('a delivery with its list: vat, pipe and syscalls from the worker\'s clock', () => {
    const d = delivery(1, 100, 3);
    const c = onlyCrank([start(1, 0), ...d.lines, result(1, d.end, d.list), finish(1, d.end + 50)]);
    const p = c.parts as CrankParts;
    expect(p).toEqual({ total: d.end + 50, pageIn: 0, replay: 0, vat: 4 * 20, syscall: 3 * 10, pipe: 3 * 10 + 10, snapshot: 0, kernel: 100 + 50, unknown: 0, gc: undefined });
    expect(c.deliveryTimes).toEqual([
      { deliveryNum: 1, vatID: 'v1', dispatch: 'message', micros: d.end - 100, syscallMicros: 30, syscalls: 3, consoles: 0, workerMicros: 80, pipeMicros: 40, gcMicros: undefined },
    ]);
    expectWhole(p, 'listed');
  });

  it('101 syscalls, the list capped at 100 entries: vat and pipe unknown, their time in unknown', () => {
    const d = delivery(1, 100, 101);
    const c = onlyCrank([start(1, 0), ...d.lines, result(1, d.end, d.list.slice(0, 100)), finish(1, d.end + 50)], 'spilled');
    const p = c.parts as CrankParts;
    expect(p.vat).toBeUndefined();
    expect(p.pipe).toBeUndefined();
    expect(p.syscall).toBe(1010);
    expect(p.unknown).toBe(d.end - 100 - 1010);
    expect(p.kernel).toBe(150);
    expect(c.deliveryTimes[0]).toMatchObject({ syscalls: 101, workerMicros: undefined, pipeMicros: undefined });
    expectWhole(p, '101 syscalls');
  });

  it('a list cut short, or with a part below 0: unknown, never guessed', () => {
    const d = delivery(1, 100, 2);
    const short = onlyCrank([start(1, 0), ...d.lines, result(1, d.end, d.list.slice(0, 5)), finish(1, d.end + 50)]).parts as CrankParts;
    expect([short.vat, short.pipe, short.unknown]).toEqual([undefined, undefined, d.end - 100 - 20]);
    // The worker received the delivery before the kernel sent it.
    const early = [90, ...d.list.slice(1)];
    const negative = onlyCrank([start(1, 0), ...d.lines, result(1, d.end, early), finish(1, d.end + 50)]).parts as CrankParts;
    expect([negative.vat, negative.pipe, negative.unknown]).toEqual([undefined, undefined, d.end - 100 - 20]);
    // Its syscall answered (by the worker's clock) before the kernel answered it.
    const answeredEarly = [...d.list];
    answeredEarly[2] = 100 + 5 + 20 + 12;
    expect((onlyCrank([start(1, 0), ...d.lines, result(1, d.end, answeredEarly), finish(1, d.end + 50)]).parts as CrankParts).vat).toBeUndefined();
    expectWhole(short, 'short');
    expectWhole(negative, 'negative');
  });

  it('a local worker (no list): vat is the delivery less its syscalls, pipe 0; a bringOutYourDead\'s GC is deliver to its first syscall', () => {
    const lines = [start(1, 0), deliver(1, 100, 'bringOutYourDead'), syscall(1, 400), sysResult(1, 410), syscall(1, 500), sysResult(1, 530), result(1, 600, null), finish(1, 700)];
    const c = onlyCrank(lines);
    expect(c.parts).toEqual({ total: 700, pageIn: 0, replay: 0, vat: 500 - 40, syscall: 40, pipe: 0, snapshot: 0, kernel: 200, unknown: 0, gc: 300 });
    expect(c.deliveryTimes[0]?.gcMicros).toBe(300);
    // None: to its result.
    const none = onlyCrank([start(1, 0), deliver(1, 100, 'bringOutYourDead'), result(1, 250, null), finish(1, 300)]);
    expect(none.parts?.gc).toBe(150);
  });

  it('a bringOutYourDead with its list: GC is receipt to its first syscall by the worker\'s clock', () => {
    const d = delivery(1, 100, 2, 'bringOutYourDead');
    const c = onlyCrank([start(1, 0), ...d.lines, result(1, d.end, d.list), finish(1, d.end + 50)]);
    expect(c.parts?.gc).toBe(20);
  });

  it('two deliveries, then a heap snapshot saved with restartWorker and loaded: snapshot from the last result to the load, the gap between the deliveries kernel', () => {
    const lines = [
      start(1, 0),
      deliver(1, 100, 'bringOutYourDead'),
      result(1, 200, null),
      deliver(1, 260, 'bringOutYourDead', 'v1', 2),
      result(1, 300, null, 'v1', 2),
      { type: 'heap-snapshot-save', vatID: 'v1', snapshotID: 'ab', endPosition: 3, compressSeconds: 0.001, restartWorker: true, time: at(2300) },
      { type: 'heap-snapshot-load', vatID: 'v1', snapPos: 3, hash: 'ab', time: at(2500) },
      finish(1, 2600),
    ];
    const c = onlyCrank(lines);
    expect(c.parts).toEqual({ total: 2600, pageIn: 0, replay: 0, vat: 140, syscall: 0, pipe: 0, snapshot: 2200, kernel: 260, unknown: 0, gc: 140 });
    expect(c.deliveryTimes.map((d) => d.deliveryNum)).toEqual([1, 2]);
    // Without restartWorker, the worker is not restarted from the save: the load after it is no part of the snapshot (nor a page-in, with no delivery after it).
    const saved = lines.map((l) => (l.type === 'heap-snapshot-save' ? { ...l, restartWorker: false } : l));
    expect(onlyCrank(saved).parts?.snapshot).toBe(2000);
  });

  it('a page-in: snapshot load and replay before the delivery (replayed entries are page-in, not deliveries or syscalls)', () => {
    const lines = [
      start(1, 0),
      { type: 'clist', crankNum: 1, mode: 'import', vatID: 'v1', kobj: 'kp1', vobj: 'p-1', time: at(10) },
      { type: 'heap-snapshot-load', vatID: 'v1', snapPos: 4, hash: 'ab', time: at(1000) },
      { type: 'start-replay', vatID: 'v1', deliveries: 1, time: at(5000) },
      { ...deliver(1, 5100), replay: true, crankNum: undefined },
      syscall(1, 5200, true),
      sysResult(1, 5300, true),
      { ...result(1, 5400, null), replay: true, crankNum: undefined },
      { type: 'finish-replay', vatID: 'v1', time: at(5500), seconds: 0.0005 },
      deliver(1, 6000),
      result(1, 6100, null),
      finish(1, 6200),
    ];
    const c = onlyCrank(lines);
    expect(c.parts).toEqual({ total: 6200, pageIn: 6000, replay: 500, vat: 100, syscall: 0, pipe: 0, snapshot: 0, kernel: 100, unknown: 0, gc: undefined });
    expect(c.deliveryTimes.length).toBe(1);
    // Without its start-replay, the replay is finish-replay's own seconds.
    const noStart = lines.filter((l) => l.type !== 'start-replay').map((l) => (l.type === 'finish-replay' ? { ...l, seconds: 0.0007 } : l));
    expect(onlyCrank(noStart).parts).toMatchObject({ pageIn: 6000, replay: 700 });
    // A load of another vat: no page-in of this one, all kernel.
    const other = lines.filter((l) => l.type !== 'start-replay' && l.type !== 'finish-replay').map((l) => (l.type === 'heap-snapshot-load' ? { ...l, vatID: 'v2' } : l));
    expect(onlyCrank(other).parts).toMatchObject({ pageIn: 0, replay: 0, kernel: 6100 });
  });

  it('a routing crank is all kernel; a crank without its crank-start has no parts', () => {
    const routing = onlyCrank([start(1, 0, 'routing'), finish(1, 118)]);
    expect(routing.parts).toEqual({ total: 118, pageIn: 0, replay: 0, vat: 0, syscall: 0, pipe: 0, snapshot: 0, kernel: 118, unknown: 0, gc: undefined });
    expect(routing.deliveryTimes).toEqual([]);
    const noStart = onlyCrank([deliver(1, 100), result(1, 200, null), finish(1, 300)]);
    expect(noStart.parts).toBeUndefined();
    expect(noStart.deliveryTimes.map((d) => d.micros)).toEqual([100]);
  });

  it('consoles the vat wrote are events of its list, with no kernel time; the kernel\'s own are not', () => {
    const lines: Line[] = [start(1, 0), deliver(1, 100)];
    // Worker: receipt 105, console sent 125 and back 135 (kernel logged it at 130), then a kernel console, result sent 160.
    lines.push({ type: 'console', source: 'liveslots', state: 'delivery', crankNum: 1, vatID: 'v1', level: 'log', args: ['x'], time: at(130) });
    lines.push({ type: 'console', source: 'kernel', crankNum: 1, vatID: 'v1', args: ['y'], time: at(140) });
    lines.push(result(1, 170, [105, 125, 135, 160]), finish(1, 200));
    const c = onlyCrank(lines);
    expect(c.deliveryTimes[0]).toMatchObject({ consoles: 1, syscallMicros: 0, workerMicros: 20 + 25, pipeMicros: 5 + 5 + 5 + 10 });
    expectWhole(c.parts as CrankParts, 'consoles');
  });

  it('a delivery that gets no result: its syscalls are syscalls, the rest unknown', () => {
    const c = onlyCrank([start(1, 0), deliver(1, 100), syscall(1, 150), sysResult(1, 170), finish(1, 300)]);
    expect(c.parts).toMatchObject({ vat: undefined, pipe: undefined, syscall: 20, unknown: 200 - 20, kernel: 100 });
    expect(c.deliveryTimes).toEqual([]);
  });
});
