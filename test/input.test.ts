/**
 * The input stage: the Buffer line splitter at every chunk boundary (CRLF,
 * multi-byte UTF-8 cut across chunks, empty lines, no trailing newline,
 * chunks reused by their reader), the chunk-of-lines reader of the parallel
 * render, the cutter of chunks at crank-start lines, and gzip input made of
 * several members (file and stdin).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { forEachEntryInBuffer } from '../src/input/buffer-entries.js';
import { forEachEntry } from '../src/input/entries.js';
import { readLineBatches } from '../src/input/lines.js';
import { openFile, openStdin, type SlogSource } from '../src/input/open.js';
import { ChunkBuffers, lastCrankStart, readSlogChunks, type SlogChunk } from '../src/input/parallel-chunks.js';
import type { SlogEntry } from '../src/model/types.js';
import { readSlog, slogPath } from './helpers.js';

/** Splits `bytes` into pieces of the given sizes (the last piece takes the rest). */
function pieces(bytes: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  if (at < bytes.length) out.push(bytes.subarray(at));
  return out;
}

/** An async iterator over pieces that reuses one buffer, as a file reader does: each piece is overwritten by the next. */
async function* borrowed(parts: Buffer[]): AsyncGenerator<Buffer> {
  const shared = Buffer.alloc(parts.reduce((max, p) => Math.max(max, p.length), 1));
  for (const part of parts) {
    part.copy(shared);
    yield shared.subarray(0, part.length);
    shared.fill(0x7e); // whatever the consumer kept of it is garbage now
  }
}

async function linesOf(input: AsyncIterable<Buffer>): Promise<{ lines: string[]; unterminated: boolean; numbers: number[] }> {
  const lines: string[] = [];
  const numbers: number[] = [];
  let unterminated = false;
  for await (const batch of readLineBatches(input)) {
    batch.lines.forEach((line, i) => {
      lines.push(line);
      numbers.push(batch.firstLine + i);
    });
    unterminated ||= batch.unterminatedLast;
  }
  return { lines, unterminated, numbers };
}

/** What a line splitter must give: lines without '\n' and a trailing '\r'. */
function expectedLines(text: string): { lines: string[]; unterminated: boolean } {
  const parts = text.split('\n');
  const unterminated = parts[parts.length - 1] !== '';
  if (!unterminated) parts.pop();
  return { lines: parts.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)), unterminated };
}

const SAMPLE = [
  '{"type":"console","args":["café ☕ 日本語 𝄞 emoji 🎉"]}\r',
  '',
  '{"type":"crank-start","crankNum":1}',
  '\r',
  '{"type":"clist","vobj":"é"}',
  '  ',
  '{"type":"x","s":"ü"}',
].join('\n');

describe('readLineBatches', () => {
  const cases: Array<[string, string]> = [
    ['ending with a newline', `${SAMPLE}\n`],
    ['without a trailing newline', SAMPLE],
    ['only newlines', '\n\n\n'],
    ['one line, no newline', 'é'],
    ['empty', ''],
  ];

  it.each(cases)('%s: same lines at every cut into two pieces, and in pieces of every size', async (_name, text) => {
    const bytes = Buffer.from(text, 'utf8');
    const expected = expectedLines(text);
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      const got = await linesOf(borrowed(pieces(bytes, [cut])));
      expect(got.lines).toEqual(expected.lines);
      expect(got.unterminated).toBe(expected.unterminated && expected.lines.length > 0);
      expect(got.numbers).toEqual(expected.lines.map((_, i) => i + 1));
    }
    for (let size = 1; size <= 7; size += 1) {
      const sizes = new Array<number>(bytes.length).fill(size);
      const got = await linesOf(borrowed(pieces(bytes, sizes)));
      expect(got.lines).toEqual(expected.lines);
    }
  });

  it('reads a real slog in pieces of 977 bytes exactly as split by hand', async () => {
    const bytes = readSlog('a-xs-3');
    const got = await linesOf(borrowed(pieces(bytes, new Array<number>(2000).fill(977))));
    expect(got.lines).toEqual(expectedLines(bytes.toString('utf8')).lines);
  });
});

describe('forEachEntryInBuffer agrees with forEachEntry', () => {
  const text = `${SAMPLE}\nnot json\n[1]\n{"no":"type"}\n{"type":"last","cut":`;
  const run = async (
    read: (onEntry: (e: SlogEntry, l: number) => void, onBad: (b: { line: number; why: string }) => void) => Promise<unknown>,
  ): Promise<string[]> => {
    const log: string[] = [];
    const stats = await read(
      (e, l) => log.push(`${l} ${JSON.stringify(e)}`),
      (b) => log.push(`${b.line} bad ${b.why}`),
    );
    log.push(JSON.stringify(stats));
    return log;
  };

  it('entries, bad lines with their numbers, a truncated last line, counts', async () => {
    const bytes = Buffer.from(text, 'utf8');
    const source = { name: 't', stream: Readable.from([bytes]), rawBytesRead: () => 0, rawSize: undefined, gzipped: false };
    const streamed = await run((onEntry, onBad) => forEachEntry(source, onEntry, onBad));
    const buffered = await run(async (onEntry, onBad) => forEachEntryInBuffer(bytes, { last: true, onEntry, onBadLine: onBad }));
    expect(buffered).toEqual(streamed);
    expect(streamed.some((l) => l.includes('truncated last line'))).toBe(true);
    expect(streamed.some((l) => l.startsWith('8 bad not JSON'))).toBe(true);
  });
});

describe('openFile and openStdin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slogulate-input-'));

  it('a plain file is read in reused chunks, counted for progress', async () => {
    const source = openFile(slogPath('b-local-5'));
    const lines: string[] = [];
    await forEachEntry(source, (_e, l) => lines.push(String(l)), () => undefined);
    const expected = readFileSync(slogPath('b-local-5'), 'utf8').split('\n').filter((l) => l !== '').length;
    expect(lines.length).toBe(expected);
    expect(source.rawBytesRead()).toBe(source.rawSize);
  });

  it('gzip of several members, from a file and from stdin, gives the whole text', async () => {
    const a = readSlog('a-local-3');
    const b = readSlog('b-local-5');
    const gz = Buffer.concat([gzipSync(a), gzipSync(b)]);
    const file = join(dir, 'two-members.slog.gz');
    writeFileSync(file, gz);
    const collect = async (source: SlogSource): Promise<Buffer> => {
      const parts: Buffer[] = [];
      for await (const chunk of source.stream as AsyncIterable<Buffer>) parts.push(Buffer.from(chunk));
      return Buffer.concat(parts);
    };
    const fromFile = openFile(file);
    expect(fromFile.gzipped).toBe(true);
    expect((await collect(fromFile)).equals(Buffer.concat([a, b]))).toBe(true);
    const fromStdin = await openStdin(Readable.from([gz.subarray(0, 5), gz.subarray(5)]));
    expect(fromStdin.gzipped).toBe(true);
    expect((await collect(fromStdin)).equals(Buffer.concat([a, b]))).toBe(true);
  });
});

describe('chunks for the parallel render', () => {
  async function chunksOf(bytes: Buffer, target: number, max: number, pieceSize: number): Promise<SlogChunk[]> {
    const input = borrowed(pieces(bytes, new Array<number>(Math.ceil(bytes.length / pieceSize)).fill(pieceSize)));
    const out: SlogChunk[] = [];
    const buffers = new ChunkBuffers(target * 2, 4);
    for await (const chunk of readSlogChunks(input, { targetBytes: target, maxBytes: max, buffers })) {
      out.push({ ...chunk, bytes: Buffer.from(chunk.bytes) });
      if (chunk.kind === 'chunk') buffers.give(chunk.bytes);
    }
    return out;
  }

  it.each([
    [4096, 1000],
    [20000, 65536],
    [100000, 101],
  ])('target %i bytes, pieces of %i: the chunks put together are the slog; each but the first starts at a crank-start', async (target, pieceSize) => {
    const bytes = readSlog('a-local-3');
    const chunks = await chunksOf(bytes, target, 1 << 30, pieceSize);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks.map((c) => c.bytes)).equals(bytes)).toBe(true);
    chunks.forEach((c, i) => {
      expect(c.kind).toBe('chunk');
      if (i > 0) expect(c.bytes.toString('utf8', 0, 22)).toBe('{"type":"crank-start",');
      expect(c.kind === 'chunk' && c.last).toBe(i === chunks.length - 1);
    });
  });

  it('hands back the rest when no crank-start comes within maxBytes', async () => {
    const bytes = readSlog('a-local-3');
    const chunks = await chunksOf(bytes, 1024, 2048, 4096);
    const rest = chunks.find((c) => c.kind === 'rest');
    expect(rest).toBeDefined();
    expect(chunks[chunks.length - 1]).toBe(rest);
    // What was cut, then the rest, are the slog's first bytes; the caller reads the others from the same input.
    const joined = Buffer.concat(chunks.map((c) => c.bytes));
    expect(joined.length).toBeGreaterThanOrEqual(2048);
    expect(bytes.subarray(0, joined.length).equals(joined)).toBe(true);
  });

  it('lastCrankStart: never a line cut short, nor one that is not a crank-start entry', () => {
    const good = '{"type":"crank-start","crankNum":2}';
    const text = ['{"type":"x"}', good, '{"type":"crank-start","crankNum":3', '{"type":"y"}', '{"type":"crank-start",'].join('\n');
    const buf = Buffer.from(text);
    expect(lastCrankStart(buf)).toBe(text.indexOf(good));
    expect(lastCrankStart(buf, text.indexOf(good) + 1)).toBe(-1);
    expect(lastCrankStart(Buffer.from(`{"type":"x"}\n${good}`))).toBe(-1);
  });
});
