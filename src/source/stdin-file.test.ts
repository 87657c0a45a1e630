/**
 * Stdin that is a regular file (`slogulate - < FILE`, open.ts): read as a
 * file is, from where its offset stands, gzip or plain; a pipe is left to
 * the stream path. The command line gives the same text as for the file.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
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
        const source = stdinFile(fd);
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
      expect((await bytesOf(stdinFile(fd)?.chunks() ?? [])).equals(plain.subarray(firstLine))).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('anything else (a pipe) is not taken: the stream path reads it', () => {
    const script = `import { stdinFile } from ${JSON.stringify(join(ROOT, 'dist', 'source', 'open.js'))}; process.stdout.write(String(stdinFile()));`;
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
    const fromFile = spawnSync(process.execPath, [BIN, SLOG], { env: { ...process.env, NO_COLOR: '1' } }).stdout.toString();
    expect(run(['-'], SLOG)).toBe(fromFile);
    expect(run(['-'], gzPath)).toBe(fromFile);
    const stats = spawnSync(process.execPath, [BIN, 'stats', '--json', SLOG]).stdout.toString();
    expect(run(['stats', '--json', '-'], SLOG)).toBe(stats.replace(JSON.stringify(SLOG), '"<stdin>"'));
  });
});
