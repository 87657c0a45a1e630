/**
 * The slog's last time, read from the file's tail: what a duration back
 * from the slog's end (`--since 10m`) counts from. A plain regular file, or
 * a gzip file with an index (its members read from the last), is read from
 * its end; a small gzip file without one (a per-block file of block-slog's,
 * up to `maxGzipBytes`) is inflated whole, bounded; a bigger gzip, stdin and
 * pipes cannot be (the caller says so). Memory: a window, and the pieces of
 * one line (a line longer than a window is put together before it is
 * parsed); a small gzip's inflated bytes.
 */
import { closeSync, fstatSync, readSync } from 'node:fs';
import { zlib } from './builtins.js';
import { withoutCr } from './lines.js';
import { describe, InputError, isGzipMagic, openToRead, readFullyAt } from './open.js';
import { findIndex } from './gzip-index.js';
import { MemberBytes } from './gzip-members.js';

/** A gzip member bigger than this is not inflated to read the slog's end. */
const MAX_MEMBER = 64 << 20;

/** A gzip file without an index up to this size is inflated whole to read its end (a per-block file is a few KB). */
export const SMALL_GZIP_BYTES = 8 << 20;

/** What a small gzip file may inflate to (a slog compresses some 8 to 1): more, and it is not read. */
const SMALL_GZIP_OUT = 16 * SMALL_GZIP_BYTES;

const WINDOW = 64 << 10;

/** Why the tail cannot be read: the caller makes it a usage error. */
export interface NoTail {
  cannot: string;
}

/** The `time` of a line, if it is a JSON object with a finite number there. */
function timeOf(bytes: Buffer): number | undefined {
  if (bytes.indexOf('"time"') < 0) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const time = (value as { time?: unknown }).time;
    return typeof time === 'number' && Number.isFinite(time) ? time : undefined;
  } catch {
    return undefined;
  }
}

/** The lines of the file from its end back, each whole (without its newline and a `\r` before it). */
function* linesBackward(readAt: (buf: Buffer, pos: number) => number, size: number): Generator<Buffer> {
  let pos = size;
  // The start of the line that continues into the windows read after (those nearer the end).
  let tail: Buffer[] = [];
  const buf = Buffer.allocUnsafe(WINDOW);
  while (pos > 0) {
    const from = Math.max(0, pos - WINDOW);
    const got = readAt(buf.subarray(0, pos - from), from);
    const win = Buffer.from(buf.subarray(0, got));
    let end = win.length;
    for (let nl = win.lastIndexOf(10, end - 1); nl >= 0; nl = end > 0 ? win.lastIndexOf(10, end - 1) : -1) {
      yield withoutCr(Buffer.concat([win.subarray(nl + 1, end), ...tail]));
      tail = [];
      end = nl;
    }
    tail = [win.subarray(0, end), ...tail];
    pos = from;
  }
  yield withoutCr(Buffer.concat(tail));
}

/** The `time` of the last line of `size` bytes read by `readAt` that has one (undefined: none has). */
function lastTimeIn(readAt: (buf: Buffer, pos: number) => number, size: number): number | undefined {
  for (const line of linesBackward(readAt, size)) {
    const time = timeOf(line);
    if (time !== undefined) return time;
  }
  return undefined;
}

/**
 * The last time of a gzip slog with an index that matches it (gzip-index.ts),
 * read from its end a member at a time; without one, it cannot be read.
 */
function lastGzipTime(path: string, fd: number, size: number, maxGzipBytes: number): number | undefined | NoTail {
  const found = findIndex(path, fd);
  if (!('index' in found)) return size <= maxGzipBytes ? lastSmallGzipTime(fd, size) : { cannot: `gzip of more than ${bytesText(maxGzipBytes)} without an index (slogulate index makes one)` };
  const bytes = new MemberBytes(fd, path, found.index.members, MAX_MEMBER);
  try {
    return lastTimeIn((buf, pos) => bytes.readAt(buf, pos), bytes.size);
  } catch (err) {
    if (err instanceof InputError) throw err;
    return { cannot: `gzip: ${(err as Error).message}` };
  }
}

/** `8 MB`, or a size that is not whole MB in bytes. */
function bytesText(n: number): string {
  return n % 2 ** 20 === 0 ? `${n / 2 ** 20} MB` : `${n} bytes`;
}

/**
 * The last time of a small gzip file without an index, inflated whole: every
 * member, and of a file cut short what it holds (as the pass reads it).
 */
function lastSmallGzipTime(fd: number, size: number): number | undefined | NoTail {
  const compressed = Buffer.allocUnsafe(size);
  const got = readFullyAt(fd, compressed, 0);
  let bytes: Buffer;
  try {
    bytes = zlib().gunzipSync(compressed.subarray(0, got), { finishFlush: zlib().constants.Z_SYNC_FLUSH, maxOutputLength: SMALL_GZIP_OUT });
  } catch (err) {
    return { cannot: `gzip: ${(err as Error).message}` };
  }
  return lastTimeIn((buf, pos) => bytes.copy(buf, 0, pos, pos + buf.length), bytes.length);
}

/**
 * The `time` of the last line that has one in the file at `path`
 * (undefined: no line has), or why it cannot be read from its end; a gzip
 * file without an index is inflated whole up to `maxGzipBytes` (default
 * SMALL_GZIP_BYTES). Throws InputError when the file cannot be opened or read.
 */
export function lastTimeOf(path: string, maxGzipBytes: number = SMALL_GZIP_BYTES): number | undefined | NoTail {
  const fd = openToRead(path);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { cannot: st.isDirectory() ? 'a folder' : 'not a regular file' };
    const head = Buffer.alloc(2);
    if (isGzipMagic(head.subarray(0, readSync(fd, head, 0, 2, 0)))) return lastGzipTime(path, fd, st.size, maxGzipBytes);
    return lastTimeIn((buf, pos) => readFullyAt(fd, buf, pos), st.size);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(path, describe(err));
  } finally {
    closeSync(fd);
  }
}
