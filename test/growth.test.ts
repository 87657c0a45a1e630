/**
 * `slogulate growth` against the slogs themselves: at the end of every
 * shared slog (../shared/slogs, ../shared/slogs/real, the per-block folder),
 * each vat's alive c-list (the exact set of (kref, vref) pairs, and the
 * count per kind) equals what a plain loop over the JSON lines makes of the
 * kernel's own `clist` entries: import/export adds, drop removes, a
 * terminated vat's vat-cleanup-complete removes all, the bootstrap message
 * names each static vat's root (its o+0, exported when the kernel made the
 * vat, before the slog), a message delivered to an export the c-list lacks
 * proves an entry made before the slog; of a crank a restart ran again,
 * the last execution counts, and a restart that runs again from the slog's
 * first crank starts over from nothing (a new kernel's slog after
 * another's: slogs end to end, as the bench's copies). At the end of chain-A and chain-bot, the
 * c-lists' count is the kernel's own clistEntries. Where a slog has `kernel-stats` entries, each
 * block's change of the kernel's gauges equals what those entries say.
 * Hand-made lines for the edges: a drop of an entry never added, a slog cut
 * inside a crank, a terminated vat, an aborted crank, round marks.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { growthResult } from '../src/analyses/growth/growth-result.js';
import { growthText } from '../src/analyses/growth/growth-text.js';
import { growthOf } from '../src/run/growth.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { eachLine } from './slog-facts.js';
import { ROOT, SLOGS, withRoundMarks } from './helpers.js';
import { runInProcess } from './run-main.js';
import { chainSlog } from '../scripts/bench/inputs.js';

const SHARED = join(ROOT, '..', 'shared', 'slogs');
const REAL = join(SHARED, 'real');
const BLOCKS = join(REAL, 'block-files-bot');
const INPUTS = [
  ...readdirSync(SHARED)
    .filter((n) => /\.slog(\.gz)?$/.test(n))
    .map((n) => join(SHARED, n)),
  ...readdirSync(REAL)
    .filter((n) => /\.(slog|jsonl)$/.test(n))
    .map((n) => join(REAL, n)),
  BLOCKS,
];

type Entry = Record<string, any>;

/** A line's entry: a contextual line's body, its crank fields filled from the attributes. */
function unwrap(raw: Entry): Entry {
  if (!('body' in raw && 'attributes' in raw)) return raw;
  const e = { ...(raw.body as Entry) };
  const a = raw.attributes as Entry;
  if (e.crankNum === undefined && a['crank.num'] !== undefined) e.crankNum = a['crank.num'];
  if (e.vatID === undefined && a['crank.vatID'] !== undefined) e.vatID = a['crank.vatID'];
  if (e.replay === undefined && a.replay !== undefined) e.replay = a.replay;
  return e;
}

/** A per-block folder's files in chain order (init, bootstrap, upgrades, blocks by height), else the one file. */
function files(path: string): string[] {
  if (!path.endsWith('block-files-bot')) return [path];
  const rank = (n: string): [number, number] => {
    const m = /^slogfile_(init|bootstrap|upgrade|block)_(?:(\d+)_)?(\d+)/.exec(n);
    const kind = ['init', 'bootstrap', 'upgrade', 'block'].indexOf(m?.[1] ?? '');
    return [kind, Number(m?.[2] ?? m?.[3])];
  };
  return readdirSync(path)
    .sort((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1])
    .map((n) => join(path, n));
}

/** Every entry of the slog, in order, handed to `each`. */
async function eachEntry(path: string, each: (e: Entry) => void): Promise<void> {
  for (const file of files(path)) {
    if (file.endsWith('.gz') && !path.endsWith('.slog.gz')) {
      for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) if (line.trim()) each(unwrap(JSON.parse(line) as Entry));
    } else {
      await eachLine(file, (line) => each(unwrap(JSON.parse(line) as Entry)));
    }
  }
}

type Op = { vat: string; add?: [string, string]; drop?: string; clear?: true };

/**
 * The roots a bootstrap message names (`bootstrap(vats, devices)`): each
 * static vat's name and the kref in the slot its entry of `vats` refers
 * to; none for another message. Today's message (`methargs`, a smallcaps
 * body: `"$3.Alleged: root"`) or 2021's (`method`, and `args` whose legacy
 * body refers to slots as `{"@qclass":"slot","index":3}`).
 */
function bootstrapRoots(msg: Entry | undefined): Array<[string, string]> {
  let method: unknown;
  let vats: unknown;
  let slots: unknown[] = [];
  if (msg?.methargs) {
    const body = String(msg.methargs.body);
    const parsed = JSON.parse(body.startsWith('#') ? body.slice(1) : body) as unknown[];
    [method] = parsed;
    vats = (parsed[1] as unknown[] | undefined)?.[0];
    slots = msg.methargs.slots;
  } else if (msg?.args) {
    method = msg.method;
    const body = String(msg.args.body);
    vats = (JSON.parse(body.startsWith('#') ? body.slice(1) : body) as unknown[])[0];
    slots = msg.args.slots;
  }
  if (method !== 'bootstrap' || vats === null || typeof vats !== 'object') return [];
  const out: Array<[string, string]> = [];
  for (const [name, ref] of Object.entries(vats as Record<string, unknown>)) {
    const index = typeof ref === 'string' ? Number(/^\$(\d+)/.exec(ref)?.[1]) : Number((ref as { index?: unknown } | null)?.index);
    const kref = slots[index];
    if (Number.isInteger(index) && typeof kref === 'string') out.push([name, kref]);
  }
  return out;
}

/**
 * The c-lists at the end, by the plain loop: ops grouped by crank execution
 * (a crank number met again after a restart replaces its earlier ops), then
 * applied in order.
 */
async function expectedClists(path: string): Promise<Map<string, Map<string, string>>> {
  const units = new Map<string, Op[]>();
  const staticVats = new Map<string, string>();
  let outside = 0;
  let unit: Op[] = [];
  // Entries before the first crank-start (a slog that starts inside a crank).
  units.set('o0', unit);
  let kernelStarts = 0;
  let firstCrank: number | undefined;
  await eachEntry(path, (e) => {
    if (e.type === 'kernel-init-start') kernelStarts += 1;
    if (e.type === 'crank-start' && typeof e.crankNum === 'number') {
      // A restart that runs again from the slog's first crank: nothing before was committed, the kernel starts over.
      if (kernelStarts > 1 && firstCrank !== undefined && e.crankNum <= firstCrank) units.clear();
      firstCrank ??= e.crankNum;
      unit = [];
      // A crank run again after a restart: its last execution counts.
      units.delete(`c${e.crankNum}`);
      units.set(`c${e.crankNum}`, unit);
      return;
    }
    if (e.type === 'crank-finish') {
      unit = [];
      units.set(`o${(outside += 1)}`, unit);
      return;
    }
    if (e.replay === true) return;
    if (e.type === 'clist') {
      if (e.mode === 'import' || e.mode === 'export') unit.push({ vat: e.vatID, add: [e.kobj, e.vobj] });
      else if (e.mode === 'drop') unit.push({ vat: e.vatID, drop: e.kobj });
    } else if (e.type === 'vat-cleanup-complete') {
      unit.push({ vat: e.vatID, clear: true });
    } else if (e.type === 'create-vat' && e.dynamic === false && typeof e.name === 'string') {
      staticVats.set(e.name, e.vatID);
    } else if (e.type === 'deliver' && Array.isArray(e.kd) && e.kd[0] === 'message') {
      // The bootstrap message names each static vat's root, exported (as o+0) when the kernel made the vat.
      for (const [name, kref] of bootstrapRoots(e.kd[2])) {
        const vat = staticVats.get(name);
        if (vat !== undefined && kref.startsWith('ko')) unit.push({ vat, add: [kref, 'o+0'], drop: 'proof' });
      }
      // Proves the export, where the c-list lacks it (the add below skips a pair held).
      if (Array.isArray(e.vd) && String(e.vd[1]).startsWith('o+')) unit.push({ vat: e.vatID, add: [e.kd[1], e.vd[1]], drop: 'proof' });
    }
  });
  const vats = new Map<string, Map<string, string>>();
  for (const ops of units.values()) {
    for (const op of ops) {
      let vat = vats.get(op.vat);
      if (!vat) vats.set(op.vat, (vat = new Map()));
      if (op.clear) vat.clear();
      else if (op.add && op.drop === 'proof') {
        if (!vat.has(op.add[0])) vat.set(op.add[0], op.add[1]);
      } else if (op.add) vat.set(op.add[0], op.add[1]);
      else if (op.drop) vat.delete(op.drop);
    }
  }
  return vats;
}

const kindOf = (vref: string): string =>
  vref.startsWith('o+') ? 'exportedObjects' : vref.startsWith('o-') ? 'importedObjects' : vref.startsWith('p') ? 'promises' : 'devices';

describe('growth: the c-lists alive at the end equal the net of the kernel\'s clist entries', () => {
  for (const path of INPUTS) {
    const name = path.slice(SHARED.length + 1);
    it(name, { timeout: 180_000 }, async () => {
      const expected = await expectedClists(path);
      const { growth } = await growthOf({ inputs: [path] });
      const vats = new Set([...expected.keys(), ...growth.clists.vats.keys()]);
      for (const vatID of vats) {
        const want = [...(expected.get(vatID) ?? new Map<string, string>())].map(([k, v]) => `${k} ${v}`).sort();
        const got = [...(growth.clists.vats.get(vatID)?.entries ?? new Map())].map(([k, e]) => `${k} ${e.vref}`).sort();
        expect(got, `${name} ${vatID}`).toEqual(want);
        const counts: Record<string, number> = { importedObjects: 0, exportedObjects: 0, promises: 0, devices: 0 };
        for (const pair of want) {
          const kind = kindOf(pair.split(' ')[1] as string);
          counts[kind] = (counts[kind] ?? 0) + 1;
        }
        const model = growth.clists.vats.get(vatID)?.counts ?? { importedObjects: 0, exportedObjects: 0, promises: 0, devices: 0 };
        expect({ ...model }, `${name} ${vatID} counts`).toEqual(counts);
      }
      // The report says the same as the model.
      const result = growthResult(growth, name);
      for (const v of result.vats) expect(v.alive.total).toBe(expected.get(v.vatID)?.size ?? 0);
      // The plain path (every line JSON.parse'd) gives the same report.
      const plain = await growthOf({ inputs: [path], path: 'plain' });
      expect(growthResult(plain.growth, name)).toEqual(result);
    });
  }
});

describe('growth: the roots the bootstrap message names', () => {
  for (const [slog, entries, objects] of [
    ['chain-A.slog', 27, 11],
    ['chain-bot.slog', 2, 1],
    ['contextual-bot.jsonl', 2, 1],
    ['block-files-bot', 2, 1],
  ] as const) {
    it(`${slog}: the c-lists at the end hold as many entries and objects as the kernel's last kernel-stats says (${entries}, ${objects})`, async () => {
      const path = join(REAL, slog);
      // The kernel's own gauges, last seen (a plain loop over the lines).
      let last: Record<string, number> = {};
      await eachEntry(path, (e) => {
        if (e.type === 'kernel-stats' && e.stats) last = e.stats as Record<string, number>;
      });
      expect([last.clistEntries, last.kernelObjects]).toEqual([entries, objects]);
      const expected = await expectedClists(path);
      const pairs = [...expected.values()].flatMap((vat) => [...vat]);
      expect(pairs.length).toBe(entries);
      expect(new Set(pairs.map(([kref]) => kref).filter((k) => k.startsWith('ko'))).size).toBe(objects);
      const { growth } = await growthOf({ inputs: [path] });
      expect(growth.clists.total).toBe(entries);
      expect(growth.clists.kernelCounts.objects).toBe(objects);
      // vatAdmin's root: held by the kernel, no message reaches it; only the bootstrap message shows it.
      const v2 = [...(growth.clists.vats.get('v2')?.entries ?? [])].map(([k, e]) => `${k} ${e.vref} ${e.via}`);
      expect(v2).toEqual([`${[...(expected.get('v2') ?? [])][0]?.[0]} o+0 before the slog`]);
    });
  }
});

/** Each vat's alive pairs, `kref vref`, sorted: the model's. */
function modelPairs(growth: Awaited<ReturnType<typeof growthOf>>['growth']): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [vatID, vat] of growth.clists.vats) if (vat.size > 0) out[vatID] = [...vat.entries].map(([k, e]) => `${k} ${e.vref}`).sort();
  return out;
}

/** The same of the plain loop's c-lists. */
function loopPairs(clists: Map<string, Map<string, string>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [vatID, vat] of clists) if (vat.size > 0) out[vatID] = [...vat].map(([k, v]) => `${k} ${v}`).sort();
  return out;
}

describe('growth: slogs end to end (each copy\'s kernel-init a restart that runs again from the first crank: a new kernel)', () => {
  it('a-local-3 twice and four times: the c-lists and promises of one copy (not the copies\' added up)', async () => {
    const one = readFileSync(join(SLOGS, 'a-local-3.slog'), 'utf8');
    const alone = await growthOf({ inputs: [join(SLOGS, 'a-local-3.slog')] });
    const want = loopPairs(await expectedClists(join(SLOGS, 'a-local-3.slog')));
    expect(modelPairs(alone.growth)).toEqual(want);
    for (const copies of [2, 4]) {
      const path = join(dir, `a-local-3-x${copies}.slog`);
      writeFileSync(path, one.repeat(copies));
      const { growth } = await growthOf({ inputs: [path] });
      expect(modelPairs(growth), `${copies} copies`).toEqual(want);
      expect(loopPairs(await expectedClists(path)), `${copies} copies, the loop`).toEqual(want);
      expect(growth.promises.size).toBe(alone.growth.promises.size);
      expect(growth.clists.kernelCounts).toEqual(alone.growth.clists.kernelCounts);
    }
  });

  it('chain-A then a-local-3: only a-local-3\'s c-lists are left (chain-A\'s committed cranks went on before the restart)', async () => {
    const path = join(dir, 'chain-A-then-a-local-3.slog');
    writeFileSync(path, readFileSync(join(REAL, 'chain-A.slog'), 'utf8') + readFileSync(join(SLOGS, 'a-local-3.slog'), 'utf8'));
    const { growth } = await growthOf({ inputs: [path] });
    const want = loopPairs(await expectedClists(join(SLOGS, 'a-local-3.slog')));
    expect(loopPairs(await expectedClists(path))).toEqual(want);
    expect(modelPairs(growth)).toEqual(want);
  });

  it('two kernels of more cranks than are held back (500 without commits): the first one\'s early cranks are undone too', async () => {
    // Kernel 1: 700 cranks, each importing a new object into v1 and dropping the one before (one alive).
    // Kernel 2: 600 cranks, each importing a new object into v2 (600 alive), none into v1.
    const kernel = (n: number, vatID: string, base: number, drop: boolean): Entry[] => {
      const out: Entry[] = [{ type: 'kernel-init-start' }];
      for (let i = 0; i < n; i += 1) {
        out.push(start(i, vatID), clist(i, 'import', vatID, `ko${base + i}`, `o-${base + i}`));
        if (drop && i > 0) out.push(clist(i, 'drop', vatID, `ko${base + i - 1}`, `o-${base + i - 1}`));
        out.push(finish(i));
      }
      return out;
    };
    const path = slogOf('two-kernels.slog', [...kernel(700, 'v1', 1000, true), ...kernel(600, 'v2', 5000, false)]);
    const { growth } = await growthOf({ inputs: [path] });
    const want = loopPairs(await expectedClists(path));
    expect(Object.keys(want)).toEqual(['v2']);
    expect(want.v2).toHaveLength(600);
    expect(modelPairs(growth)).toEqual(want);
    expect(growth.clists.total).toBe(600);
  });

  it('chain-A\'s blocks three times as one run (heights and cranks shifted, no restart between): the plain loop\'s c-lists, the kernel-stats gauges repeated', async () => {
    const path = join(dir, 'chain-A-x3.slog');
    chainSlog(join(REAL, 'chain-A.slog'), path, 3);
    const { growth } = await growthOf({ inputs: [path] });
    expect(modelPairs(growth)).toEqual(loopPairs(await expectedClists(path)));
    const r = growthResult(growth, path);
    const blocks = await expectedBlockGauges(path);
    expect(r.periods.map((p) => p.end.kernelStats.clistEntries)).toEqual(blocks.map((b) => b.end.clistEntries));
    // Each copy ends where the kernel's gauges do.
    expect(growth.clists.total).toBe(blocks.at(-1)?.end.clistEntries);
  });
});

const GAUGES = ['kernelObjects', 'kernelPromises', 'kpUnresolved', 'clistEntries'] as const;
type Gauges = Partial<Record<(typeof GAUGES)[number], number>>;

/**
 * Each block's kernel gauges at its start and end, by the plain loop: a
 * block opens at its begin-block (bootstrap-block-start, upgrade-start; an
 * upgrade and the begin-block of its height are one block); the gauges are
 * the last kernel-stats entry's; a block a restart cut before its commit
 * was abandoned: its entries are dropped, and the gauges put back.
 */
async function expectedBlockGauges(path: string): Promise<Array<{ label: string; start: Gauges; end: Gauges }>> {
  const blocks: Array<{ label: string; height: number; start: Gauges; end: Gauges; committed: boolean; bootstrap: boolean }> = [];
  let cur: Gauges = {};
  let initHeight = NaN;
  let starts = 0;
  const open = (height: number, bootstrap: boolean): void => {
    const last = blocks[blocks.length - 1];
    if (last && last.height === height && !last.committed) return;
    blocks.push({ label: `block ${height}`, height, start: cur, end: cur, committed: false, bootstrap });
  };
  await eachEntry(path, (e) => {
    const last = blocks[blocks.length - 1];
    switch (e.type) {
      case 'kernel-init-start':
        starts += 1;
        if (starts > 1 && last && !last.committed && !last.bootstrap) {
          blocks.pop();
          cur = last.start;
        }
        break;
      case 'cosmic-swingset-init':
        initHeight = e.blockHeight;
        break;
      case 'cosmic-swingset-bootstrap-block-start':
        open(initHeight, true);
        break;
      case 'cosmic-swingset-begin-block':
      case 'cosmic-swingset-upgrade-start':
        open(e.blockHeight, false);
        break;
      case 'cosmic-swingset-commit-block-finish':
        if (last) last.committed = true;
        break;
      case 'cosmic-swingset-run-start':
        // A bootstrap block whose cosmic-swingset-init the slog lacks: its height from its first run.
        if (last && Number.isNaN(last.height)) {
          last.height = e.blockHeight;
          last.label = `block ${e.blockHeight}`;
        }
        break;
      case 'kernel-stats': {
        const next: Gauges = { ...cur };
        for (const g of GAUGES) if (typeof e.stats?.[g] === 'number') next[g] = e.stats[g];
        cur = next;
        if (last) last.end = cur;
        break;
      }
      default:
    }
  });
  return blocks.map(({ label, start, end }) => ({ label, start, end }));
}

describe('growth: per block, the kernel gauges change as its kernel-stats entries say', () => {
  const CHAIN = [join(REAL, 'chain-A.slog'), join(REAL, 'chain-bot.slog'), join(REAL, 'contextual-bot.jsonl'), BLOCKS];
  for (const path of CHAIN) {
    it(path.slice(SHARED.length + 1), { timeout: 60_000 }, async () => {
      const expected = await expectedBlockGauges(path);
      const { growth } = await growthOf({ inputs: [path] });
      const result = growthResult(growth, path);
      expect(result.unit).toBe('block');
      expect(result.kernel.source).toBe('kernel-stats');
      const got = result.periods.map((r) => {
        const pick = (values: { kernelStats: Record<string, number> }): Gauges => {
          const out: Gauges = {};
          for (const g of GAUGES) if (values.kernelStats[g] !== undefined) out[g] = values.kernelStats[g];
          return out;
        };
        return { label: r.label, start: pick(r.start), end: pick(r.end) };
      });
      expect(got).toEqual(expected);
      // Some block changes them (the check is not of constants).
      expect(expected.some((b) => GAUGES.some((g) => b.start[g] !== b.end[g]))).toBe(true);
      // The promise model (sends, exports, resolves, notifies) finds as many unresolved at each block's end as the kernel counts.
      result.periods.forEach((p, i) => expect(p.end.kernel.kpUnresolved, p.label).toBe(expected[i]?.end.kpUnresolved));
      expect(growth.promises.size).toBe(expected[expected.length - 1]?.end.kpUnresolved);
      // Over all blocks: the first start to the last end, as the table's figures.
      const first = expected[0]?.start ?? {};
      const last = expected[expected.length - 1]?.end ?? {};
      for (const f of result.kernel.kernelStats) {
        const g = f.figure as (typeof GAUGES)[number];
        expect(f.end).toBe(last[g] ?? null);
        if (first[g] !== undefined) expect(f.start).toBe(first[g]);
      }
    });
  }
});

const dir = mkdtempSync(join(tmpdir(), 'slogulate-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A slog of these entries (time and monotime added), written to a temp file. */
function slogOf(name: string, entries: Entry[]): string {
  const file = join(dir, name);
  writeFileSync(file, entries.map((e, i) => JSON.stringify({ ...e, time: 1000 + i / 1000, monotime: i / 1000 })).join('\n') + '\n');
  return file;
}

const start = (crankNum: number, vatID: string): Entry => ({ type: 'crank-start', crankType: 'delivery', crankNum, message: { type: 'send', vatID } });
const finish = (crankNum: number): Entry => ({ type: 'crank-finish', crankType: 'delivery', crankNum });
const clist = (crankNum: number, mode: string, vatID: string, kobj: string, vobj: string): Entry => ({ type: 'clist', crankNum, mode, vatID, kobj, vobj });
const methargs = (method: string): Entry => ({ body: `#["${method}",[]]`, slots: [] });
const deliver = (crankNum: number, vatID: string, target: [string, string], method: string, result?: [string, string]): Entry => ({
  type: 'deliver',
  crankNum,
  vatID,
  deliveryNum: 1,
  replay: false,
  kd: ['message', target[0], { methargs: methargs(method), ...(result ? { result: result[0] } : {}) }],
  vd: ['message', target[1], { methargs: methargs(method), ...(result ? { result: result[1] } : {}) }],
});
const result = (crankNum: number, vatID: string, status = 'ok'): Entry => ({ type: 'deliver-result', crankNum, vatID, deliveryNum: 1, replay: false, dr: [status, null, null] });

describe('growth: hand-made edges', () => {
  it('a drop of an entry never added removes nothing and is counted; a delivery proves a root export', async () => {
    const path = slogOf('drop-unknown.slog', [
      start(1, 'v1'),
      clist(1, 'import', 'v1', 'ko5', 'o-50'),
      deliver(1, 'v1', ['ko1', 'o+0'], 'bootstrap'),
      result(1, 'v1'),
      finish(1),
      start(2, 'v1'),
      clist(2, 'drop', 'v1', 'ko9', 'o-59'),
      finish(2),
    ]);
    const { growth } = await growthOf({ inputs: [path] });
    const v1 = growth.clists.vats.get('v1');
    expect([...(v1?.entries ?? [])].map(([k, e]) => `${k} ${e.vref} ${e.via}`).sort()).toEqual(['ko1 o+0 before the slog', 'ko5 o-50 deliver bootstrap']);
    expect(v1?.droppedUnknown).toBe(1);
    expect(v1?.counts).toEqual({ importedObjects: 1, exportedObjects: 1, promises: 0, devices: 0 });
    const text = growthText(growthResult(growth, 'drop-unknown.slog'));
    expect(text).toContain('1 dropped that the slog never showed added');
  });

  it('a slog cut inside a crank: what the crank added so far counts', async () => {
    const path = slogOf('cut.slog', [start(1, 'v2'), clist(1, 'import', 'v2', 'ko7', 'o-50'), clist(1, 'export', 'v2', 'kp3', 'p+1')]);
    const { growth } = await growthOf({ inputs: [path] });
    expect(growth.clists.vats.get('v2')?.size).toBe(2);
    // The vat's exported promise: it decides it, and never resolved it.
    const r = growthResult(growth, 'cut.slog');
    expect(r.unresolved.total).toBe(1);
    expect(r.unresolved.byDecider).toEqual([{ key: 'v2', name: null, count: 1 }]);
  });

  it('a terminated vat: its c-list stays until its cleanup completes, then is gone; the promises it decided are rejected', async () => {
    const lines = [
      start(1, 'v8'),
      clist(1, 'import', 'v8', 'ko7', 'o-50'),
      deliver(1, 'v8', ['ko2', 'o+0'], 'go', ['kp4', 'p-60']),
      result(1, 'v8'),
      { type: 'terminate', vatID: 'v8', shouldReject: false, info: { body: '#"done"', slots: [] } },
      finish(1),
    ];
    const pending = await growthOf({ inputs: [slogOf('terminated.slog', lines)] });
    expect(pending.growth.clists.vats.get('v8')?.size).toBe(2);
    expect(pending.growth.clists.vats.get('v8')?.terminated).toBe(true);
    expect(pending.growth.promises.size).toBe(0);
    const cleaned = [...lines, start(2, 'v8'), clist(2, 'drop', 'v8', 'ko7', 'o-50'), { type: 'vat-cleanup', vatID: 'v8', work: { exports: 1 } }, { type: 'vat-cleanup-complete', vatID: 'v8' }, finish(2)];
    const { growth } = await growthOf({ inputs: [slogOf('cleaned.slog', cleaned)] });
    expect(growth.clists.vats.get('v8')?.size).toBe(0);
    expect(growth.clists.kernelCounts).toEqual({ objects: 0, promises: 0, devices: 0 });
    expect(growthText(growthResult(growth, 'cleaned.slog'))).toContain('terminated, cleaned up');
  });

  it('an aborted crank (its delivery failed): its c-list changes before the failure were undone', async () => {
    const path = slogOf('aborted.slog', [start(1, 'v3'), clist(1, 'import', 'v3', 'ko7', 'o-50'), deliver(1, 'v3', ['ko2', 'o+0'], 'boom'), result(1, 'v3', 'error'), finish(1)]);
    const { growth } = await growthOf({ inputs: [path] });
    expect([...(growth.clists.vats.get('v3')?.entries.keys() ?? [])]).toEqual([]);
  });

  it('promises never resolved, by decider and by the method whose result they are', async () => {
    const path = slogOf('promises.slog', [
      start(1, 'v1'),
      deliver(1, 'v1', ['ko1', 'o+0'], 'start'),
      clist(1, 'export', 'v1', 'kp10', 'p+5'),
      { type: 'syscall', crankNum: 1, vatID: 'v1', replay: false, ksc: ['send', 'ko2', { methargs: methargs('makeVault'), result: 'kp10' }] },
      { type: 'syscall-result', crankNum: 1, vatID: 'v1', replay: false, ksr: ['ok', null] },
      clist(1, 'export', 'v1', 'kp11', 'p+6'),
      { type: 'syscall', crankNum: 1, vatID: 'v1', replay: false, ksc: ['send', 'ko2', { methargs: methargs('makeVault'), result: 'kp11' }] },
      { type: 'syscall-result', crankNum: 1, vatID: 'v1', replay: false, ksr: ['ok', null] },
      result(1, 'v1'),
      finish(1),
      start(2, 'v2'),
      deliver(2, 'v2', ['ko2', 'o+0'], 'makeVault', ['kp10', 'p-60']),
      result(2, 'v2'),
      finish(2),
      start(3, 'v2'),
      deliver(3, 'v2', ['ko2', 'o+0'], 'makeVault', ['kp11', 'p-61']),
      { type: 'syscall', crankNum: 3, vatID: 'v2', replay: false, ksc: ['resolve', 'v2', [['kp11', false, { body: '#1', slots: [] }]]] },
      { type: 'syscall-result', crankNum: 3, vatID: 'v2', replay: false, ksr: ['ok', null] },
      result(3, 'v2'),
      finish(3),
    ]);
    const { growth } = await growthOf({ inputs: [path] });
    const r = growthResult(growth, 'promises.slog');
    expect(r.unresolved).toEqual({ total: 1, byDecider: [{ key: 'v2', name: null, count: 1 }], byMethod: [{ key: 'makeVault', name: null, count: 1 }] });
    // The send's c-list export came in by the send it was made for.
    expect(growth.clists.vats.get('v1')?.entries.get('kp10')?.via).toBe('send makeVault');
  });
});

describe('growth: per benchmark round', () => {
  it('a-local-3 with round marks: each round\'s c-list total as the plain loop makes it at the round\'s end', async () => {
    const rounds: Array<[number, number]> = [
      [20, 80],
      [81, 160],
      [161, 240],
    ];
    const text = withRoundMarks(readFileSync(join(SLOGS, 'a-local-3.slog'), 'utf8'), rounds);
    const path = join(dir, 'a-local-3-rounds.slog');
    writeFileSync(path, text);
    const { growth } = await growthOf({ inputs: [path] });
    const r = growthResult(growth, 'a-local-3-rounds.slog');
    expect(r.unit).toBe('round');
    expect(r.periods.map((p) => p.label)).toEqual(['"demo" round 1', '"demo" round 2', '"demo" round 3']);
    const lines = text.split('\n');
    const totalAfter = async (crank: number | undefined): Promise<number> => {
      const end = crank === undefined ? lines.length : lines.findIndex((l) => l.includes('"crank-finish"') && JSON.parse(l).crankNum === crank) + 1;
      const prefix = join(dir, `prefix-${crank}.slog`);
      writeFileSync(prefix, lines.slice(0, end).join('\n') + '\n');
      let n = 0;
      for (const vat of (await expectedClists(prefix)).values()) n += vat.size;
      return n;
    };
    for (const [i, [first, last]] of rounds.entries()) {
      const row = r.periods[i];
      expect(row?.start.kernel.clistEntries, `round ${i + 1} start`).toBe(await totalAfter(first - 1));
      expect(row?.end.kernel.clistEntries, `round ${i + 1} end`).toBe(await totalAfter(last));
      expect(row?.cranks).toBe(last - first + 1);
    }
    const out = growthText(r);
    expect(out).toMatch(/per round/);
    // Each flagged figure prints in the benchmark report's shape.
    for (const f of r.growing) expect(out).toContain(`${f.figure} ${f.start} -> ${f.end}, +${f.change}`);
  });
});

describe('growth: the command', () => {
  it('--json, --every, --alive and a bad vat', async () => {
    const json = await runInProcess(['growth', '--json', '--every', '100', 'a-local-3.slog']);
    expect(json.status).toBe(0);
    const r = JSON.parse(json.stdout) as ReturnType<typeof growthResult>;
    expect(r.unit).toBe('cranks');
    expect(r.periods[0]?.label).toMatch(/^cranks \d+-\d+$/);
    expect(r.periods.slice(0, -1).every((p) => p.cranks === 100)).toBe(true);
    const alive = await runInProcess(['growth', '--alive', 'bootstrap', 'a-local-3.slog']);
    expect(alive.status).toBe(0);
    const expected = (await expectedClists(join(SLOGS, 'a-local-3.slog'))).get('v1');
    expect(alive.stdout).toContain(`v1 bootstrap: ${expected?.size} c-list entries alive at the end`);
    for (const [kref, vref] of expected ?? []) expect(alive.stdout).toMatch(new RegExp(`^${kref}\\s+${vref.replace('+', '\\+')}\\s`, 'm'));
    const bad = await runInProcess(['growth', '--alive', 'nosuch', 'a-local-3.slog']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('export: the clist and growth tables', () => {
  it('chain-A: the clist rows alive at the end are the plain loop\'s c-lists; the kernel\'s growth rows are its kernel-stats per block', { timeout: 120_000 }, async () => {
    const path = join(REAL, 'chain-A.slog');
    const query = async (sql: string): Promise<Array<Record<string, unknown>>> => {
      const r = await runInProcess(['query', '--format', 'json', sql, path]);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    };
    const alive = await query('SELECT vatID, kref, vref, mode, kind FROM clist WHERE removedBy IS NULL');
    const expected = await expectedClists(path);
    const want = [...expected].flatMap(([vat, pairs]) => [...pairs].map(([k, v]) => `${vat} ${k} ${v}`)).sort();
    expect(alive.map((r) => `${r.vatID} ${r.kref} ${r.vref}`).sort()).toEqual(want);
    for (const r of alive) {
      expect(r.mode).toBe(String(r.vref).charAt(1) === '+' ? 'export' : 'import');
      expect(r.kind).toBe(kindOf(String(r.vref)));
    }
    // Every entry that left has the crank it left in, or left at its vat's cleanup.
    const left = await query("SELECT count(*) AS n FROM clist WHERE removedBy = 'drop' AND removedCrank IS NULL");
    expect(Number(left[0]?.n)).toBe(0);
    const kernel = await query("SELECT period, clistStart, clistEnd, kernelObjects, kernelPromises, kpUnresolved FROM growth WHERE vatID IS NULL AND unit = 'block' ORDER BY periodIndex");
    const blocks = await expectedBlockGauges(path);
    expect(kernel.map((r) => r.period)).toEqual(blocks.map((b) => b.label));
    kernel.forEach((r, i) => {
      const b = blocks[i];
      expect([r.clistStart, r.clistEnd, r.kernelObjects, r.kernelPromises, r.kpUnresolved].map((x) => (x === null ? null : Number(x)))).toEqual([
        b?.start.clistEntries ?? null,
        b?.end.clistEntries ?? null,
        b?.end.kernelObjects ?? null,
        b?.end.kernelPromises ?? null,
        b?.end.kpUnresolved ?? null,
      ]);
    });
  });
});

describe('growth: a crank of many syscalls spills', () => {
  it('the same c-lists, promises and attributions spilled every 10 syscalls as held whole', async () => {
    // One crank of 2,000 syscalls: vatstore calls, with sends whose result promises the vat exports, and a resolve.
    const lines: Entry[] = [start(1, 'v1'), clist(1, 'import', 'v1', 'ko5', 'o-50'), deliver(1, 'v1', ['ko1', 'o+0'], 'walk')];
    for (let i = 0; i < 2000; i += 1) {
      if (i % 100 === 7) {
        const kp = `kp${100 + i}`;
        lines.push(clist(1, 'export', 'v1', kp, `p+${i}`));
        lines.push({ type: 'syscall', crankNum: 1, vatID: 'v1', replay: false, ksc: ['send', 'ko5', { methargs: methargs(`m${i % 3}`), result: kp }] });
      } else {
        lines.push({ type: 'syscall', crankNum: 1, vatID: 'v1', replay: false, ksc: ['vatstoreGet', 'v1', `k${i}`] });
      }
      lines.push({ type: 'syscall-result', crankNum: 1, vatID: 'v1', replay: false, ksr: ['ok', null] });
    }
    lines.push({ type: 'syscall', crankNum: 1, vatID: 'v1', replay: false, ksc: ['resolve', 'v1', [['kp107', false, { body: '#1', slots: [] }]]] });
    lines.push({ type: 'syscall-result', crankNum: 1, vatID: 'v1', replay: false, ksr: ['ok', null] });
    lines.push(result(1, 'v1'), finish(1));
    const path = slogOf('many-syscalls.slog', lines);
    const base = { ...settingsFrom(), path: 'plain' as const };
    const spilled = await growthOf({ inputs: [path], settings: { ...base, spillAt: 10 } });
    const whole = await growthOf({ inputs: [path], settings: { ...base, spillAt: 0 } });
    const entries = (g: typeof whole.growth): string[] => [...(g.clists.vats.get('v1')?.entries ?? [])].map(([k, e]) => `${k} ${e.vref} ${e.crank} ${e.via}`).sort();
    expect(entries(spilled.growth)).toEqual(entries(whole.growth));
    expect(entries(whole.growth)).toHaveLength(2 + 20);
    expect(whole.growth.clists.vats.get('v1')?.entries.get('kp207')?.via).toBe('send m2');
    expect(growthResult(spilled.growth, 'x').unresolved).toEqual(growthResult(whole.growth, 'x').unresolved);
    expect(whole.growth.promises.size).toBe(19);
  });
});
