/**
 * `slogulate diverge` on the real pairs of fixtures/diverge/ (written by
 * Agoric's kernel: scripts/kernel-pairs.mjs): the same run twice, and a run
 * whose timer device started elsewhere. The expected figures come from a
 * plain loop over the JSON lines (each crank-finish's crankhash and
 * activityhash per crankNum; the first crank's entries compared field by
 * field), never from the command.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { divergeOf } from '../src/run/diverge.js';
import { FIXTURES } from './helpers.js';
import { runInProcess } from './run-main.js';

const PAIRS = join(FIXTURES, 'diverge');
const SAME_1 = join(PAIRS, 'same-1.slog');
const SAME_2 = join(PAIRS, 'same-2.slog');
const DIVERGED = join(PAIRS, 'diverged.slog');

type Entry = Record<string, any>;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slogulate-diverge-pairs-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const linesOf = (path: string): string[] => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '');
const entriesOf = (path: string): Entry[] => linesOf(path).map((l) => JSON.parse(l) as Entry);

/** crankNum -> its crank-finish's hashes (these slogs have no restart: one finish per crank). */
function hashesOf(entries: readonly Entry[]): Map<number, { crankhash: string; activityhash: string }> {
  const out = new Map<number, { crankhash: string; activityhash: string }>();
  for (const e of entries) if (e.type === 'crank-finish') out.set(e.crankNum, { crankhash: e.crankhash, activityhash: e.activityhash });
  return out;
}

/** The first crank (by number) both have whose crankhash differs. */
function firstDiffering(a: Map<number, { crankhash: string }>, b: Map<number, { crankhash: string }>): number | undefined {
  return [...a.keys()].filter((n) => b.has(n) && b.get(n)?.crankhash !== a.get(n)?.crankhash).sort((x, y) => x - y)[0];
}

/** The crank's own entries (crankNum set, not replayed), without the clock fields. */
const crankEntries = (entries: readonly Entry[], crankNum: number): Entry[] =>
  entries
    .filter((e) => e.crankNum === crankNum && e.replay !== true)
    .map((e) => {
      // The clock: when, and how long a syscall took (its result's `seconds`).
      const { time: _t, monotime: _m, seconds: _s, ...rest } = e;
      return rest;
    });

/** The first path at which two JSON values differ (arrays by index, objects by A's keys then B's). */
function pathWhere(a: unknown, b: unknown, path = ''): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      const p = pathWhere(a[i], b[i], `${path}[${i}]`);
      if (p !== undefined) return p;
    }
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    for (const k of [...Object.keys(x), ...Object.keys(y).filter((k) => !(k in x))]) {
      const p = pathWhere(x[k], y[k], path === '' ? k : `${path}.${k}`);
      if (p !== undefined) return p;
    }
  }
  return path;
}

const at = (value: unknown, path: string): unknown =>
  (path.match(/[^.[\]]+|\[\d+\]/g) ?? []).reduce<unknown>((v, step) => (v as any)?.[step.startsWith('[') ? Number(step.slice(1, -1)) : step], value);

describe('diverge on real pairs: the same run twice', () => {
  it('same-1 against same-2: exit 0, every crank compared by crankhash, no divergence, the timing table filled', async () => {
    const a = entriesOf(SAME_1);
    const b = entriesOf(SAME_2);
    const ha = hashesOf(a);
    const hb = hashesOf(b);
    // The pair is what it says: the same cranks and hashes, other times.
    expect([...ha.keys()]).toEqual([...hb.keys()]);
    expect(firstDiffering(ha, hb)).toBeUndefined();
    expect(a.map((e) => e.time)).not.toEqual(b.map((e) => e.time));

    const delivered = a.filter((e) => e.type === 'deliver-result' && e.replay !== true);
    const vats = new Set(delivered.map((e) => e.vatID as string));
    const names = new Map(a.filter((e) => e.type === 'create-vat' && e.name).map((e) => [e.vatID as string, e.name as string]));

    const { result } = await divergeOf({ a: { inputs: [SAME_1] }, b: { inputs: [SAME_2] } });
    expect(result.diverged).toBe(false);
    expect(result.first).toBeUndefined();
    expect(result.compared.cranks).toBe(ha.size);
    expect(result.compared.byHash).toBe(ha.size);
    expect(result.timing.deliveries).toBe(delivered.length);
    expect(result.timing.microsA).not.toBe(result.timing.microsB);
    expect(result.timing.byVat.map((r) => r.key).sort()).toEqual([...vats].map((v) => (names.has(v) ? `${v} ${names.get(v)}` : v)).sort());
    for (const row of result.timing.byVat) expect(row.count).toBe(delivered.filter((e) => row.key.split(' ')[0] === e.vatID).length);

    const r = await runInProcess(['diverge', SAME_1, SAME_2]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`no divergence: ${ha.size} cranks compared (cranks ${Math.min(...ha.keys())}-${Math.max(...ha.keys())}), by crankhash`);
    expect(r.stdout).toContain(`\nWhich node was slower, over the ${delivered.length} deliveries both ran (deliver to deliver-result): `);
    expect(r.stdout).toContain('\nDelivery time by vat');
  });
});

describe('diverge on real pairs: the timer started elsewhere', () => {
  it('same-1 against diverged: exit 1, the first crank whose crankhash differs, its first field, every later crank marked by activityhash', async () => {
    const a = entriesOf(SAME_1);
    const b = entriesOf(DIVERGED);
    const ha = hashesOf(a);
    const hb = hashesOf(b);
    const first = firstDiffering(ha, hb) as number;
    expect(first).toBeGreaterThan(0); // mid-run, not at the start
    const later = [...ha.keys()].filter((n) => n > first && hb.has(n));
    const laterActivity = later.filter((n) => ha.get(n)?.activityhash !== hb.get(n)?.activityhash);
    expect(laterActivity.length).toBeGreaterThan(0);

    // The first entry of that crank that differs (without the clock), and its first differing field.
    const ca = crankEntries(a, first);
    const cb = crankEntries(b, first);
    const index = ca.findIndex((e, i) => JSON.stringify(e) !== JSON.stringify(cb[i]));
    expect(index).toBeGreaterThanOrEqual(0);
    // Another kind of entry there (diverge says so, with no field path), or the first differing field of the same kind.
    const typesDiffer = ca[index]?.type !== cb[index]?.type;
    const path = typesDiffer ? '' : (pathWhere(ca[index], cb[index]) as string);

    const { result } = await divergeOf({ a: { inputs: [SAME_1] }, b: { inputs: [DIVERGED] } });
    expect(result.diverged).toBe(true);
    expect(result.first?.crankNum).toBe(first);
    expect(result.first?.by).toBe('crankhash');
    expect(result.first?.crankhashA).toBe(ha.get(first)?.crankhash);
    expect(result.first?.crankhashB).toBe(hb.get(first)?.crankhash);
    const d = result.first?.difference;
    expect(d?.index).toBe(index);
    expect(d?.path).toBe(path);
    if (typesDiffer) {
      expect(d?.labelA?.split(' ')[0]).toBe(ca[index]?.type);
      expect(d?.labelB?.split(' ')[0]).toBe(cb[index]?.type);
    } else {
      expect(d?.valueA).toBe(JSON.stringify(at(ca[index], path)));
      expect(d?.valueB).toBe(JSON.stringify(at(cb[index], path)));
    }
    // The run's only other input: what diverges first is the timer's answer, its start (1000 in same-1, 5000 here).
    expect(d?.valueA).toContain('1000');
    expect(d?.valueB).toContain('5000');
    expect(result.after.cranks).toBe(later.length);
    expect(result.after.activityCompared).toBe(later.length);
    expect(result.after.activityDiffers).toBe(laterActivity.length);
    // activityhash is cumulative: every later crank differs by it.
    expect(laterActivity.length).toBe(later.length);
    expect(result.firstActivityDiffers).toBe(first);

    const r = await runInProcess(['diverge', SAME_1, DIVERGED]);
    expect(r.status).toBe(1);
    // The crank's vat and method: its delivery's (a send's message names no vat); a message's method is the first of its methargs.
    const deliver = a.find((e) => e.type === 'deliver' && e.crankNum === first) as Entry;
    const vat = deliver.vatID as string;
    const method = deliver.kd[0] === 'message' ? JSON.parse(deliver.kd[2].methargs.body.replace(/^#/, ''))[0] : deliver.kd[0];
    const name = a.find((e) => e.type === 'create-vat' && e.vatID === vat && e.name)?.name as string;
    expect(r.stdout.split('\n')[0]).toBe(`diverged at crank ${first} (${vat} ${name}, ${method}): ${d?.what}`);
    expect(r.stdout).toContain(`\n  first difference: entry ${index}, `);
  });
});

describe('the shortened bundles', () => {
  it('every bundle of the three slogs is elided, and the same in all three; no other line is long', () => {
    const bundles = (path: string): string[] => linesOf(path).flatMap((l) => [...l.matchAll(/"endoZipBase64":"([^"]*)"/g)].map((m) => m[1] as string));
    const one = bundles(SAME_1);
    expect(one.length).toBeGreaterThan(0);
    for (const b of one) expect(b).toMatch(/^<elided \d+ bytes>$/);
    expect(bundles(SAME_2)).toEqual(one);
    expect(bundles(DIVERGED)).toEqual(one);
    for (const path of [SAME_1, SAME_2, DIVERGED]) expect(Math.max(...linesOf(path).map((l) => l.length))).toBeLessThan(64 * 1024);
  });

});
