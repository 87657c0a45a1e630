/**
 * Gzip data that ends before its end (open.ts, lines.ts): every byte zlib
 * decoded comes out, from a file and from a stream, even to a slow reader
 * (a failing zlib stream drops what it still buffers), then an
 * InputEndsEarly; the line splitter hands out the unfinished last line as
 * an unterminated one first and says how many lines were whole. Bad bytes
 * in the middle stay a plain InputError.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines, type LineBatch } from './lines.js';
import { InputEndsEarly, InputError, openInput, type SlogInput } from './open.js';

const SLOG = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'slogs', 'b-local-5.slog');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-gzip-ends-early-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plain = readFileSync(SLOG);
const gz = gzipSync(plain);
/** What zlib can decode of cut gzip data (the independent answer). */
const decodable = (cut: Buffer): Buffer => gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH });
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** All of an input's decompressed bytes, and how its chunks ended; `delay` ms after each chunk (a slow reader). */
async function drain(input: SlogInput, delay = 0): Promise<{ bytes: Buffer; error: unknown }> {
  const source = await openInput(input);
  const parts: Buffer[] = [];
  try {
    for await (const chunk of source.chunks()) {
      parts.push(Buffer.from(chunk));
      if (delay) await sleep(delay);
    }
  } catch (error) {
    return { bytes: Buffer.concat(parts), error };
  }
  return { bytes: Buffer.concat(parts), error: undefined };
}

function cutFile(name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe('gzip data cut short', () => {
  // Cut points across the file: in the header, in the data, in the 8-byte trailer.
  const cuts = [5, 3000, Math.floor(gz.length / 3), Math.floor(gz.length * 0.97), gz.length - 4];

  it.each(cuts)('cut at byte %i: every decodable byte, then InputEndsEarly (a file, a stream, a slow reader)', async (at) => {
    const cut = gz.subarray(0, at);
    const expected = decodable(cut);
    const file = cutFile(`cut-${at}.slog.gz`, cut);
    for (const [input, delay] of [
      [file, 0],
      [file, 3],
      [{ name: 'piped', stream: Readable.from([cut.subarray(0, at >> 1), cut.subarray(at >> 1)]) }, 3],
      [{ name: 'bytes', bytes: cut }, 0],
    ] as Array<[SlogInput, number]>) {
      const { bytes, error } = await drain(input, delay);
      expect(bytes.equals(expected)).toBe(true);
      expect(error).toBeInstanceOf(InputEndsEarly);
      expect((error as InputEndsEarly).message).toBe(`${typeof input === 'string' ? input : input.name}: gzip data ends early (file truncated, or still being written)`);
    }
  });

  it('whole gzip data, and concatenated members: no error', async () => {
    const half = plain.indexOf(10, plain.length >> 1) + 1;
    const members = Buffer.concat([gzipSync(plain.subarray(0, half)), gzipSync(plain.subarray(half))]);
    for (const data of [gz, members]) {
      const { bytes, error } = await drain(cutFile('whole.gz', data), 2);
      expect(error).toBeUndefined();
      expect(bytes.equals(plain)).toBe(true);
    }
  });

  it('bad bytes in the middle: not valid gzip data, not a truncation', async () => {
    const bad = Buffer.from(gz);
    for (let i = 0; i < 64; i += 1) bad[(bad.length >> 1) + i] = (i * 37) & 0xff;
    const { error } = await drain(cutFile('corrupt.gz', bad));
    expect(error).toBeInstanceOf(InputError);
    expect(error).not.toBeInstanceOf(InputEndsEarly);
    expect((error as Error).message).toMatch(/: not valid gzip data \(/);
  });
});

describe('the line splitter on gzip data cut short', () => {
  async function lines(input: SlogInput): Promise<{ texts: string[]; last: LineBatch | undefined; error: unknown }> {
    const texts: string[] = [];
    let last: LineBatch | undefined;
    try {
      for await (const batch of readLines((await openInput(input)).chunks(), { bigLineBytes: 4096 })) {
        last = batch;
        if (batch.big) {
          const parts: Buffer[] = [];
          for await (const chunk of batch.big.chunks()) parts.push(Buffer.from(chunk));
          texts.push(Buffer.concat(parts).toString('utf8'));
          continue;
        }
        for (let i = 0; i < batch.spans.length; i += 2) texts.push(batch.bytes.toString('utf8', batch.spans[i], batch.spans[i + 1]));
      }
    } catch (error) {
      return { texts, last, error };
    }
    return { texts, last, error: undefined };
  }

  it('every whole line, the unfinished one as the unterminated last line, then InputEndsEarly with the whole lines', async () => {
    const cut = gz.subarray(0, Math.floor(gz.length * 0.6));
    const pieces = decodable(cut).toString('utf8').split('\n');
    const whole = pieces.slice(0, -1);
    const rest = pieces[pieces.length - 1] as string;
    expect(rest).not.toBe('');
    const { texts, last, error } = await lines({ name: 'cut.gz', bytes: cut });
    expect(texts).toEqual([...whole, rest]);
    expect(last?.unterminatedLast).toBe(true);
    expect(error).toBeInstanceOf(InputEndsEarly);
    const ended = error as InputEndsEarly;
    expect(ended.wholeLines).toBe(whole.length);
    expect(ended.line).toBe(whole.length + 1);
    expect(ended.warning).toBe(`gzip data ends early (file truncated, or still being written): read up to line ${whole.length}`);
  });

  it('cut at the end of a line: no unterminated line; cut inside a big line: its bytes read, then the error', async () => {
    const text = plain.toString('utf8');
    const upTo = text.indexOf('\n', text.length >> 1) + 1;
    const atLineEnd = gzipSync(Buffer.from(text.slice(0, upTo))).subarray(0, -8);
    const boundary = await lines({ name: 'boundary.gz', bytes: atLineEnd });
    expect(boundary.texts).toEqual(text.slice(0, upTo - 1).split('\n'));
    expect(boundary.last?.unterminatedLast).toBe(false);
    expect((boundary.error as InputEndsEarly).wholeLines).toBe(boundary.texts.length);

    // A line over the splitter's big-line size, of bytes that do not compress much, cut in its middle.
    const noise = Array.from({ length: 1000 }, (_, i) => createHash('sha256').update(String(i)).digest('hex')).join('');
    const big = `{"type":"console","args":["${noise}"]}`;
    const withBig = gzipSync(Buffer.from(`${text.slice(0, upTo)}${big}\n`));
    const cut = withBig.subarray(0, withBig.length - 10_000);
    const decoded = decodable(cut).toString('utf8');
    const r = await lines({ name: 'big.gz', bytes: cut });
    expect(r.texts.join('\n')).toBe(decoded);
    expect(r.last?.big?.unterminated).toBe(true);
    expect((r.error as InputEndsEarly).wholeLines).toBe(r.texts.length - 1);
  });

  it('only the gzip header: no line, InputEndsEarly with none whole', async () => {
    const r = await lines({ name: 'head.gz', bytes: gz.subarray(0, 6) });
    expect(r.texts).toEqual([]);
    expect((r.error as InputEndsEarly).wholeLines).toBe(0);
    expect((r.error as InputEndsEarly).warning).toBe('gzip data ends early (file truncated, or still being written): no whole line in it');
  });
});
