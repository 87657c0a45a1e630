/**
 * Lines over the big-line threshold (SLOGULATE_BIG_LINE_BYTES; 16 KB here
 * so that the slogs stay small) are read as a stream of tokens
 * (scan/big-line.ts), never held whole: what every command makes of a slog
 * must not change. The oracle is the same slog read with no threshold (every
 * line held whole and JSON.parse'd, as before big lines were streamed).
 *
 * The slogs are real ones with huge lines put in (big-line-slogs.ts: huge
 * console strings, huge message arguments, resolutions, vatstore values, a
 * huge bundle, an unknown entry, a line that is not JSON, a huge last line
 * cut short...). They are read as a stream of small chunks (lines span
 * chunks), as bytes in memory (big lines inside one chunk), and gzipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analysisPass, statsOf, topOf } from '../src/run/analyses.js';
import { runPass, type BadLineReport } from '../src/run/pass.js';
import { settingsFrom } from '../src/run/pass-settings.js';
import { renderSlog } from '../src/run/render.js';
import type { RenderOptions } from '../src/render/options.js';
import { BigString } from '../src/scan/big-string.js';
import { READ_ALL } from '../src/scan/reads.js';
import type { SlogEntry } from '../src/scan/entry-types.js';
import type { SlogInput } from '../src/source/open.js';
import { bigText, CASES, casesTaken, withBigLines } from './big-line-slogs.js';
import { ROOT, slogPath } from './helpers.js';

const THRESHOLD = 16 << 10;
/** How much each case makes its line grow: over the threshold, and over BIG_STRING_CHARS. */
const N = 20_000;
const REAL = join(ROOT, '..', 'shared', 'slogs', 'real');

/** With no threshold: every line held whole, as before. */
const NONE = String(Number.MAX_SAFE_INTEGER);

function setThreshold(bytes: string): void {
  process.env.SLOGULATE_BIG_LINE_BYTES = bytes;
}

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.SLOGULATE_BIG_LINE_BYTES;
});
afterEach(() => {
  if (saved === undefined) delete process.env.SLOGULATE_BIG_LINE_BYTES;
  else process.env.SLOGULATE_BIG_LINE_BYTES = saved;
});

/** The slog as a stream of 12 KB chunks (a huge line spans several). */
function streamed(name: string, text: string): SlogInput {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 12 << 10) chunks.push(bytes.subarray(i, i + (12 << 10)));
  return { name, stream: Readable.from(chunks, { objectMode: false }) };
}

/** The text a render prints, and the bad lines it reported (line numbers and the kind of fault). */
async function render(input: () => SlogInput, options: Partial<RenderOptions>, threshold: string): Promise<{ text: string; bad: string[] }> {
  setThreshold(threshold);
  const bad: BadLineReport[] = [];
  const { text } = await renderSlog({ inputs: [input()], options, onBadLine: (b) => bad.push(b) });
  return { text, bad: bad.map((b) => `${b.line}: ${b.why.split(':')[0]}`) };
}

async function expectSameRender(input: () => SlogInput, options: Partial<RenderOptions>): Promise<string> {
  const before = await render(input, options, NONE);
  const after = await render(input, options, String(THRESHOLD));
  expect(after.bad).toEqual(before.bad);
  // Not toBe: a diff of megabytes of text helps no one.
  expect(after.text.length).toBe(before.text.length);
  expect(after.text === before.text, `render ${JSON.stringify(options)} differs`).toBe(true);
  return after.text;
}

const XS = withBigLines(readFileSync(slogPath('a-xs-3'), 'utf8'), N, { unterminated: true });

describe('a real slog with huge lines of every kind (a-xs-3)', () => {
  it('takes every case, and its huge lines take the big-line path (the test covers what it says)', async () => {
    expect(casesTaken(readFileSync(slogPath('a-xs-3'), 'utf8')).length).toBe(CASES.length - 1); // no replays in it
    expect(XS.split('\n').filter((l) => Buffer.byteLength(l) > THRESHOLD).length).toBeGreaterThanOrEqual(17);
    // Only a big line's entries hold BigStrings.
    setThreshold(String(THRESHOLD));
    let holding = 0;
    const sink = { entry: () => undefined, crank: () => undefined };
    await runPass({ inputs: [streamed('x', XS)], reads: READ_ALL, sink, settings: settingsFrom(), bigStrings: true, observe: (e) => void (holding += hasBigString(e) ? 1 : 0) });
    expect(holding).toBeGreaterThanOrEqual(12);
  });

  it('renders the same text, byte for byte, with every sort of option', async () => {
    const input = (): SlogInput => streamed('a-xs-3-big.slog', XS);
    const text = await expectSameRender(input, {});
    // What the cases mean to show, shown: a console string printed whole, huge values as <BIG>.
    expect(text.includes(`log: big: ${bigText(N, 2)} {"n":1,"text":${JSON.stringify(bigText(N, 3))},"list":[1,"x"]} 42\n`)).toBe(true);
    expect(text).toMatch(/resolve fulfill: @kp\d+ := <BIG>/);
    expect(text).toMatch(/send: @ko\d+ <- \w+\(.*<BIG>, @ko999, 0, 1, 2/);
    for (const options of [
      { nonoise: true, novatstore: true, timing: true },
      { vatspace: true, usesloggertags: true, bigWidth: 0 },
      { bigWidth: 100_000, summarize: true, clist: false },
    ]) {
      await expectSameRender(input, options);
    }
  });

  it('the same when cranks spill (model/assembler.ts): a spilled crank\'s huge strings wait in its text', async () => {
    const saved = process.env.SLOGULATE_SPILL;
    try {
      for (const spill of ['1', '3']) {
        process.env.SLOGULATE_SPILL = spill;
        const before = await render(() => streamed('x', XS), {}, NONE);
        const after = await render(() => streamed('x', XS), {}, String(THRESHOLD));
        expect(after.text === before.text, `SLOGULATE_SPILL=${spill}`).toBe(true);
        // The huge console string, in a crank that spilled, printed whole.
        expect(after.text.includes(`log: big: ${bigText(N, 2)}`)).toBe(true);
      }
    } finally {
      if (saved === undefined) delete process.env.SLOGULATE_SPILL;
      else process.env.SLOGULATE_SPILL = saved;
    }
  });

  it('the same from bytes in memory (big lines inside one chunk) and gzipped', async () => {
    const before = await render(() => streamed('x', XS), {}, NONE);
    const bytes = await render(() => ({ name: 'x', bytes: Buffer.from(XS) }), {}, String(THRESHOLD));
    expect(bytes.text === before.text).toBe(true);
    expect(bytes.bad).toEqual(before.bad);
    const gz = await render(() => ({ name: 'x.gz', bytes: gzipSync(XS) }), {}, String(THRESHOLD));
    expect(gz.text === before.text).toBe(true);
    expect(gz.bad).toEqual(before.bad);
  });

  it('reports a huge line that is not JSON, or not an object, or cut short, as on the plain path, and renders the rest', async () => {
    const { bad } = await render(() => streamed('x', XS), {}, String(THRESHOLD));
    expect(bad).toHaveLength(3);
    expect(bad[0]).toMatch(/^\d+: not JSON$/);
    expect(bad[1]).toMatch(/^\d+: not a slog entry \(not a JSON object\)$/);
    expect(bad[2]).toMatch(/^\d+: truncated last line \(no newline at end\)$/);
  });

  it('stats and top count every huge delivery and syscall as before', async () => {
    const input = { inputs: [streamed('x', XS)] };
    setThreshold(NONE);
    const stats = (await statsOf({ inputs: [streamed('x', XS)] })).aggregate;
    const top = (await topOf({ inputs: [streamed('x', XS)], n: 10 })).top;
    setThreshold(String(THRESHOLD));
    expect((await statsOf(input)).aggregate).toEqual(stats);
    expect((await topOf({ inputs: [streamed('x', XS)], n: 10 })).top).toEqual(top);
  });

  it('a consumer that takes no BigStrings gets every field of every entry as JSON.parse gives it', async () => {
    const entries = async (threshold: string): Promise<SlogEntry[]> => {
      setThreshold(threshold);
      const all: SlogEntry[] = [];
      await analysisPass({ inputs: [streamed('x', XS)] }, READ_ALL, { entry: () => undefined, crank: () => undefined }, (e) => all.push(e));
      return all;
    };
    const before = await entries(NONE);
    const after = await entries(String(THRESHOLD));
    expect(after.length).toBe(before.length);
    expect(after.some((e) => JSON.stringify(e).includes('\\u0001'))).toBe(true);
    // Field by field (the check-reads proxies of the tests stringify as their entries).
    expect(after.map((e) => JSON.stringify(e))).toEqual(before.map((e) => JSON.stringify(e)));
    expect(after.some((e) => hasBigString(e))).toBe(false);
  });
});

function hasBigString(value: unknown): boolean {
  if (value instanceof BigString) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(hasBigString);
}

describe('other real slogs with huge lines', () => {
  for (const [name, path, options] of [
    ['restart-replay (replayed entries, a huge value with line breaks)', join(REAL, 'restart-replay.slog'), [{}, { vatspace: true }]],
    ['contextual-bot (contextual lines)', join(REAL, 'contextual-bot.jsonl'), [{}, { nonoise: true }]],
    ['chain-bot (--nonoise holds a block\'s text)', join(REAL, 'chain-bot.slog'), [{ nonoise: true }]],
    ['y2022-create-vat (older shapes)', join(REAL, 'y2022-create-vat.slog'), [{}]],
  ] as Array<[string, string, Array<Partial<RenderOptions>>]>) {
    it(`${name}: the same text`, async () => {
      const text = withBigLines(readFileSync(path, 'utf8'), N);
      expect(text.split('\n').filter((l) => Buffer.byteLength(l) > THRESHOLD).length).toBeGreaterThan(5);
      for (const o of options) await expectSameRender(() => streamed(name, text), o);
    });
  }
});
