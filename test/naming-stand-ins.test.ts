/**
 * Long lines that name vats, in an index as stand-ins (source/naming-line.ts):
 * big-local-1200's create-vats carry their vats' bundles (about 900 KB a
 * line), too long to keep whole, so that before, every seek read each of
 * them from the slog (a .gz: inflated the member holding it). Checked on
 * that slog, plain and recompressed: the index has a stand-in for each long
 * line a plain loop finds, each teaching the learners (the line reader,
 * VatNames, the time) what the line teaches; a seek reads none of them and
 * prints what the full scan prints (render and top); `extract` writes the
 * lines themselves, as without the index.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { MODEL_READS } from '../src/model/reads.js';
import { VatNames } from '../src/model/vats.js';
import { extractSlog } from '../src/run/extract.js';
import { indexOfPlain, recompress, stampOfPath } from '../src/run/gzip-index.js';
import { lineReader } from '../src/scan/line-reader.js';
import type { SlogEntry } from '../src/scan/entry-types.js';
import { writeIndex, type GzipIndex } from '../src/source/gzip-index.js';
import { splitLines } from '../src/source/lines.js';
import { namingStandIn } from '../src/source/naming-line.js';
import { planSeek, type SeekPlan } from '../src/source/seek.js';
import { ROOT } from './helpers.js';
import { cranks, expectSame, isPlan, SEEK, WHOLE } from './seek-oracle.js';

const BIG = join(ROOT, '..', 'shared', 'slogs', 'big-local-1200.slog.gz');
const tmp = mkdtempSync(join(tmpdir(), 'slogulate-stand-ins-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const bytes = gunzipSync(readFileSync(BIG));
const plain = join(tmp, 'big.slog');
writeFileSync(plain, bytes);

/** The slog's lines that hold `"create-vat"`, by a plain loop: where each starts and ends (its newline), and its bytes. */
function namingLines(): Array<{ start: number; end: number; line: Buffer }> {
  const out: Array<{ start: number; end: number; line: Buffer }> = [];
  const needle = Buffer.from('"create-vat"');
  for (let hit = bytes.indexOf(needle); hit >= 0; ) {
    const start = bytes.lastIndexOf(10, hit) + 1;
    let end = bytes.indexOf(10, hit);
    if (end < 0) end = bytes.length;
    out.push({ start, end, line: bytes.subarray(start, end) });
    hit = bytes.indexOf(needle, end);
  }
  return out;
}

/** What the learners learn from one line read as the pass reads it: the vat names and the time. */
function learned(line: Buffer): { names: Array<[string, string | undefined]>; time: unknown } {
  const entry = lineReader(MODEL_READS, { fast: true }).read(splitLines(line), 0) as SlogEntry;
  const vats = new VatNames();
  vats.observe(entry);
  const ids = ['v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10'];
  return { names: ids.map((id) => [id, vats.lookup(id)]), time: entry.time };
}

describe('long lines that name vats: the index keeps a stand-in for each', () => {
  const lines = namingLines();
  const long = lines.filter((l) => l.line.length > 64 << 10);

  it('big-local-1200, plain and recompressed: a stand-in for every long line, teaching what the line teaches; the short ones whole', async () => {
    expect(long.length).toBeGreaterThanOrEqual(7);
    // Some run past the index builder's search chunks (1 MB), which it gathers.
    expect(long.some((l) => Math.floor(l.start / (1 << 20)) !== Math.floor(l.end / (1 << 20)))).toBe(true);
    const gz = join(tmp, 'big.slog.gz');
    const fd = openSync(gz, 'w');
    const made = await recompress({ input: BIG, write: (b) => writeSync(fd, b), drained: async () => undefined, memberBytes: 4 << 20 });
    closeSync(fd);
    const indexes: Array<[string, GzipIndex]> = [
      ['plain', indexOfPlain(plain)],
      ['gz', made.index(stampOfPath(gz))],
    ];
    writeIndex(plain, indexes[0]?.[1] as GzipIndex);
    writeIndex(gz, indexes[1]?.[1] as GzipIndex);
    for (const [name, index] of indexes) {
      expect(index.createNames?.map((l) => [l.start, l.end]), name).toEqual(long.map((l) => [l.start, l.end]));
      expect(index.createLines.map((l) => l.start), name).toEqual(lines.filter((l) => l.line.length <= 64 << 10).map((l) => l.start));
      for (const [i, stand] of (index.createNames ?? []).entries()) {
        const line = (long[i] as { line: Buffer }).line;
        expect(stand.bytes.length).toBeLessThan(200);
        expect(stand.bytes.equals(namingStandIn(line) as Buffer)).toBe(true);
        expect(learned(stand.bytes), `${name}: the line at ${stand.start}`).toEqual(learned(line));
      }
    }
    // What the learners are taught is not nothing: alice's create-vat names v6.
    expect(learned((long[0] as { line: Buffer }).line).names).toContainEqual(['v6', 'alice']);
  }, 120_000);

  it('a seek reads none of them: the full scan\'s render and top, plain and .gz; extract writes the lines themselves', async () => {
    const gz = join(tmp, 'big.slog.gz');
    const longBytes = long.reduce((n, l) => n + l.line.length, 0);
    for (const file of [plain, gz]) {
      const plan = planSeek(file, { key: 'crankNum', from: 40_000, to: 40_004 }, SEEK.bigLineBytes) as SeekPlan;
      expect(isPlan(plan), file).toBe(true);
      expect(plan.prelude.filter((l) => l.standIn).map((l) => l.start)).toEqual(long.map((l) => l.start));
      // The probes, the range and the short lines: far less than the long lines.
      expect(plan.probed, file).toBeLessThan(longBytes / 4);
      expect(isPlan(await expectSame(file, cranks(40_000, 40_004))), file).toBe(true);
    }
    // extract of a crank of alice (v6, whose create-vat is long): the same bytes with the index as without, with the line itself.
    for (const file of [plain, gz]) {
      const got: Buffer[] = [];
      const want: Buffer[] = [];
      const a = await extractSlog({ inputs: [file], selection: { ...cranks(40_000, 40_004), vats: ['v6'] }, write: (b) => got.push(Buffer.from(b)), settings: SEEK });
      await extractSlog({ inputs: [file], selection: { ...cranks(40_000, 40_004), vats: ['v6'] }, write: (b) => want.push(Buffer.from(b)), settings: WHOLE });
      expect(isPlan(a.seek), file).toBe(true);
      const text = Buffer.concat(got);
      expect(text.equals(Buffer.concat(want)), file).toBe(true);
      expect(text.includes((long.find((l) => l.line.includes('"vatID":"v6"')) as { line: Buffer }).line)).toBe(true);
    }
  }, 180_000);
});
