/**
 * `slogulate compare` matches vats by name where both slogs name them (issue
 * 13), so two runs that created their vats in another order compare bob with
 * bob, and the report says how each vat was matched (text, markdown, JSON).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompareJson } from '../src/analyses/compare.js';
import { slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-compare-vats-'));
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
