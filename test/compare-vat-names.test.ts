/**
 * `compare` keeps each side's vat names (issue 29 item 7): where both slogs
 * name the vat of an ID and the names differ (a-local-3's v7 is bob,
 * b-local-5's v7 is erin), those are two vats, each on its side under its
 * own name; and the `<no vat>` of cranks that name no vat is no vat of
 * either slog. The names are read by a plain loop over each slog's lines.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CompareJson } from '../src/analyses/compare/compare.js';
import { loopSide, type LoopSide } from './compare-loop.js';
import { slogPath } from './helpers.js';
import { runMain } from './run-main.js';

const base = slogPath('a-local-3');
const head = slogPath('b-local-5');
const loop = { base: loopSide(readFileSync(base, 'utf8')), head: loopSide(readFileSync(head, 'utf8')) };

/** The vat IDs both slogs name, each another name (the pairs the old matching put under the head's name). */
function renamedIDs(a: LoopSide, b: LoopSide): string[] {
  return [...a.vatNames].filter(([id, name]) => b.vatNames.has(id) && b.vatNames.get(id) !== name).map(([id]) => id);
}

describe('compare a-local-3 b-local-5: each side keeps its vat names', () => {
  it('the two slogs do give some IDs to differently named vats (else this test checks nothing)', () => {
    expect(renamedIDs(loop.base, loop.head).length).toBeGreaterThanOrEqual(2);
    expect(loop.base.vatNames.get('v7')).toBe('bob');
    expect(loop.head.vatNames.get('v7')).toBe('erin');
  });

  it('every vat row names its vat as its own side does, and counts only that vat', async () => {
    const r = await runMain(['compare', '--format', 'json', base, head]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout) as CompareJson;
    let checked = 0;
    for (const section of json.sections) {
      for (const row of section.rows) {
        if (row.baseVatID !== undefined && loop.base.vatNames.has(row.baseVatID)) {
          expect(row.vatName, `${row.key}: base ${row.baseVatID}`).toBe(loop.base.vatNames.get(row.baseVatID));
          checked += 1;
        }
        if (row.headVatID !== undefined && loop.head.vatNames.has(row.headVatID)) {
          expect(row.vatName, `${row.key}: head ${row.headVatID}`).toBe(loop.head.vatNames.get(row.headVatID));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    const deliveries = json.sections.find((s) => s.id === 'deliveriesByVat')?.rows ?? [];
    for (const id of renamedIDs(loop.base, loop.head)) {
      const inBase = deliveries.find((row) => row.baseVatID === id);
      const inHead = deliveries.find((row) => row.headVatID === id);
      expect(inBase).toMatchObject({ vatName: loop.base.vatNames.get(id), base: loop.base.deliveriesByVat.get(id) ?? 0, head: 0 });
      expect(inHead).toMatchObject({ vatName: loop.head.vatNames.get(id), base: 0, head: loop.head.deliveriesByVat.get(id) ?? 0 });
      expect(inBase?.headVatID).toBeUndefined();
      expect(inHead?.baseVatID).toBeUndefined();
    }
  });

  it('the vat list has each side its own vats, no <no vat>; the text says which are on one side only', async () => {
    const r = await runMain(['compare', '--format', 'json', base, head]);
    const json = JSON.parse(r.stdout) as CompareJson;
    expect(json.vats.map((v) => v.key)).not.toContain('<no vat>');
    for (const v of json.vats) {
      if (v.base !== null) expect(v.vatName, `base ${v.base}`).toBe(loop.base.vatNames.get(v.base));
      if (v.head !== null) expect(v.vatName, `head ${v.head}`).toBe(loop.head.vatNames.get(v.head));
    }
    const text = await runMain(['compare', base, head]);
    expect(text.stdout.split('\n')[2]).toBe('vats: 6 matched by name, 2 only in the base (v7 bob, v8 carol), 2 only in the head (v7 erin, v8 dave)');
    expect(text.stdout).not.toContain('<no vat>');
  });

  it('vat=v7 names two vats: a usage error; vat=bob and vat=erin read each its own side', async () => {
    const byID = await runMain(['compare', '--fail-on', 'deliveries,vat=v7:+0', base, head]);
    expect(byID).toMatchObject({ status: 2, stdout: '' });
    expect(byID.stderr).toBe(
      'slogulate: --fail-on: vat=v7 is bob in the base and erin in the head (vats are matched by name); write vat=bob or vat=erin\n',
    );
    const r = await runMain(['compare', '--format', 'json', '--fail-on', 'deliveries,vat=bob:+0', '--fail-on', 'deliveries,vat=erin:+0', base, head]);
    const [bob, erin] = (JSON.parse(r.stdout) as CompareJson).thresholds;
    expect(bob).toMatchObject({ base: loop.base.deliveriesByVat.get('v7'), head: 0, exceeded: false });
    expect(erin).toMatchObject({ base: 0, head: loop.head.deliveriesByVat.get('v7'), exceeded: true });
    expect(r.status).toBe(1);
  });
});
