/**
 * Crank and vat selection: parsing, matching, and `--cranks`/`--vat` on the
 * text render, whose selected cranks must print exactly as in the full render
 * (the reference text), with names learned from the whole slog.
 */
import { describe, expect, it } from 'vitest';
import { CrankSelection, parseCrankRanges, SelectionError } from '../src/analyses/common/selection.js';
import { VatNames } from '../src/model/vats.js';
import type { Crank } from '../src/model/crank.js';
import { readSlog, referenceText, runCli, expectSameText } from './helpers.js';
import { runInProcess } from './run-main.js';

/** A rendered crank: its number, the vat ID of its header (undefined for routing), and its text. */
interface Block {
  crankNum: number;
  vatID: string | undefined;
  text: string;
}

/**
 * Splits a full reference render into crank blocks: a block starts at a
 * `// crank N:` line after a blank line and runs to the blank line before the
 * next crank header or `// end of slog` (crank bodies may hold blank lines).
 */
function crankBlocks(reference: string): Block[] {
  const lines = reference.split('\n');
  const blocks: Block[] = [];
  let current: { crankNum: number; vatID: string | undefined; lines: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const next = lines[i + 1] ?? '';
    const header = /^\/\/ crank (\d+): (\S+)/.exec(line);
    if (header && lines[i - 1] === '') {
      current = { crankNum: Number(header[1]), vatID: /^v\d+$/.test(header[2] as string) ? header[2] : undefined, lines: [] };
    }
    if (current && line === '' && /^\/\/ (crank \d+:|end of slog)/.test(next)) {
      blocks.push({ crankNum: current.crankNum, vatID: current.vatID, text: current.lines.join('\n') });
      current = undefined;
      continue;
    }
    current?.lines.push(line);
  }
  return blocks;
}

/** What the render prints under a selection: startup line, the blocks, end line. */
function selectedRender(blocks: Block[]): string {
  return `// startup\n${blocks.map((b) => `\n${b.text}\n`).join('')}\n// end of slog\n`;
}

/** vatID -> name from the slog's create-vat entries (a plain loop over its JSON lines). */
function createdNames(slog: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const line of readSlog(slog).toString('utf8').split('\n')) {
    if (!line.includes('"create-vat"')) continue;
    const e = JSON.parse(line) as { type: string; vatID?: string; name?: string };
    if (e.type === 'create-vat' && e.vatID && e.name) names.set(e.vatID, e.name);
  }
  return names;
}

describe('parseCrankRanges', () => {
  it('reads lists of numbers, ranges and open ranges', () => {
    expect(parseCrankRanges('7215-7495,8000,9000-')).toEqual([
      { from: 7215, to: 7495 },
      { from: 8000, to: 8000 },
      { from: 9000, to: Infinity },
    ]);
    expect(parseCrankRanges('-100')).toEqual([{ from: 0, to: 100 }]);
    expect(parseCrankRanges(' 3 , 5-6 ')).toEqual([
      { from: 3, to: 3 },
      { from: 5, to: 6 },
    ]);
  });

  it('rejects what is not a range', () => {
    for (const bad of ['', 'x', '5-3', '1,,2', '1-2-3', '-', 'v46']) {
      expect(() => parseCrankRanges(bad), bad).toThrow(SelectionError);
    }
  });
});

describe('CrankSelection', () => {
  const crank = (crankNum: number, vatID: string | undefined, crankType = 'delivery'): Crank =>
    ({ crankNum, vatID, crankType }) as Crank;

  it('matches crank ranges, vat IDs and vat names (annotations first)', () => {
    const vats = new VatNames(new Map([['v9', 'zoe']]));
    vats.observe({ type: 'create-vat', vatID: 'v46', name: 'walletFactory' });
    const sel = new CrankSelection({ cranks: parseCrankRanges('10-20,30-'), vats: ['zoe', 'v46'] }, vats);
    expect(sel.matches(crank(10, 'v9'))).toBe(true);
    expect(sel.matches(crank(15, 'v46'))).toBe(true);
    expect(sel.matches(crank(25, 'v9'))).toBe(false);
    expect(sel.matches(crank(35, 'v1'))).toBe(false);
    expect(sel.matches(crank(35, undefined, 'routing'))).toBe(false);
    const byName = new CrankSelection({ vats: ['walletFactory'] }, vats);
    expect(byName.matches(crank(1, 'v46'))).toBe(true);
    expect(byName.matches(crank(1, 'v9'))).toBe(false);
    expect(new CrankSelection({ cranks: parseCrankRanges('5') }, vats).matches(crank(5, undefined, 'routing'))).toBe(true);
    expect(new CrankSelection({}, vats).isAll).toBe(true);
  });
});

describe('--cranks and --vat on the text render', () => {
  it.each(['a-local-3', 'a-xs-3', 'b-local-5'])('%s: --cranks prints the selected cranks exactly as the full render', async (slog) => {
    for (const [name, args] of [
      ['default', []],
      ['timing', ['--timing']],
    ] as const) {
      const blocks = crankBlocks(referenceText(slog, name));
      const total = blocks.length;
      expect(total).toBeGreaterThan(100);
      // A range, a single crank and an open range, some of them routing cranks.
      const a = Math.floor(total / 4);
      const b = Math.floor(total / 2);
      const c = total - 5;
      const spec = `${a}-${a + 9},${b},${c}-`;
      const expected = blocks.filter((k) => (k.crankNum >= a && k.crankNum <= a + 9) || k.crankNum === b || k.crankNum >= c);
      expect(expected.length).toBe(16);
      const r = await runInProcess([...args, '--cranks', spec, `${slog}.slog`]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(selectedRender(expected));
    }
  });

  it('--vat by ID and by create-vat name select the same cranks, as the full render prints them', async () => {
    const slog = 'a-xs-3';
    const blocks = crankBlocks(referenceText(slog, 'nonoise-novatstore'));
    const names = createdNames(slog);
    const carol = [...names].find(([, n]) => n === 'carol')?.[0] as string;
    expect(carol).toBeDefined();
    const expected = blocks.filter((k) => k.vatID === carol || k.vatID === 'v2');
    expect(expected.length).toBeGreaterThan(5);
    const byId = await runInProcess(['--nonoise', '--novatstore', '--vat', carol, '--vat', 'v2', `${slog}.slog`]);
    const byName = await runInProcess(['--nonoise', '--novatstore', '--vat', 'carol', '--vat', names.get('v2') as string, `${slog}.slog`]);
    for (const r of [byId, byName]) {
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(selectedRender(expected));
    }
  });

  it('annotation names select and label cranks; --cranks and --vat combine', async () => {
    const slog = 'a-local-3';
    const annot = ['--annotations', '../annotations/a-local-3.annot.json'];
    const blocks = crankBlocks(referenceText(slog, 'annotated-nonoise-novatstore'));
    const expected = blocks.filter((k) => k.vatID === 'v8' && k.crankNum >= 100);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected[0]?.text).toMatch(/^\/\/ crank \d+: v8 carol \(dynamic\)/);
    const r = await runInProcess(['--nonoise', '--novatstore', ...annot, '--vat', 'carol (dynamic)', '--cranks', '100-', `${slog}.slog`]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`// ${'a-local-3: bootstrap sets up alice\'s registry and bob\'s accounts, then runs 3 rounds'}\n\n${selectedRender(expected)}`);
    // The annotation's name wins: the slog's own name no longer selects v8.
    const old = await runInProcess(['--nonoise', ...annot, '--vat', 'carol', `${slog}.slog`]);
    expect(old.status).toBe(0);
    expect(old.stderr).toMatch(/no cranks match vat carol/);
  });

  it('a crank labelled in the annotations keeps its label; a name learned before the selection applies', async () => {
    const slog = 'a-local-3';
    const blocks = crankBlocks(referenceText(slog, 'annotated-nonoise-novatstore'));
    const labelled = blocks.filter((k) => [106, 161, 220].includes(k.crankNum));
    expect(labelled.map((k) => k.text.split('\n')[0])).toEqual(
      labelled.map((k) => expect.stringMatching(new RegExp(`^// crank ${k.crankNum}: v\\d+ \\S+ --- Start of round #\\d$`))),
    );
    const r = await runInProcess(['--nonoise', '--novatstore', '--annotations', '../annotations/a-local-3.annot.json', '--cranks', '106,161,220', `${slog}.slog`]);
    expect(r.stdout.endsWith(selectedRender(labelled).slice('// startup\n'.length))).toBe(true);
  });

  it('a selection that matches nothing says so on stderr and exits 0', async () => {
    const r = await runInProcess(['--cranks', '999999-', 'a-local-3.slog']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('// startup\n\n// end of slog\n');
    expect(r.stderr).toBe('slogulate: a-local-3.slog: no cranks match cranks 999999-\n');
    const v = await runInProcess(['--vat', 'nosuchvat', 'a-local-3.slog']);
    expect(v.status).toBe(0);
    expect(v.stderr).toBe('slogulate: a-local-3.slog: no cranks match vat nosuchvat\n');
  });

  it('a bad --cranks is a usage error', async () => {
    const r = await runCli(['--cranks', '20-10', 'a-local-3.slog']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^slogulate: --cranks: bad crank range "20-10"/);
    expect(r.stderr.split('\n').length).toBe(2);
  });

  it('without a selection the render is unchanged (outside entries print)', async () => {
    const r = await runInProcess(['a-local-3.slog']);
    expectSameText(r.stdout, referenceText('a-local-3', 'default'));
  });
});
