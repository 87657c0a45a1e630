/**
 * `slogulate growth` against the slogs themselves: at the end of every
 * shared slog (../shared/slogs, ../shared/slogs/real, the per-block folder),
 * each vat's alive c-list (the exact set of (kref, vref) pairs, and the
 * count per kind) equals what a plain loop over the JSON lines makes of the
 * kernel's own `clist` entries: import/export adds, drop removes, a
 * terminated vat's vat-cleanup-complete removes all, a message delivered to
 * an export the c-list lacks proves an entry made before the slog (a static
 * vat's root, exported at kernel start); of a crank a restart ran again,
 * the last execution counts. Where a slog has `kernel-stats` entries, each
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
import { eachLine } from './slog-facts.js';
import { ROOT, SLOGS, withRoundMarks } from './helpers.js';
import { runInProcess } from './run-main.js';

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
 * The c-lists at the end, by the plain loop: ops grouped by crank execution
 * (a crank number met again after a restart replaces its earlier ops), then
 * applied in order.
 */
async function expectedClists(path: string): Promise<Map<string, Map<string, string>>> {
  const units = new Map<string, Op[]>();
  let outside = 0;
  let unit: Op[] = [];
  // Entries before the first crank-start (a slog that starts inside a crank).
  units.set('o0', unit);
  await eachEntry(path, (e) => {
    if (e.type === 'crank-start' && typeof e.crankNum === 'number') {
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
    } else if (e.type === 'deliver' && Array.isArray(e.kd) && e.kd[0] === 'message' && Array.isArray(e.vd) && String(e.vd[1]).startsWith('o+')) {
      // Proves the export, where the c-list lacks it (the add below skips a pair held).
      unit.push({ vat: e.vatID, add: [e.kd[1], e.vd[1]], drop: 'proof' });
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
        for (const pair of want) counts[kindOf(pair.split(' ')[1] as string)] += 1;
        const model = growth.clists.vats.get(vatID)?.counts ?? { importedObjects: 0, exportedObjects: 0, promises: 0, devices: 0 };
        expect({ ...model }, `${name} ${vatID} counts`).toEqual(counts);
      }
      // The report says the same as the model.
      const result = growthResult(growth, name);
      for (const v of result.vats) expect(v.alive.total).toBe(expected.get(v.vatID)?.size ?? 0);
    });
  }
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
        const pick = (values: Record<string, number>): Gauges => {
          const out: Gauges = {};
          for (const g of GAUGES) if (values[`kernel-stats\t${g}`] !== undefined) out[g] = values[`kernel-stats\t${g}`];
          return out;
        };
        return { label: r.label, start: pick(r.start), end: pick(r.end) };
      });
      expect(got).toEqual(expected);
      // Some block changes them (the check is not of constants).
      expect(expected.some((b) => GAUGES.some((g) => b.start[g] !== b.end[g]))).toBe(true);
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
