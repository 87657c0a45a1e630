/**
 * Damaged and unusual input (issue 13): a byte-order mark, a binary file, a
 * crank-start line that is damaged, written twice, or last in the slog.
 * Hand-made damage on real slogs, in process; exit statuses through
 * bin/slogulate.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statsOf } from '../src/run/analyses.js';
import { renderSlog } from '../src/run/render.js';
import type { BadLineReport } from '../src/run/pass.js';
import { expectSameText, readSlog, referenceText, runCli, slogPath } from './helpers.js';
import { runInProcess } from './run-main.js';

const dir = mkdtempSync(join(tmpdir(), 'slogulate-damaged-'));
const lines = (name: string): string[] => readSlog(name).toString('utf8').split('\n').filter((l) => l !== '');
const bytes = (ls: string[]): { name: string; bytes: Buffer } => ({ name: 'damaged.slog', bytes: Buffer.from(`${ls.join('\n')}\n`) });

describe('a byte-order mark', () => {
  it('at the start of a slog is no bad line', async () => {
    const bad: BadLineReport[] = [];
    const r = await renderSlog({ inputs: [{ name: 'bom.slog', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readSlog('a-local-3')]) }], onBadLine: (b) => bad.push(b) });
    expect(bad).toEqual([]);
    expectSameText(r.text, referenceText('a-local-3', 'default'));
  });

  it('at the start of an annotation file', async () => {
    const file = join(dir, 'bom.annot.json');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(join(slogPath('a-local-3'), '..', '..', 'annotations', 'a-local-3.annot.json'))]));
    const r = await runInProcess(['--nonoise', '--novatstore', '--annotations', file, 'a-local-3.slog']);
    expect(r.stderr).toBe('');
    expectSameText(r.stdout, referenceText('a-local-3', 'annotated-nonoise-novatstore'));
  });
});

describe('a binary file', () => {
  it('is not a slog: one line, exit 1, not a warning per line', async () => {
    const file = join(dir, 'binary.slog');
    const noise = Buffer.alloc(200_000);
    for (let i = 0; i < noise.length; i += 1) noise[i] = (i * 7919 + 13) % 256;
    writeFileSync(file, noise);
    for (const args of [[file], ['stats', file], ['top', file]]) {
      const r = await runCli(args);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`slogulate: ${file}: not a slog (first 100 lines are not slog entries)\n`);
    }
  });

  it('a few bad lines among good ones are reported one by one', async () => {
    const ls = lines('a-local-3');
    const bad: BadLineReport[] = [];
    await renderSlog({ inputs: [bytes(['not json', ...ls.slice(0, 50), 'junk', ...ls.slice(50)])], onBadLine: (b) => bad.push(b) });
    expect(bad.map((b) => b.line)).toEqual([1, 52]);
  });
});

describe('crank-start lines', () => {
  /** Crank 37's lines in a-local-3, and the index of its crank-start. */
  const ls = lines('a-local-3');
  const at = ls.findIndex((l) => l.startsWith('{"type":"crank-start"') && l.includes('"crankNum":37,'));

  it('a damaged one: the crank is still its own, found by --vat, and counted', async () => {
    const damaged = [...ls];
    damaged[at] = (damaged[at] as string).slice(0, 40);
    const text = (await renderSlog({ inputs: [bytes(damaged)], options: { nonoise: true } })).text;
    expect(text).toMatch(/^\/\/ crank 37: v6 alice \(crank-start missing\)\ndeliver: @ko29 <- register\("bob", @ko30\): @kp45$/m);
    const selected = (await renderSlog({ inputs: [bytes(damaged)], options: { nonoise: true }, selection: { vats: ['alice'] } })).text;
    expect(selected).toContain('// crank 37: v6 alice (crank-start missing)');
    const [whole, broken] = await Promise.all([statsOf({ inputs: [bytes(ls)] }), statsOf({ inputs: [bytes(damaged)] })]);
    expect(broken.aggregate.deliveries.count).toBe(whole.aggregate.deliveries.count);
    expect(broken.aggregate.syscalls.count).toBe(whole.aggregate.syscalls.count);
  });

  it('written twice: one crank, no phantom', async () => {
    const twice = [...ls.slice(0, at + 1), ...ls.slice(at)];
    const text = (await renderSlog({ inputs: [bytes(twice)] })).text;
    expectSameText(text, referenceText('a-local-3', 'default'));
    const [whole, doubled] = await Promise.all([statsOf({ inputs: [bytes(ls)] }), statsOf({ inputs: [bytes(twice)] })]);
    expect(doubled.aggregate.cranks).toEqual(whole.aggregate.cranks);
  });

  it('the last line of the slog: an unfinished crank, its vat not known: no undefined', async () => {
    const send = ls.findIndex((l) => l.startsWith('{"type":"crank-start","crankType":"delivery"') && l.includes('"messageType":"send"'));
    const text = (await renderSlog({ inputs: [bytes(ls.slice(0, send + 1))] })).text;
    const last = text.slice(text.lastIndexOf('\n// crank '));
    expect(last).toMatch(/^\n\/\/ crank \d+: <no vat> <no name> \(unfinished\)\ncrank-start: delivery crank \d+\n\n\/\/ end of slog\n$/);
  });
});
