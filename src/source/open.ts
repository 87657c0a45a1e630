/**
 * Opens one slog for streaming: a file, stdin (`-`), a named pipe or a
 * process substitution (`<(zcat a.gz)`, `/dev/stdin`), or bytes in memory
 * (the in-process entry points and tests). Gzipped input is recognised by
 * its magic bytes (1f 8b), whatever its name, and decompressed on the fly
 * (concatenated gzip members included).
 *
 * A plain regular file is read synchronously into one reused buffer (a
 * pass has nothing else to do meanwhile: an asynchronous read left the
 * thread idle while each read went to another thread and back, a tenth of
 * the pass, measured). Anything that is not a regular file is read as a
 * stream, never seeked (a pipe cannot be).
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { zlib } from './builtins.js';
import { KeptBuffer } from './kept-buffers.js';

export const STDIN_NAME = '<stdin>';
/** Synchronous reads: big, as each one blocks the thread. */
const SYNC_CHUNK = 512 << 10;
/** The read buffer of plain files, kept from one file to the next (kept-buffers.ts). */
const READ_BUFFER = new KeptBuffer(SYNC_CHUNK);
const STREAM_CHUNK = 1 << 20;
/** Gunzip output pieces: each 1 MB of gzip makes several, so they are kept small (less memory held at once). */
const GUNZIP_CHUNK = 256 << 10;

/** A problem opening or reading a slog: reported as one line. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly why: string,
  ) {
    super(`${file}: ${why}`);
  }
}

/** Where a slog comes from: a path (`-` for stdin), or bytes or a stream in memory. */
export type SlogInput = string | { name: string; bytes: Buffer } | { name: string; stream: Readable };

export interface SlogSource {
  /** How errors name it: the path, or `<stdin>`. */
  name: string;
  /** The decompressed bytes, in chunks that may be valid only until the next is asked for. */
  chunks(): AsyncIterable<Buffer> | Iterable<Buffer>;
  /** Raw (still compressed) bytes read so far, and the raw size when known (regular files): for progress. */
  rawBytesRead(): number;
  rawSize: number | undefined;
  gzipped: boolean;
}

export function isGzipMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** A file-system error as a user reads it: `no such file`, `permission denied`... */
export function describe(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'ENOSPC':
      return 'no space left on device';
    case 'EROFS':
      return 'read-only file system';
    default:
      return (err as Error).message ?? String(err);
  }
}

/** A plain regular file's bytes in SYNC_CHUNK pieces of one reused buffer. */
function* syncChunks(fd: number, path: string, count: (n: number) => void): Generator<Buffer> {
  const buf = READ_BUFFER.take(SYNC_CHUNK);
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, SYNC_CHUNK, null);
      } catch (err) {
        throw new InputError(path, describe(err));
      }
      if (n === 0) return;
      count(n);
      yield buf.subarray(0, n);
    }
  } finally {
    READ_BUFFER.give(buf);
    closeSync(fd);
  }
}

function gunzipped(raw: Readable, name: string): Readable {
  const gunzip = zlib().createGunzip({ chunkSize: GUNZIP_CHUNK });
  raw.on('error', (err) => gunzip.destroy(err instanceof InputError ? err : new InputError(name, describe(err))));
  gunzip.on('error', () => raw.destroy());
  return raw.pipe(gunzip);
}

/** What a gzip stream's failure means to a user. */
export function streamFailure(name: string, err: unknown): InputError {
  if (err instanceof InputError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') return new InputError(name, `not valid gzip data (${(err as Error).message})`);
  return new InputError(name, describe(err));
}

/** A stream's chunk as bytes: a Buffer as it is (a stream hands out a new one each time: no copy), a string encoded. */
function bufferOf(chunk: Buffer | string): Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}

/**
 * A stream's bytes, its first chunk peeked at for the gzip magic (no seek:
 * pipes have none). `count` is told the raw bytes read.
 */
async function streamSource(name: string, input: Readable, rawSize?: number): Promise<SlogSource> {
  let read = 0;
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  let first: IteratorResult<Buffer | string>;
  try {
    first = await iterator.next();
  } catch (err) {
    throw streamFailure(name, err);
  }
  const firstChunk = first.done ? Buffer.alloc(0) : bufferOf(first.value);
  read += firstChunk.length;
  async function* rest(): AsyncGenerator<Buffer> {
    if (firstChunk.length) yield firstChunk;
    if (first.done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const chunk = bufferOf(next.value);
      read += chunk.length;
      yield chunk;
    }
  }
  const gzipped = isGzipMagic(firstChunk);
  // Plain bytes go straight to the line splitter; gzip through a stream into gunzip.
  const stream = gzipped ? gunzipped(Readable.from(rest(), { objectMode: false }), name) : rest();
  return {
    name,
    chunks: () => failuresNamed(name, stream),
    rawBytesRead: () => read,
    rawSize,
    gzipped,
  };
}

/** A stream's chunks, a failure while reading it made an InputError naming the slog. */
async function* failuresNamed(name: string, stream: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (err) {
    throw streamFailure(name, err);
  }
}

/** Opens a path: a regular file, or a pipe, device or socket (read as a stream). Throws InputError. */
export async function openPath(path: string): Promise<SlogSource> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new InputError(path, describe(err));
  }
  let regular: boolean;
  let size: number;
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    regular = st.isFile();
    size = st.size;
  } catch (err) {
    closeSync(fd);
    throw new InputError(path, describe(err));
  }
  if (!regular) {
    // A pipe (`<(zcat a.gz)`, a FIFO, /dev/stdin): read in order, never seeked.
    return streamSource(path, createReadStream('', { fd, highWaterMark: STREAM_CHUNK }));
  }
  let head: Buffer;
  try {
    const buf = Buffer.alloc(2);
    head = buf.subarray(0, readSync(fd, buf, 0, 2, 0));
  } catch (err) {
    closeSync(fd);
    throw new InputError(path, describe(err));
  }
  let read = 0;
  const count = (n: number): void => {
    read += n;
  };
  if (isGzipMagic(head)) {
    const raw = createReadStream('', { fd, highWaterMark: STREAM_CHUNK, start: 0 });
    raw.on('data', (chunk: Buffer | string) => count(chunk.length));
    const stream = gunzipped(raw, path);
    return { name: path, chunks: () => failuresNamed(path, stream), rawBytesRead: () => read, rawSize: size, gzipped: true };
  }
  return { name: path, chunks: () => syncChunks(fd, path, count), rawBytesRead: () => read, rawSize: size, gzipped: false };
}

/** Opens one input. `-` is stdin (`stdin` may stand in for process.stdin). */
export async function openInput(input: SlogInput, stdin: Readable = process.stdin): Promise<SlogSource> {
  if (typeof input === 'string') return input === '-' ? streamSource(STDIN_NAME, stdin) : openPath(input);
  if ('bytes' in input) return streamSource(input.name, Readable.from([input.bytes]), input.bytes.length);
  return streamSource(input.name, input.stream);
}
