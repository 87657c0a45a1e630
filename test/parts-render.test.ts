/**
 * `--parts`: crank headers that split the crank's time, and heap-snapshot-save
 * lines with their times and sizes (src/render/parts-header.ts,
 * src/render/snapshot-line.ts; docs/render.md). Every header is checked
 * against the split a plain loop computes from the slog's JSON lines
 * (test/time-split-loop.ts), every snapshot line against its JSON entry;
 * every other line is `--timing`'s (the reference texts), byte for byte.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSlog } from '../src/run/render.js';
import { referenceText, ROOT, runCli, slogPath } from './helpers.js';
import { expectedFigures, loopFacts, splitAdds, type LoopFacts } from './parts-expected.js';
import { slogEntries } from './time-split-loop.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HEADER = /^\/\/ crank (\d+): .*? (\[total:\d+µs [^\]]*\]) \d+ syscalls/;

/** A heap-snapshot-save line as --parts prints it, from its entry. */
function expectedSaveLine(e: Json): string {
  const s = (x: number): string => `${(Math.round(x * 1e6) / 1e6).toFixed(2)}s`;
  const mb = (b: number): string => (b < 100_000 ? `${(b / 1000).toFixed(1)} kB` : `${(b / 1e6).toFixed(1)} MB`);
  const bits: string[] = [];
  if (typeof e.compressSeconds === 'number') bits.push(`compress ${s(e.compressSeconds)}`);
  if (typeof e.dbSaveSeconds === 'number') bits.push(`db ${s(e.dbSaveSeconds)}`);
  if (typeof e.archiveWriteSeconds === 'number') bits.push(`archive ${s(e.archiveWriteSeconds)}`);
  const sizes = [e.uncompressedSize, e.compressedSize].filter((b) => typeof b === 'number').map(mb);
  if (sizes.length) bits.push(sizes.join(' -> '));
  const at = typeof e.endPosition === 'object' && e.endPosition !== null ? e.endPosition.itemCount : e.endPosition;
  return `heap-snapshot-save ${e.vatID} ${e.snapshotID} at ${at}${bits.length ? `: ${bits.join(' ')}` : ''}`;
}

/**
 * Checks a --parts text against the loop: each delivery crank header of a
 * crank whose split adds something shows the split; each save line its
 * entry's figures. Returns how many headers showed a split.
 */
function checkAgainstLoop(text: string, entries: readonly Json[]): number {
  const facts = loopFacts(entries);
  let split = 0;
  for (const line of text.split('\n')) {
    const m = HEADER.exec(line);
    if (!m) continue;
    const fact = facts.get(Number(m[1]));
    if (!fact) continue;
    if (splitAdds(fact)) {
      split += 1;
      expect(m[2], line).toBe(expectedFigures(fact));
    } else expect(m[2], line).toMatch(/^\[total:\d+µs local:\d+µs [\d.]+% syscall:\d+µs [\d.]+%\]$/);
  }
  const saves = text.split('\n').filter((l) => l.startsWith('heap-snapshot-save '));
  expect(saves).toEqual(entries.filter((e) => e.type === 'heap-snapshot-save').map(expectedSaveLine));
  return split;
}

describe('the shared slogs', () => {
  it.each(['a-local-3', 'b-local-5', 'a-xs-3'])('%s: --timing\'s text but where the split adds something', async (slog) => {
    const reference = referenceText(slog, 'timing').split('\n');
    const r = await renderSlog({ inputs: [slogPath(slog)], options: { timing: true, parts: true } });
    const lines = r.text.split('\n');
    expect(lines.length).toBe(reference.length);
    const entries = slogEntries(slogPath(slog));
    const facts = loopFacts(entries);
    const changed: number[] = [];
    lines.forEach((line, i) => {
      if (line === reference[i]) return;
      changed.push(i);
      // Only a crank header whose split adds something, or a heap-snapshot-save line.
      const m = HEADER.exec(line);
      if (m) expect(splitAdds(facts.get(Number(m[1])) as LoopFacts), line).toBe(true);
      else expect(line.startsWith('heap-snapshot-save ') && (reference[i] as string).startsWith('heap-snapshot-save '), line).toBe(true);
    });
    const split = checkAgainstLoop(r.text, entries);
    const saves = entries.filter((e) => e.type === 'heap-snapshot-save').length;
    expect(changed.length).toBe(split + saves);
    expect(split).toBe([...facts.values()].filter(splitAdds).length);
    if (slog === 'a-xs-3') {
      // XS workers: every crank of theirs has pipe time (comms, v3, is a local worker).
      const xs = [...facts.values()].filter((f) => f.deliveries.some((d) => f.crank.crankNum !== undefined && (d.pipe ?? 1) > 0));
      expect(split).toBe(xs.length);
      expect(split).toBeGreaterThan(150);
      expect(saves).toBeGreaterThan(0);
    } else {
      // Local workers: no pipe, no snapshot; only the cranks that page a vat in.
      expect(saves).toBe(0);
      expect(split).toBe([...facts.values()].filter((f) => f.crank.pageIn > 0).length);
      expect(split).toBeLessThan(5);
    }
  });

  it('the same through bin/slogulate, --parts implying --timing (syscall times too)', async () => {
    const [parts, timing] = await Promise.all([runCli(['--parts', 'a-local-3.slog']), runCli(['--parts', '--timing', 'a-local-3.slog'])]);
    expect([parts.status, parts.stderr]).toEqual([0, '']);
    expect(timing.stdout).toBe(parts.stdout);
    const r = await renderSlog({ inputs: [slogPath('a-local-3')], options: { timing: true, parts: true } });
    expect(parts.stdout).toBe(r.text);
  });
});

describe('chain-A', () => {
  const entries = slogEntries(CHAIN_A);

  it('every header and snapshot line agrees with the loop; crank 808 is its snapshot, 1419 its page-in', async () => {
    const r = await renderSlog({ inputs: [CHAIN_A], options: { timing: true, parts: true, nonoise: true } });
    expect(checkAgainstLoop(r.text, entries)).toBeGreaterThan(1000);
    const header = (n: number): string => r.text.split('\n').find((l) => l.startsWith(`// crank ${n}: `)) as string;
    const figure = (line: string, name: string): number => Number(new RegExp(`[ (]${name}:(\\d+)µs`).exec(line)?.[1]);
    const c808 = header(808);
    expect(figure(c808, 'snapshot')).toBeGreaterThanOrEqual(1_800_000);
    expect(figure(c808, 'vat')).toBeLessThan(60_000);
    const c1419 = header(1419);
    expect(figure(c1419, 'page-in')).toBeGreaterThanOrEqual(1_300_000);
    expect(Math.abs(figure(c1419, 'replay') - 454_000)).toBeLessThan(2_000);
    expect(figure(c1419, 'vat')).toBeLessThan(40_000);
  });

  it('bin/slogulate --parts --cranks 808: the header, and the save line with its times and sizes', async () => {
    const r = await runCli(['--parts', '--cranks', '808', CHAIN_A]);
    expect([r.status, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.split('\n');
    const save = entries.find((e) => e.type === 'heap-snapshot-save' && e.vatID === 'v5' && e.endPosition === 46) as Json;
    expect(lines).toContain(expectedSaveLine(save));
    expect(lines.find((l) => l.startsWith('heap-snapshot-save '))).toMatch(/ at 46: compress 1\.81s db 0\.02s 14\.1 MB -> 2\.8 MB$/);
    const c808 = loopFacts(entries).get(808) as LoopFacts;
    expect(lines).toContain(`// crank 808: v5 timer ${expectedFigures(c808)} 1 syscalls 2364 computrons`);
  });
});

// ---- hand-made lines: what the shared slogs lack

const T0 = 1795400000;
const at = (micros: number): number => T0 + micros / 1e6;
type Line = Record<string, unknown>;

/** A crank of a bringOutYourDead delivery with `count` syscalls (20 µs of vat code, 5 µs each way, 10 µs in the kernel each), its list cut to `keep` times; then a snapshot save. */
function boydCrank(count: number, keep: number, save: Line): Line[] {
  const lines: Line[] = [
    { type: 'crank-start', crankType: 'delivery', crankNum: 1, time: at(0) },
    { type: 'deliver', crankNum: 1, vatID: 'v1', deliveryNum: 1, replay: false, kd: ['bringOutYourDead'], vd: ['bringOutYourDead'], time: at(100) },
  ];
  const list = [105];
  let now = 105;
  for (let i = 0; i < count; i += 1) {
    list.push((now += 20));
    lines.push({ type: 'syscall', crankNum: 1, vatID: 'v1', replay: false, ksc: ['vatstoreGet', 'v1', 'k'], vsc: ['vatstoreGet', 'k'], time: at(now + 5) });
    lines.push({ type: 'syscall-result', crankNum: 1, vatID: 'v1', replay: false, ksr: ['ok', null], vsr: ['ok', null], time: at(now + 15) });
    list.push((now += 20));
  }
  list.push((now += 20));
  lines.push({ type: 'deliver-result', crankNum: 1, vatID: 'v1', deliveryNum: 1, replay: false, dr: ['ok', null, { compute: 7, timestamps: list.slice(0, keep).map(at) }], time: at(now + 5) });
  lines.push({ ...save, time: at(now + 1000) });
  lines.push({ type: 'crank-finish', crankType: 'delivery', crankNum: 1, time: at(now + 1100) });
  return lines;
}

const SAVE = { type: 'heap-snapshot-save', vatID: 'v1', snapshotID: 'abc', endPosition: { itemCount: 9 }, uncompressedSize: 14_123_456, compressedSize: 80_000, compressSeconds: 1.234, dbSaveSeconds: 0.0162, archiveWriteSeconds: 0.106, restartWorker: false };

async function renderLines(lines: Line[], options: Record<string, boolean>): Promise<string[]> {
  const bytes = Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n'));
  const [fast, plain] = await Promise.all(
    (['fast', 'plain'] as const).map((path) => renderSlog({ inputs: [{ name: 'x.slog', bytes }], options: { nonoise: true, ...options }, path })),
  );
  expect(fast?.badLines).toBe(0);
  expect(plain?.text).toBe(fast?.text);
  return (fast?.text as string).split('\n').filter((l) => l !== '' && l !== '// startup' && l !== '// end of slog');
}

describe('hand-made lines', () => {
  it('a list capped at 100 (101 syscalls): vat and pipe as unknown(vat+pipe), GC unknown', async () => {
    const lines = boydCrank(101, 100, SAVE);
    const [header] = await renderLines(lines, { timing: true, parts: true });
    // The delivery: 105 + 101 x 40 + 20 + 5 µs after its deliver, 1010 µs in syscalls; the save 995 µs after the result; 100 + 100 kernel.
    const delivery = 5 + 101 * 40 + 20 + 5;
    expect(header).toBe(`// crank 1: v1 <no name> [total:${100 + delivery + 1095}µs unknown(vat+pipe):${delivery - 1010}µs (gc:?) syscall:1010µs snapshot:995µs kernel:200µs] 101 syscalls 7 computrons`);
  });

  it('a whole list: vat with its GC, pipe; the save with archive write, a size under 100 kB in kB', async () => {
    const lines = boydCrank(2, 6, SAVE);
    const text = await renderLines(lines, { timing: true, parts: true });
    expect(text[0]).toBe(`// crank 1: v1 <no name> [total:${100 + 110 + 1095}µs vat:60µs (gc:20µs) syscall:20µs pipe:30µs snapshot:995µs kernel:200µs] 2 syscalls 7 computrons`);
    expect(text.at(-1)).toBe('heap-snapshot-save v1 abc at 9: compress 1.23s db 0.02s archive 0.11s 14.1 MB -> 80.0 kB');
    expect(text.at(-1)).toBe(expectedSaveLine(SAVE));
  });

  it('--no-times: no figures in the header, the save line its sizes only; without --parts the line as --timing prints it', async () => {
    const lines = boydCrank(2, 6, SAVE);
    const text = await renderLines(lines, { timing: true, parts: true, noTimes: true });
    expect(text[0]).toBe('// crank 1: v1 <no name> 2 syscalls 7 computrons');
    expect(text.at(-1)).toBe('heap-snapshot-save v1 abc at 9: 14.1 MB -> 80.0 kB');
    expect((await renderLines(lines, { timing: true })).at(-1)).toBe('heap-snapshot-save v1 abc at 9');
    const bare = { type: 'heap-snapshot-save', vatID: 'v1', snapshotID: 'abc', endPosition: 9 };
    expect((await renderLines(boydCrank(2, 6, bare), { timing: true, parts: true })).at(-1)).toBe('heap-snapshot-save v1 abc at 9');
  });
});
