/**
 * Gzipped slogs that seek (docs/gzip-index.md): `slogulate recompress`
 * writes gzip members that every gzip reader reads as the slog (Node's
 * gunzip, zcat), and an index whose members a plain loop over the slog's
 * bytes agrees with; a selection on an indexed .gz of many members reads
 * only the members it needs, the range a plain loop finds, and prints what
 * the full scan (`seek: false`, SLOGULATE_SEEK=0) prints, at sampled crank
 * boundaries, on a restart-replay slog and a mid-crank-start slog; a stale
 * index is not used, with one note; a .gz of one member, indexed, reads
 * from its start.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { recompress, stampOfPath } from '../src/run/gzip-index.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { renderSlog } from '../src/run/render.js';
import { indexOf, writeIndex, type GzipIndex } from '../src/source/gzip-index.js';
import { planSeek, type SeekRange } from '../src/source/seek.js';
import { expectSameText, ROOT, slogPath, withEnv } from './helpers.js';
import { afterRestart, cranks, expectedRange, expectSame, isPlan, placed, renderBothWithBadLines, SEEK, withBadLineBefore } from './seek-oracle.js';
import { runMain } from './run-main.js';

const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');
const CHAIN_A = join(REAL, 'chain-A.slog');
const RESTART = join(REAL, 'restart-replay.slog');
const MID_CRANK = join(REAL, 'mid-crank-start.slog');
const BIG_LINE = settingsFrom().bigLineBytes;

const tmp = mkdtempSync(join(tmpdir(), 'slogulate-gzip-index-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `slog` recompressed into `name` in the temp folder, members of about `memberBytes`, with its index. */
async function recompressed(slog: string, name: string, memberBytes: number): Promise<{ gz: string; index: GzipIndex }> {
  const gz = join(tmp, name);
  const fd = openSync(gz, 'w');
  const made = await recompress({ input: slog, write: (b) => writeSync(fd, b), drained: async () => undefined, memberBytes });
  closeSync(fd);
  const index = made.index(stampOfPath(gz));
  writeIndex(gz, index);
  return { gz, index };
}

describe('recompress: members every gzip reader reads as the slog, and an index a plain loop agrees with', () => {
  for (const [name, slog] of [
    ['a-local-3', slogPath('a-local-3')],
    ['chain-A', CHAIN_A],
    ['restart-replay', RESTART],
    ['mid-crank-start', MID_CRANK],
  ] as const) {
    it(name, async () => {
      const bytes = readFileSync(slog);
      const { gz, index } = await recompressed(slog, `${name}.slog.gz`, 32 << 10);
      const raw = readFileSync(gz);
      expect(gunzipSync(raw).equals(bytes)).toBe(true);
      const zcat = spawnSync('zcat', [gz], { maxBuffer: 1 << 30 });
      expect(zcat.status).toBe(0);
      expect(zcat.stdout.equals(bytes)).toBe(true);
      expect(index.members.length).toBeGreaterThan(1);
      expect(index.size).toBe(bytes.length);
      // Its file reads back as it was made.
      expect(indexOf(gz)).toEqual({ index, path: `${gz}.slogidx` });
      const lines = placed(bytes);
      const newlines: number[] = [];
      for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, nl + 1)) newlines.push(nl);
      let from = 0;
      let at = 0;
      for (const m of index.members) {
        // Each member a gzip stream of its own, of whole lines, of about the size asked.
        expect(m.from).toBe(from);
        expect(m.at).toBe(at);
        const piece = gunzipSync(raw.subarray(m.at, m.at + m.bytes));
        expect(piece.equals(bytes.subarray(m.from, m.from + m.size))).toBe(true);
        expect(m.from === 0 || bytes[m.from - 1] === 10).toBe(true);
        expect(m.lines).toBe(newlines.filter((nl) => nl < m.from).length);
        // The crank, block and time of its first line, by JSON.parse of that line.
        const nl = bytes.indexOf(10, m.from);
        const e = JSON.parse(bytes.subarray(m.from, nl < 0 ? bytes.length : nl).toString('utf8')) as Record<string, unknown>;
        expect(m.firstLine?.crankNum).toBe(e.crankNum);
        expect(m.firstLine?.time).toBe(e.time);
        expect(m.firstLine?.blockHeight).toBe(e.blockHeight);
        // Its crank-starts, summed up, as a plain loop counts them (one summary per kernel run).
        const inMember = lines.filter((l) => l.at >= m.from && l.at < m.from + m.size);
        expect(m.cranks.reduce((n, s) => n + s.n, 0)).toBe(inMember.filter((l) => l.e.type === 'crank-start').length);
        expect(m.blocks.reduce((n, s) => n + s.n, 0)).toBe(inMember.filter((l) => l.e.type === 'cosmic-swingset-begin-block').length);
        from += m.size;
        at += m.bytes;
      }
      expect(at).toBe(raw.length);
      // The kernel starts, and the lines that hold "create-vat" (which may name a vat), where a plain loop finds them.
      expect(index.starts.map((p) => bytes.lastIndexOf(10, p) + 1)).toEqual(lines.filter((l) => l.e.type === 'kernel-init-start').map((l) => l.at));
      const naming = lines.filter((l) => bytes.subarray(l.at, bytes.indexOf(10, l.at)).includes('"create-vat"')).map((l) => l.at);
      expect(new Set(index.creates.map((p) => bytes.lastIndexOf(10, p) + 1))).toEqual(new Set(naming));
      // The short ones' bytes, which a seek takes from the index: those lines of the slog, whole.
      expect(index.createLines.length).toBeGreaterThan(0);
      for (const l of index.createLines) {
        expect(naming).toContain(l.start);
        expect(l.bytes.equals(bytes.subarray(l.start, l.start + l.bytes.length))).toBe(true);
        expect(l.start + l.bytes.length === bytes.length || bytes[l.start + l.bytes.length] === 10).toBe(true);
      }
    }, 120_000);
  }
});

describe('selections on an indexed .gz seek, and print what the full scan prints', () => {
  it('a-local-3 at every 5th crank boundary: the plain loop\'s range, the same text', async () => {
    const bytes = readFileSync(slogPath('a-local-3'));
    const { gz } = await recompressed(slogPath('a-local-3'), 'a-local-3-every.slog.gz', 16 << 10);
    const nums = placed(bytes).filter((l) => l.e.type === 'crank-start').map((l) => l.e.crankNum as number);
    const sample = nums.filter((_, i) => i % 5 === 0);
    expect(sample.length).toBeGreaterThan(20);
    for (const n of sample) {
      const range: SeekRange = { key: 'crankNum', from: n, to: n + 1 };
      expect(planSeek(gz, range, BIG_LINE), `cranks ${n}-${n + 1}`).toMatchObject(expectedRange(bytes, range));
    }
    for (const n of sample.filter((_, i) => i % 6 === 3)) expect(isPlan(await expectSame(gz, cranks(n, n + 1)))).toBe(true);
  }, 120_000);

  it('chain-A: blocks, cranks and a time range after its restart seek; cranks before it are refused; the same text', async () => {
    const bytes = readFileSync(CHAIN_A);
    const { gz } = await recompressed(CHAIN_A, 'chain-A.slog.gz', 256 << 10);
    const lines = placed(bytes);
    const sample = afterRestart(lines, 'cosmic-swingset-begin-block', 'blockHeight').filter((_, i) => i % 20 === 0);
    expect(sample.length).toBeGreaterThan(3);
    for (const h of sample) {
      const range: SeekRange = { key: 'blockHeight', from: h, to: h };
      expect(planSeek(gz, range, BIG_LINE), `block ${h}`).toMatchObject(expectedRange(bytes, range));
    }
    expect(isPlan(await expectSame(gz, { blocks: [{ from: sample[1] as number, to: (sample[1] as number) + 2 }] }))).toBe(true);
    expect(isPlan(await expectSame(gz, cranks(1880, 1890)))).toBe(true);
    // Times: the crank-starts whose time is in the minute, by a plain loop, are those printed.
    const since = 1795405920;
    const seek = await expectSame(gz, { since, until: since + 30 });
    expect(isPlan(seek)).toBe(true);
    const inTimes = lines.filter((l) => l.e.type === 'crank-start' && (l.e.time as number) >= since && (l.e.time as number) < since + 30).length;
    const rendered = await renderSlog({ inputs: [gz], selection: { since, until: since + 30 }, settings: SEEK });
    expect(rendered.selected).toBe(inTimes);
    // A duration back from its end: read from its last member, as from the plain file's tail.
    const plainTop = await runMain(['top', '-n', '3', '--by', 'total', '--since', '1m', CHAIN_A]);
    const gzTop = await runMain(['top', '-n', '3', '--by', 'total', '--since', '1m', gz]);
    expect(gzTop.status, gzTop.stderr).toBe(0);
    expect(gzTop.stdout).toBe(plainTop.stdout);
    const last = lines[lines.length - 1]?.e.time as number;
    expect(plainTop.stdout).toContain(`since ${new Date((last - 60) * 1000).toISOString()}`);
    // Cranks run before its restart: refused, read whole, the same text.
    expect(await expectSame(gz, cranks(500, 510))).toMatchObject({ refused: expect.stringContaining('before a restart') });
  }, 180_000);

  it('restart-replay: after the restart seeks, at every 4th crank; before it is refused and marked (again after restart) as the full scan marks it', async () => {
    const bytes = readFileSync(RESTART);
    const { gz } = await recompressed(RESTART, 'restart.slog.gz', 8 << 10);
    const sample = afterRestart(placed(bytes), 'crank-start', 'crankNum').filter((_, i) => i % 4 === 0);
    expect(sample.length).toBeGreaterThan(5);
    for (const n of sample) {
      const range: SeekRange = { key: 'crankNum', from: n, to: n + 1 };
      expect(planSeek(gz, range, BIG_LINE), `cranks ${n}-${n + 1}`).toMatchObject(expectedRange(bytes, range));
    }
    expect(isPlan(await expectSame(gz, cranks(sample[2] as number, (sample[2] as number) + 5)))).toBe(true);
    const before = await renderSlog({ inputs: [gz], selection: cranks(45, 50), settings: SEEK });
    expect(before.seek).toMatchObject({ refused: expect.stringContaining('before a restart') });
    expect(before.text).toContain('(again after restart)');
    await expectSame(gz, cranks(45, 50));
  }, 120_000);

  it('mid-crank-start: from its first crank reads from the head, later cranks seek; the same text', async () => {
    const bytes = readFileSync(MID_CRANK);
    const { gz } = await recompressed(MID_CRANK, 'mid.slog.gz', 8 << 10);
    expect(planSeek(gz, { key: 'crankNum', from: 11, to: 11 }, BIG_LINE)).toMatchObject({ start: 0 });
    const range: SeekRange = { key: 'crankNum', from: 50, to: 55 };
    expect(planSeek(gz, range, BIG_LINE)).toMatchObject(expectedRange(bytes, range));
    expect(isPlan(await expectSame(gz, cranks(11, 11)))).toBe(true);
    expect(isPlan(await expectSame(gz, cranks(50, 55)))).toBe(true);
  }, 60_000);

  it('a bad line in a selected member: reported with its line number in the file, as the full scan reports it', async () => {
    const file = join(tmp, 'bad.slog');
    const line = withBadLineBefore(file, 105);
    const { gz } = await recompressed(file, 'bad.slog.gz', 16 << 10);
    const { seek: a, whole: b, seekBad, wholeBad } = await renderBothWithBadLines(gz, cranks(100, 110));
    expectSameText(a.text, b.text);
    expect(seekBad).toEqual([line]);
    expect(wholeBad).toEqual([line]);
  });
});

describe('extract on an indexed .gz', () => {
  it('seeks, and writes the lines the full scan writes', async () => {
    const { gz } = await recompressed(CHAIN_A, 'extract.slog.gz', 256 << 10);
    const seek = join(tmp, 'extract-seek.slog');
    const whole = join(tmp, 'extract-whole.slog');
    const a = await runMain(['extract', '--blocks', '150-152', gz, '-o', seek]);
    const b = await runMain(['extract', '--blocks', '150-152', gz, '-o', whole], { env: { SLOGULATE_SEEK: '0' } });
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    expect(readFileSync(seek).equals(readFileSync(whole))).toBe(true);
    // The lines of those blocks, by a plain loop: every line with blockHeight 150-152 of the last kernel run is in it.
    const lines = placed(readFileSync(seek)).filter((l) => typeof l.e.blockHeight === 'number');
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.every((l) => (l.e.blockHeight as number) >= 150 && (l.e.blockHeight as number) <= 152)).toBe(true);
  }, 60_000);
});

describe('the index command, stale indexes, one member', () => {
  it('gzip of one member, indexed: nothing to seek into, read from its start, the same text', async () => {
    const gz = join(tmp, 'one.slog.gz');
    writeFileSync(gz, gzipSync(readFileSync(slogPath('b-local-5'))));
    const r = await runMain(['index', gz]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 gzip member,');
    expect(r.stdout).toContain('nothing to seek into');
    expect(existsSync(`${gz}.slogidx`)).toBe(true);
    expect(await expectSame(gz, cranks(40, 45))).toMatchObject({ refused: expect.stringContaining('one member') });
  });

  it('concatenated gzips (cat a.gz b.gz): indexed at each member, seek', async () => {
    const bytes = readFileSync(CHAIN_A);
    const gz = join(tmp, 'cat.slog.gz');
    const cuts = [0, bytes.indexOf(10, 3_000_000) + 1, bytes.indexOf(10, 7_000_000) + 1, bytes.indexOf(10, 9_000_000) + 1, bytes.length];
    writeFileSync(gz, Buffer.concat(cuts.slice(1).map((end, i) => gzipSync(bytes.subarray(cuts[i], end)))));
    const r = await runMain(['index', gz]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('4 gzip members');
    const range: SeekRange = { key: 'crankNum', from: 1880, to: 1890 };
    expect(planSeek(gz, range, BIG_LINE)).toMatchObject(expectedRange(bytes, range));
    expect(isPlan(await expectSame(gz, cranks(1880, 1890)))).toBe(true);
  }, 60_000);

  it('members cut in the middle of lines (as bgzip cuts, every 64 KB): the plain loop\'s ranges, the same text', async () => {
    const bytes = readFileSync(CHAIN_A);
    const gz = join(tmp, 'bgzip-like.slog.gz');
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 64 << 10) pieces.push(gzipSync(bytes.subarray(at, at + (64 << 10))));
    writeFileSync(gz, Buffer.concat(pieces));
    const r = await runMain(['index', gz]);
    expect(r.status, r.stderr).toBe(0);
    const found = indexOf(gz);
    const index = 'index' in found ? found.index : undefined;
    expect(index?.members.length).toBe(pieces.length);
    // Most members begin inside a line: their first line is the one after their first newline.
    const inside = (index?.members ?? []).filter((m) => m.from > 0 && bytes[m.from - 1] !== 10);
    expect(inside.length).toBeGreaterThan(pieces.length / 2);
    for (const m of inside.slice(0, 20)) expect(m.firstLine?.at).toBe(bytes.indexOf(10, m.from) + 1);
    for (const range of [
      { key: 'crankNum', from: 1880, to: 1890 },
      { key: 'blockHeight', from: 150, to: 152 },
      { key: 'time', from: 1795405920, to: 1795405950 },
    ] as SeekRange[]) {
      const plan = planSeek(gz, range, BIG_LINE);
      if (range.key !== 'time') expect(plan, JSON.stringify(range)).toMatchObject(expectedRange(bytes, range));
      expect(isPlan(plan), JSON.stringify(plan)).toBe(true);
    }
    expect(isPlan(await expectSame(gz, cranks(1880, 1890)))).toBe(true);
    expect(isPlan(await expectSame(gz, { since: 1795405920, until: 1795405950 }))).toBe(true);
  }, 120_000);

  it('an index the slog no longer matches: not used, one note on stderr, the full scan\'s text', async () => {
    const { gz } = await recompressed(slogPath('a-local-3'), 'stale.slog.gz', 16 << 10);
    const fresh = await runMain(['--cranks', '100-102', gz]);
    expect(fresh.stderr).toBe('');
    // Touched: its time changed.
    const t = statSync(gz).mtime;
    utimesSync(gz, t, new Date(t.getTime() + 5000));
    const touched = await runMain(['--cranks', '100-102', gz]);
    expect(touched.stdout).toBe(fresh.stdout);
    expect(touched.stderr.trim().split('\n')).toEqual([`slogulate: ${gz}: its index ${gz}.slogidx is not used (the slog was modified since): run slogulate index ${gz}`]);
    // Grown: its size changed (a slog still written to).
    appendFileSync(gz, gzipSync(Buffer.from('')));
    const grown = await runMain(['top', '--cranks', '100-102', gz]);
    expect(grown.stderr).toMatch(/is not used \(the slog is \d+ bytes, the index was made of \d+\)/);
    expect(grown.stderr.trim().split('\n')).toHaveLength(1);
    expect(indexOf(gz)).toMatchObject({ stale: expect.any(String) });
    // Indexed again: used, no note.
    const again = await runMain(['index', gz]);
    expect(again.status).toBe(0);
    expect(indexOf(gz)).toMatchObject({ index: expect.any(Object) });
    expect(isPlan(planSeek(gz, { key: 'crankNum', from: 100, to: 102 }, BIG_LINE))).toBe(true);
  });

  it('beside the slog, else in the cache folder ($XDG_CACHE_HOME/slogulate)', async () => {
    const dir = join(tmp, 'cached');
    mkdirSync(dir);
    const gz = join(dir, 'c.slog.gz');
    const { gz: made } = await recompressed(slogPath('a-local-3'), 'c-src.slog.gz', 16 << 10);
    writeFileSync(gz, readFileSync(made));
    // The place beside it cannot be written (a folder there).
    mkdirSync(`${gz}.slogidx`);
    const cache = join(tmp, 'xdg');
    const r = await runMain(['index', gz], { env: { XDG_CACHE_HOME: cache } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(join(cache, 'slogulate'));
    expect(withEnv('XDG_CACHE_HOME', cache, () => isPlan(planSeek(gz, { key: 'crankNum', from: 100, to: 102 }, BIG_LINE)))).toBe(true);
  });

  it('index of a missing slog is a usage error; of gzip cut short, a failure; recompress never writes over its input', async () => {
    const none = await runMain(['index', join(tmp, 'no-such.slog')]);
    expect(none.status).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    const cut = join(tmp, 'cut.slog.gz');
    const whole = gzipSync(readFileSync(slogPath('a-local-3')));
    writeFileSync(cut, whole.subarray(0, whole.length >> 1));
    const r = await runMain(['index', cut]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('ends early');
    expect(existsSync(`${cut}.slogidx`)).toBe(false);
    const missing = await runMain(['recompress', join(tmp, 'no-such.slog'), join(tmp, 'never.slog.gz')]);
    expect(missing.status).toBe(2);
    expect(existsSync(join(tmp, 'never.slog.gz'))).toBe(false);
    const src = join(tmp, 'in.slog');
    writeFileSync(src, readFileSync(slogPath('a-local-3')));
    const same = await runMain(['recompress', src, src]);
    expect(same.status).toBe(2);
    expect(readFileSync(src).equals(readFileSync(slogPath('a-local-3')))).toBe(true);
  });

  it('recompress through the command line: a gzip input too, the same bytes, its index written', async () => {
    const gzIn = join(tmp, 'in.slog.gz');
    writeFileSync(gzIn, gzipSync(readFileSync(CHAIN_A)));
    const out = join(tmp, 'out.slog.gz');
    const r = await runMain(['recompress', '--member-size', '0.5', gzIn, out]);
    expect(r.status, r.stderr).toBe(0);
    expect(gunzipSync(readFileSync(out)).equals(readFileSync(CHAIN_A))).toBe(true);
    const found = indexOf(out);
    expect(found).toMatchObject({ index: { size: statSync(CHAIN_A).size } });
    const members = 'index' in found ? found.index.members.length : 0;
    // Half a megabyte each, the last less.
    expect(members).toBe(Math.ceil(statSync(CHAIN_A).size / (512 << 10)));
    expect(r.stderr).toContain(`wrote ${out} (`);
    expect(r.stderr).toContain(`${members} gzip members`);
  });
});
