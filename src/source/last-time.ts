/**
 * The slog's last time, read from the file's tail: what a duration back
 * from the slog's end (`--since 10m`) counts from. Only a plain regular file,
 * or a gzip file with an index (its members read from the last), can be
 * read from its end: other gzip, stdin and pipes cannot (the caller says
 * so). Memory: a window, and the pieces of one line (a line longer than a
 * window is put together before it is parsed).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { withoutCr } from './lines.js';
import { describe, InputError, isGzipMagic, openToRead, readFullyAt } from './open.js';
import { findIndex } from './gzip-index.js';
import { MemberBytes } from './gzip-members.js';

/** A gzip member bigger than this is not inflated to read the slog's end. */
const MAX_MEMBER = 64 << 20;

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


/**
 * The last time of a gzip slog with an index that matches it (gzip-index.ts),
 * read from its end a member at a time; without one, it cannot be read.
 */
function lastGzipTime(path: string, fd: number): number | undefined | NoTail {
  const found = findIndex(path, fd);
  if (!('index' in found)) return { cannot: 'gzip without an index (slogulate index)' };
  const bytes = new MemberBytes(fd, path, found.index.members, MAX_MEMBER);
  try {
    for (const line of linesBackward((buf, pos) => bytes.readAt(buf, pos), bytes.size)) {
      const time = timeOf(line);
      if (time !== undefined) return time;
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    return { cannot: `gzip: ${(err as Error).message}` };
  }
  return undefined;
}

/**
 * The `time` of the last line that has one in the plain file at `path`
 * (undefined: no line has), or why it cannot be read from its end.
 * Throws InputError when the file cannot be opened or read.
 */
export function lastTimeOf(path: string): number | undefined | NoTail {
  const fd = openToRead(path);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { cannot: st.isDirectory() ? 'a folder' : 'not a regular file' };
    const head = Buffer.alloc(2);
    if (isGzipMagic(head.subarray(0, readSync(fd, head, 0, 2, 0)))) return lastGzipTime(path, fd);
    for (const line of linesBackward((buf, pos) => readFullyAt(fd, buf, pos), st.size)) {
      const time = timeOf(line);
      if (time !== undefined) return time;
    }
    return undefined;
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(path, describe(err));
  } finally {
    closeSync(fd);
  }
}
