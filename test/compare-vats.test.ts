/**
 * `slogulate compare` matches vats by name where both slogs name them (issue
 * 13), so two runs that created their vats in another order compare bob with
 * bob, and the report says how each vat was matched (text, markdown, JSON).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompareJson } from '../src/analyses/compare/compare.js';
import { ROOT, slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-vats-'));
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The slog with vats v6 and v7 trading IDs: the same run, its vats created in the other order. */
function swapped(name: string): string {
  const text = readFileSync(slogPath(name), 'utf8');
  const file = join(dir, `${name}-swapped.slog`);
  writeFileSync(file, text.replace(/"v([67])"/g, (_m, n: string) => `"v${n === '6' ? '7' : '6'}"`));
  return file;
}

describe('vats created in another order are matched by name', () => {
  it.each([['a-local-3'], ['a-xs-3']])('%s against itself with v6 and v7 swapped: no delta anywhere, each row says how', async (name) => {
    const head = swapped(name);
    const r = await runMain(['compare', '--format', 'json', slogPath(name), head]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as CompareJson;
    expect(json.version).toBe(2);
    let vatRows = 0;
    for (const s of json.sections) {
      for (const row of s.rows) {
        expect(row.delta, row.key).toBe(0);
        if (row.vatID === undefined) continue;
        vatRows += 1;
        if (row.vatName === 'bob') {
          expect(row).toMatchObject({ baseVatID: 'v7', headVatID: 'v6', vatID: 'v6', vatMatch: 'name' });
          expect(row.key).toMatch(/,vat=bob(,|$)/);
        }
      }
    }
    expect(vatRows).toBeGreaterThan(20);
    expect(json.vats).toContainEqual({ key: 'bob', vatName: 'bob', base: 'v7', head: 'v6', matchedBy: 'name' });
    expect(json.vats).toContainEqual({ key: 'alice', vatName: 'alice', base: 'v6', head: 'v7', matchedBy: 'name' });
    expect(json.vats).toContainEqual({ key: 'v1', vatName: 'bootstrap', base: 'v1', head: 'v1', matchedBy: 'name' });
    expect(json.sections.some((s) => s.id === 'computronsByVat')).toBe(name === 'a-xs-3');
  });

  it('text and markdown say which vats were matched how, and show both IDs', async () => {
    const head = swapped('a-local-3');
    const text = await runMain(['compare', slogPath('a-local-3'), head]);
    expect(text.stdout.split('\n')[2]).toBe('vats: 8 matched by name (2 with other IDs: bob v7→v6, alice v6→v7)');
    expect(text.stdout).toMatch(/\nv7→v6 bob +42 +42 +0 +0\.00%\n/);
    const markdown = await runMain(['compare', '--format', 'markdown', slogPath('a-local-3'), head]);
    expect(markdown.stdout).toContain('\n- vats: 8 matched by name (2 with other IDs: bob v7→v6, alice v6→v7)\n');
  });

  it('thresholds follow the matching: by name; an ID that names two different vats is a usage error', async () => {
    const head = swapped('a-local-3');
    const ok = await runMain([
      'compare',
      ...['deliveries,vat=bob:+0', 'syscalls,vat=alice:+0', 'deliveries,vat=bob,method=deposit:+0', 'cranks,vat=v1:+0'].flatMap((t) => ['--fail-on', t]),
      slogPath('a-local-3'),
      head,
    ]);
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/^no threshold exceeded \(4 checked\)$/m);
    const byID = await runMain(['compare', '--fail-on', 'deliveries,vat=v7:+0', slogPath('a-local-3'), head]);
    expect(byID).toMatchObject({ status: 2, stdout: '' });
    expect(byID.stderr).toBe(
      'slogulate: --fail-on: vat=v7 is bob in the base and alice in the head (vats are matched by name); write vat=bob or vat=alice\n',
    );
  });
});

/**
 * Every key the JSON report prints, given back as `--fail-on KEY:+0` in one
 * run: each threshold must read that row's base and head.
 */
async function keysReadBack(base: string, head: string): Promise<CompareJson> {
  const report = await runMain(['compare', '--format', 'json', base, head]);
  expect(report.status).toBe(0);
  const json = JSON.parse(report.stdout) as CompareJson;
  const rows = new Map(json.sections.flatMap((s) => s.rows.map((r) => [r.key, r] as const)));
  const keys = [...rows.keys()];
  const back = await runMain(['compare', '--format', 'json', ...keys.flatMap((k) => ['--fail-on', `${k}:+0`]), base, head]);
  expect(back.stderr).not.toMatch(/--fail-on:/);
  expect([0, 1]).toContain(back.status);
  const results = (JSON.parse(back.stdout) as CompareJson).thresholds;
  expect(results.map((t) => t.metric)).toEqual(keys);
  for (const t of results) expect([t.base, t.head], t.metric).toEqual([rows.get(t.metric)?.base, rows.get(t.metric)?.head]);
  return json;
}

describe('an ID that is a different vat on each side (issue: vat=v6 read as the head vat)', () => {
  // restart-replay.slog: v6 is bob; a-xs-3.slog: v6 is alice (not in the base), bob is v7.
  const base = join(REAL, 'restart-replay.slog');
  const head = slogPath('a-xs-3');

  it('vat=v6 in --fail-on is a usage error naming both vats; the names work', async () => {
    const r = await runMain(['compare', '--format', 'json', '--fail-on', 'deliveries,vat=v6:+0', base, head]);
    expect(r).toMatchObject({ status: 2, stdout: '' });
    expect(r.stderr).toBe(
      'slogulate: --fail-on: vat=v6 is bob in the base and alice in the head (vats are matched by name); write vat=bob or vat=alice\n',
    );
    const byName = await runMain(['compare', '--format', 'json', '--fail-on', 'deliveries,vat=alice:+0', '--fail-on', 'deliveries,vat=bob:+100', base, head]);
    expect(byName.status).toBe(1);
    const [alice, bob] = (JSON.parse(byName.stdout) as CompareJson).thresholds;
    expect(alice).toMatchObject({ base: 0, head: 31, exceeded: true });
    expect(bob).toMatchObject({ base: 30, head: 49, exceeded: false });
  });

  it('the report keys alice by her name, not by the ID that is bob in the base; every key reads back as its row', async () => {
    const json = await keysReadBack(base, head);
    expect(json.vats).toContainEqual({ key: 'alice', vatName: 'alice', base: null, head: 'v6', matchedBy: 'id' });
    expect(json.vats).toContainEqual({ key: 'bob', vatName: 'bob', base: 'v6', head: 'v7', matchedBy: 'name' });
    const keys = json.sections.flatMap((s) => s.rows.map((r) => r.key));
    expect(keys).toContain('deliveries,vat=alice');
    expect(keys.filter((k) => /,vat=v6(,|$)/.test(k))).toEqual([]);
  });

  it('a vat without a name whose ID is another vat on the other side is keyed by its ID and side', async () => {
    // Base: a-local-3 with v6 and v7 swapped (v6 bob, v7 alice); head: a-local-3 with alice's name taken away (v6 unnamed, v7 bob).
    const unnamed = join(dir, 'a-local-3-unnamed.slog');
    const lines = readFileSync(slogPath('a-local-3'), 'utf8').split('\n');
    const createAlice = lines.findIndex((l) => l.startsWith('{"type":"create-vat","vatID":"v6"'));
    lines[createAlice] = (lines[createAlice] as string).replace('"name":"alice",', '');
    writeFileSync(unnamed, lines.join('\n'));
    const swappedBase = swapped('a-local-3');
    const json = await keysReadBack(swappedBase, unnamed);
    expect(json.vats).toContainEqual({ key: 'v6@head', base: null, head: 'v6', matchedBy: 'id' });
    expect(json.vats).toContainEqual({ key: 'alice', vatName: 'alice', base: 'v7', head: null, matchedBy: 'id' });
    expect(json.vats).toContainEqual({ key: 'bob', vatName: 'bob', base: 'v6', head: 'v7', matchedBy: 'name' });
    const r = await runMain(['compare', '--fail-on', 'deliveries,vat=v6:+0', swappedBase, unnamed]);
    expect(r).toMatchObject({ status: 2, stdout: '' });
    expect(r.stderr).toBe(
      'slogulate: --fail-on: vat=v6 is bob in the base and an unnamed vat in the head (vats are matched by name); write vat=bob or vat=v6@head\n',
    );
  });
});
