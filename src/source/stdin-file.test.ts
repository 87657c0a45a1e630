/**
 * Stdin that is a regular file (`slogulate - < FILE`, open.ts): read as a
 * file is, from where its offset stands, gzip or plain. Stdin that is a
 * pipe (`cat FILE | slogulate -`): read synchronously until a read would
 * wait (a non-blocking pipe), then as a stream; gzip as a stream. A socket
 * is left to the stream path. The command line gives the same text as for
 * the file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { stdinFile } from './open.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SLOG = join(ROOT, 'fixtures', 'slogs', 'a-local-3.slog');
const BIN = join(ROOT, 'bin', 'slogulate');
const dir = mkdtempSync(join(tmpdir(), 'slogulate-stdin-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plain = readFileSync(SLOG);
const gzPath = join(dir, 'a.slog.gz');
writeFileSync(gzPath, gzipSync(plain));

/** `run(args, file)` (slogulate with args, stdin from `file`) prints what slogulate prints for the file itself: plain or gzip, render and stats. */
function expectSameAsFile(run: (args: string[], file: string) => string): void {
  const fromFile = spawnSync(process.execPath, [BIN, SLOG], { env: { ...process.env, NO_COLOR: '1' } }).stdout.toString();
  expect(run(['-'], SLOG)).toBe(fromFile);
  expect(run(['-'], gzPath)).toBe(fromFile);
  const stats = spawnSync(process.execPath, [BIN, 'stats', '--json', SLOG]).stdout.toString();
  expect(run(['stats', '--json', '-'], SLOG)).toBe(stats.replace(JSON.stringify(SLOG), '"<stdin>"'));
}

/** Every byte a source's chunks give (gunzipped where the bytes were gzip). */
async function bytesOf(chunks: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

describe('stdinFile', () => {
  it('a regular file: its bytes from its offset on, its size, gzip or not; the fd stays open', async () => {
    for (const [path, gzipped] of [
      [SLOG, false],
      [gzPath, true],
    ] as const) {
      const fd = openSync(path, 'r');
      try {
        const source = await stdinFile(fd);
        expect(source?.gzipped).toBe(gzipped);
        expect(source?.rawSize).toBe(readFileSync(path).length);
        expect((await bytesOf(source?.chunks() ?? [])).equals(plain)).toBe(true);
        expect(source?.rawBytesRead()).toBe(readFileSync(path).length);
        // Still open: a read at its end gives nothing, where a closed fd would throw.
        expect(readSync(fd, Buffer.alloc(1))).toBe(0);
      } finally {
        closeSync(fd);
      }
    }
    // From where the offset stands: the first line already read by someone else.
    const fd = openSync(SLOG, 'r');
    try {
      const firstLine = plain.indexOf(10) + 1;
      readSync(fd, Buffer.alloc(firstLine), 0, firstLine, null);
      expect((await bytesOf((await stdinFile(fd))?.chunks() ?? [])).equals(plain.subarray(firstLine))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('a socket (what Node.js gives a child for stdio "pipe") is not taken: the stream path reads it', () => {
    const script = `import { stdinFile } from ${JSON.stringify(join(ROOT, 'dist', 'source', 'open.js'))}; process.stdout.write(String(await stdinFile()));`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: 'x' }).stdout.toString();
    expect(out).toBe('undefined');
  });
});

describe('slogulate - < FILE', () => {
  const run = (args: string[], stdinPath: string): string => {
    const fd = openSync(stdinPath, 'r');
    try {
      const r = spawnSync(process.execPath, [BIN, ...args], { stdio: [fd, 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
      expect(r.status, r.stderr.toString()).toBe(0);
      return r.stdout.toString();
    } finally {
      closeSync(fd);
    }
  };

  it('prints what the file gives, plain or gzip, render and stats', () => {
    expectSameAsFile(run);
  });
});

/** A FIFO in the test folder (mkfifo(1): Node.js has no call for it). */
function makeFifo(name: string): string {
  const path = join(dir, name);
  const made = spawnSync('mkfifo', [path]);
  expect(made.status, made.stderr?.toString()).toBe(0);
  return path;
}

describe('stdinFile on a pipe', () => {
  it('a blocking pipe: every byte, read synchronously, plain or gzip; the fd stays open', async () => {
    for (const [bytes, gzipped] of [
      [plain, false],
      [readFileSync(gzPath), true],
    ] as const) {
      const fifo = makeFifo(`blocking-${gzipped ? 'gz' : 'plain'}`);
      // The writer, another process: opening a FIFO to read waits for one.
      const writer = spawn('sh', ['-c', `cat '${gzipped ? gzPath : SLOG}' > '${fifo}'`]);
      const exited = new Promise((resolve) => writer.once('exit', resolve));
      const fd = openSync(fifo, 'r');
      try {
        let streamed = false;
        const source = await stdinFile(fd, () => {
          streamed = true;
          return new Socket({ fd, readable: true, writable: false });
        });
        expect(source?.gzipped).toBe(gzipped);
        expect((await bytesOf(source?.chunks() ?? [])).equals(plain)).toBe(true);
        expect(source?.rawBytesRead()).toBe(bytes.length);
        // Plain: never the stream (every read waited for the writer); gzip: the stream after the magic.
        expect(streamed).toBe(gzipped);
        if (!gzipped) expect(readSync(fd, Buffer.alloc(1))).toBe(0);
      } finally {
        if (!gzipped) closeSync(fd);
        await exited;
      }
    }
  });

  it('a non-blocking pipe: read synchronously while bytes are there, then from the stream, each byte once and in order', async () => {
    for (const before of [0, 1, 5000]) {
      const fifo = makeFifo(`nonblocking-${before}`);
      const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const w = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      // Some bytes there before the first read (none: the head's read would wait; one: half a gzip magic's worth).
      writeSync(w, plain, 0, before);
      let streamed = false;
      const pending = stdinFile(fd, () => {
        streamed = true;
        return new Socket({ fd, readable: true, writable: false });
      });
      // The rest once the reader waits on the stream, in pieces, then the end.
      const writing = (async () => {
        for (let at = before; at < plain.length; at += 64 << 10) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          let from = at;
          const to = Math.min(plain.length, at + (64 << 10));
          while (from < to) {
            try {
              from += writeSync(w, plain, from, to - from);
            } catch {
              await new Promise((resolve) => setTimeout(resolve, 1));
            }
          }
        }
        closeSync(w);
      })();
      const source = await pending;
      expect(source?.gzipped).toBe(false);
      const got = await bytesOf(source?.chunks() ?? []);
      await writing;
      expect(got.length).toBe(plain.length);
      expect(got.equals(plain)).toBe(true);
      expect(source?.rawBytesRead()).toBe(plain.length);
      expect(streamed).toBe(true);
    }
  });
});

describe('cat FILE | slogulate -', () => {
  const piped = (args: string[], file: string): string => {
    const r = spawnSync('sh', ['-c', `cat '${file}' | '${process.execPath}' '${BIN}' ${args.join(' ')}`], { env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status, r.stderr.toString()).toBe(0);
    return r.stdout.toString();
  };

  it('prints what the file gives, plain or gzip, render and stats', () => {
    expectSameAsFile(piped);
  });
});
