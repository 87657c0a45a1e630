/**
 * `slogulate annotate`: the names it gives the real slogs' krefs, checked
 * against facts read from the slogs with a plain loop (test/slog-facts.ts);
 * the file is one the renderer accepts, renders every kref by name, is the
 * same every time, and `--merge` keeps every name it is given.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { AnnotationJson } from '../src/analyses/flow/auto-names.js';
import { parseAnnotations } from '../src/model/annotations.js';
import { FIXTURES, readSlog, runCli, slogPath, SLOG_NAMES, expectSameText } from './helpers.js';
import { runInProcess } from './run-main.js';
import { allKrefs, methodOf, slogFacts } from './slog-facts.js';

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-annotate-'));

async function annotate(args: string[]): Promise<{ text: string; json: AnnotationJson }> {
  const r = await runInProcess(['annotate', ...args]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return { text: r.stdout, json: JSON.parse(r.stdout) as AnnotationJson };
}

describe.each(SLOG_NAMES)('annotate %s', (slog) => {
  const facts = slogFacts(slog);
  let out: { text: string; json: AnnotationJson };
  const names = (): Record<string, string> => out.json.kernelRefs;

  it('writes an annotation file the renderer accepts, naming every kref of the slog', async () => {
    out = await annotate([slogPath(slog)]);
    expect(() => parseAnnotations(out.json, 'annotate output')).not.toThrow();
    expect(new Set(Object.keys(names()))).toEqual(allKrefs(slog));
    // Names are unique.
    const values = Object.values(names());
    expect(new Set(values).size).toBe(values.length);
  });

  it("names a send's result promise after the send's method and count", () => {
    let checked = 0;
    for (const [result, m] of facts.byResult) {
      const total = facts.methodTotals.get(m.method) as number;
      const expected = total === 1 ? `${m.method}/rp` : `${m.method}-${m.count}/rp`;
      // A vat's root object wins over anything, and results are promises: never roots.
      expect(names()[result], result).toBe(expected);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('names vat roots and devices after their vats and names, and an object that is a whole resolution after the promise', () => {
    let roots = 0;
    let resolutions = 0;
    const firstSeen = new Map<string, number>(); // kref -> index of the first non-clist entry naming it
    facts.entries.forEach(({ e }, i) => {
      if (e.type === 'clist') return;
      for (const m of JSON.stringify(e).matchAll(/"(k[opd]\d+)"/g)) if (!firstSeen.has(m[1] as string)) firstSeen.set(m[1] as string, i);
    });
    for (const [crank, d] of facts.delivers) {
      if (d.kd[0] === 'message' && d.vd[1] === 'o+0') {
        expect(names()[d.kd[1]], `crank ${crank}`).toBe(`${facts.vatNames.get(d.vat)}.root`);
        roots += 1;
      }
    }
    facts.entries.forEach(({ e, crank }, i) => {
      if (e.type !== 'syscall' || e.ksc[0] !== 'resolve' || facts.aborted.has(crank)) return;
      for (const [kp, , data] of e.ksc[2] as [string, boolean, { body: string; slots: string[] }][]) {
        const [slot] = data.slots;
        if (!/^#"\$0[."]/.test(data.body) || !slot || firstSeen.get(slot) !== i) continue;
        if ([...facts.delivers.values()].some((d) => d.kd[1] === slot && d.vd[1] === 'o+0')) continue;
        expect(names()[slot], `${slot} resolves ${kp}`).toBe(`${(names()[kp] as string).replace(/\/rp$/, '')}/r`);
        resolutions += 1;
      }
    });
    // bootstrap(vats, devices): the kernel's records name every vat root and device.
    const boot = [...facts.delivers.values()].find((d) => d.kd[0] === 'message' && methodOf(d.kd[2].methargs) === 'bootstrap');
    const [vatsArg, devicesArg] = JSON.parse(boot?.kd[2].methargs.body.slice(1))[1] as Record<string, string>[];
    const slots = boot?.kd[2].methargs.slots as string[];
    const slotOf = (ref: string): string => slots[Number(/^\$(\d+)/.exec(ref)?.[1])] as string;
    for (const [vatName, ref] of Object.entries(vatsArg ?? {})) expect(names()[slotOf(ref)]).toBe(`${vatName}.root`);
    for (const [device, ref] of Object.entries(devicesArg ?? {})) expect(names()[slotOf(ref)]).toBe(device);
    expect(roots).toBeGreaterThan(3);
    expect(resolutions).toBeGreaterThan(2);
  });

  it('renders every named kref by name: each @kref left is one the file does not name', async () => {
    const file = join(tmp, `${slog}.annot.json`);
    writeFileSync(file, out.text);
    const r = await runInProcess(['--annotations', file, slogPath(slog)]);
    expect(r.status).toBe(0);
    const left = new Set([...r.stdout.matchAll(/@(k[opd]\d+)/g)].map((m) => m[1] as string));
    for (const kref of left) expect(names()[kref], kref).toBeUndefined();
    expect(left.size).toBe(0); // every kref of these slogs has a name
    // And the names do show: each appears in the render (no kref of these slogs hides only in <BIG> values).
    for (const [kref, name] of Object.entries(names())) expect(r.stdout.includes(`<${name}>`), `${kref} ${name}`).toBe(true);
  });

  it('is the same every time, from a file, stdin or gzip', async () => {
    const again = await annotate([slogPath(slog)]);
    expectSameText(again.text, out.text);
    const fromStdin = await runCli(['annotate', '-'], { stdin: gzipSync(readSlog(slog)) });
    expectSameText(fromStdin.stdout, out.text);
  });
});

describe('annotate --merge', () => {
  const mine = join(FIXTURES, 'annotations', 'a-local-3.annot.json');
  const given = JSON.parse(readFileSync(mine, 'utf8')) as AnnotationJson;

  it('keeps every name, label, vat name and setting of the merged file and adds the rest', async () => {
    const { json } = await annotate(['--merge', mine, slogPath('a-local-3')]);
    for (const [kref, name] of Object.entries(given.kernelRefs)) expect(json.kernelRefs[kref]).toBe(name);
    expect(json.vatNames).toEqual(given.vatNames);
    expect(json.crankLabels).toEqual(given.crankLabels);
    expect(json.vatRefs).toEqual(given.vatRefs);
    expect(json.comment).toBe(given.comment);
    expect(json.bigWidth).toBe(given.bigWidth);
    expect(new Set(Object.keys(json.kernelRefs))).toEqual(allKrefs('a-local-3'));
    // The file calls kp46 openAccount-1/rp; the first openAccount's real result (kp44) keeps the
    // automatic name, marked so that no two krefs share one.
    expect(json.kernelRefs.kp44).toBe('openAccount-1/rp #2');
  });

  it('refuses a bad merge file with one line and status 2', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, '{"kernelRefs": {"nope": "x"}}');
    const r = await runCli(['annotate', '--merge', bad, slogPath('a-local-3')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`slogulate: annotation file ${bad}: kernelRefs.nope: not a kref like ko12, kp40 or kd3\n`);
    expect(r.stdout).toBe('');
  });

  it('writes to --out', async () => {
    const file = join(tmp, 'out.json');
    const r = await runInProcess(['annotate', '--out', file, slogPath('b-local-5')]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    const { json } = await annotate([slogPath('b-local-5')]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(json);
  });
});

describe('annotate on real slogs whose vats have no names', () => {
  /** The kernel's bootstrap(vats, devices) message in a slog, by a plain loop: each vat root's name in its `vats` record, by kref. */
  function recordNames(file: string): Map<string, string> {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('bootstrap')) continue;
      const e = JSON.parse(line) as { type: string; replay?: boolean; kd?: unknown[]; message?: { msg?: { methargs?: { body: string; slots: string[] } } } };
      const msg = e.type === 'deliver' && e.replay !== true ? (e.kd?.[2] as { methargs?: { body: string; slots: string[] } } | undefined) : e.message?.msg;
      const methargs = msg?.methargs;
      if (!methargs || !methargs.body.startsWith('#["bootstrap",')) continue;
      const [, args] = JSON.parse(methargs.body.slice(1)) as [string, [Record<string, string>]];
      const names = new Map<string, string>();
      for (const [name, ref] of Object.entries(args[0])) {
        const slot = /^\$(\d+)/.exec(ref)?.[1];
        if (slot !== undefined) names.set(methargs.slots[Number(slot)] as string, name);
      }
      return names;
    }
    throw new Error(`${file}: no bootstrap message`);
  }

  it.each(['restart-replay.slog', 'mid-crank-start.slog'])('%s: a root is named by its entry in bootstrap\'s vats record (bootstrap.root, not v1.root), its re-exports after it', async (slog) => {
    const file = join(FIXTURES, '..', '..', 'shared', 'slogs', 'real', slog);
    const r = await runInProcess(['annotate', file]);
    expect(r.status).toBe(0);
    const names = (JSON.parse(r.stdout) as AnnotationJson).kernelRefs ?? {};
    const record = recordNames(file);
    expect(record.size).toBeGreaterThan(3);
    for (const [kref, name] of record) if (kref.startsWith('ko')) expect(names[kref], kref).toBe(`${name}.root`);
    // No root is named by a bare vat ID when the record names its vat.
    expect(Object.values(names).filter((n) => /^v\d+\.root/.test(n) && n.startsWith('v1.'))).toEqual([]);
  });
});

describe('annotate -o: an annotation file updated in place (issue 29, item 8)', () => {
  const slog = slogPath('a-local-3');
  const run = (args: string[]): ReturnType<typeof runInProcess> => runInProcess(['annotate', ...args, slog]);
  const leftovers = (): string[] => readdirSync(tmp).filter((f) => f.endsWith('.tmp'));

  it('a file annotate wrote, unchanged, is replaced; once edited by hand it is kept (exit 2, one line) unless --force', async () => {
    const file = join(tmp, 'update.json');
    expect((await run(['-o', file])).status).toBe(0);
    const written = readFileSync(file, 'utf8');
    expect((await run(['-o', file])).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(written);
    // A name chosen by hand.
    const edited = written.replace('"alice.root"', '"aliceRoot"');
    expect(edited).not.toBe(written);
    writeFileSync(file, edited);
    const refused = await run(['-o', file]);
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(new RegExp(`^slogulate: --out ${file}: edited since slogulate annotate wrote it; not replacing it \\(.*--merge.*--force.*\\)\\n$`));
    expect(readFileSync(file, 'utf8')).toBe(edited);
    expect((await run(['--force', '-o', file])).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(written);
    expect(leftovers()).toEqual([]);
  });

  it('a file annotate did not write (a hand-made annotation file) is kept unless --force', async () => {
    const file = join(tmp, 'hand-made.json');
    const mine = readFileSync(join(FIXTURES, 'annotations', 'a-local-3.annot.json'), 'utf8');
    writeFileSync(file, mine);
    const refused = await run(['-o', file]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`^slogulate: --out ${file}: not written by slogulate annotate; not replacing it \\(`));
    expect(refused.stderr.split('\n')).toHaveLength(2);
    expect(readFileSync(file, 'utf8')).toBe(mine);
  });

  it('--merge F -o F: keeps every name of F, adds the new ones, in place; a failed run leaves F as it was', async () => {
    const file = join(tmp, 'in-place.json');
    const given = readFileSync(join(FIXTURES, 'annotations', 'a-local-3.annot.json'), 'utf8');
    writeFileSync(file, given);
    const r = await run(['--merge', file, '-o', file]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    const merged = JSON.parse(readFileSync(file, 'utf8')) as AnnotationJson;
    for (const [kref, name] of Object.entries((JSON.parse(given) as AnnotationJson).kernelRefs)) expect(merged.kernelRefs[kref]).toBe(name);
    expect(new Set(Object.keys(merged.kernelRefs))).toEqual(allKrefs('a-local-3'));
    // The merged file, edited again, updates again in place; the same file as the slog never.
    const again = readFileSync(file, 'utf8').replace('"bob.root"', '"bobRoot"');
    writeFileSync(file, again);
    expect((await run(['--merge', file, '-o', file])).status).toBe(0);
    expect((JSON.parse(readFileSync(file, 'utf8')) as AnnotationJson).kernelRefs.ko22).toBe('bobRoot');
    const before = readFileSync(file, 'utf8');
    const failed = await runInProcess(['annotate', '--merge', file, '-o', file, join(tmp, 'no-such.slog')]);
    expect(failed.status).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(leftovers()).toEqual([]);
  });

  it('the file annotate writes is an annotation file --annotations reads, its names by kref', async () => {
    const file = join(tmp, 'read-back.json');
    expect((await run(['-o', file])).status).toBe(0);
    const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const parsed = parseAnnotations(json, file);
    expect(new Set(parsed.kernelRefs.keys())).toEqual(allKrefs('a-local-3'));
    const r = await runInProcess(['--annotations', file, slog]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });
});
