/**
 * Opens a slog for streaming: a file, or stdin for `-`/no file. Gzipped
 * input is recognised by its magic bytes (1f 8b), whatever its name, and
 * decompressed on the fly (concatenated gzip members included).
 */
import { close, closeSync, createReadStream, open, openSync, read, readSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

export const STDIN_NAME = '<stdin>';
const CHUNK = 1 << 20;
/** Synchronous reads (syncChunks): bigger, as each one blocks the thread. */
const SYNC_CHUNK = 4 << 20;
/** Gunzip output pieces: each 1 MB of gzip makes several, so they are kept smaller than CHUNK (less memory held at once). */
const GUNZIP_CHUNK = 256 << 10;

/** A problem opening a slog: reported as one line, exit status 2. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly why: string,
  ) {
    super(`${file}: ${why}`);
  }
}

export interface SlogSource {
  /** How errors name it: the path, or `<stdin>`. */
  name: string;
  /** Decompressed bytes. */
  stream: Readable;
  /** Raw (still compressed) bytes read so far, and the raw size when known (files): for progress. */
  rawBytesRead: () => number;
  rawSize: number | undefined;
  gzipped: boolean;
  /**
   * For a plain file: its bytes read into one reused buffer, each chunk valid
   * only until the next is asked for (no garbage left per chunk). Use either
   * this or `stream`, not both.
   */
  chunks?: () => AsyncIterator<Buffer>;
  /**
   * The same, read synchronously, in bigger chunks: for a pass that has
   * nothing else to do meanwhile (the analyses' byte reader, byte-entries.ts),
   * where an asynchronous read left the thread idle while each read went to
   * another thread and back (a tenth of the pass, measured).
   */
  syncChunks?: () => Iterator<Buffer>;
}

/** Reads a file into one reused buffer; `count` is told each read's size. */
async function* reusedChunks(path: string, count: (n: number) => void): AsyncGenerator<Buffer> {
  // Callback fs, promisified: node:fs/promises costs startup time.
  const openAsync = promisify(open);
  const readAsync = promisify(read);
  let fd: number;
  try {
    fd = await openAsync(path, 'r');
  } catch (err) {
    throw new InputError(path, describe(err));
  }
  try {
    const buf = Buffer.allocUnsafeSlow(CHUNK);
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await readAsync(fd, buf, 0, CHUNK, null));
      } catch (err) {
        throw new InputError(path, describe(err));
      }
      if (bytesRead === 0) return;
      count(bytesRead);
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    close(fd, () => undefined);
  }
}

/** A plain file's bytes in SYNC_CHUNK pieces of one reused buffer, read synchronously; `count` is told each read's size. */
function* syncReusedChunks(path: string, count: (n: number) => void): Generator<Buffer> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new InputError(path, describe(err));
  }
  try {
    const buf = Buffer.allocUnsafeSlow(SYNC_CHUNK);
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
    closeSync(fd);
  }
}

export function isGzipMagic(bytes: Buffer): boolean {
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
    default:
      return (err as Error).message ?? String(err);
  }
}

/** What opening a file finds: its size (a regular file's) and whether it is gzipped. */
export interface FileProbe {
  size: number | undefined;
  gzipped: boolean;
}

/** Checks that `path` is a readable file and reads its magic bytes; throws InputError otherwise. */
export function probeFile(path: string): FileProbe {
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(2);
      const head = buf.subarray(0, readSync(fd, buf, 0, 2, 0));
      return { size: st.isFile() ? st.size : undefined, gzipped: isGzipMagic(head) };
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new InputError(path, describe(err));
  }
}

function gunzipped(raw: Readable, name: string): Readable {
  const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK });
  raw.on('error', (err) => gunzip.destroy(new InputError(name, describe(err))));
  gunzip.on('error', () => raw.destroy());
  return raw.pipe(gunzip);
}

/** Opens a file; throws InputError when it cannot be read. */
export function openFile(path: string): SlogSource {
  const { size, gzipped } = probeFile(path);
  let read = 0;
  const count = (n: number): void => {
    read += n;
  };
  const rawStream = (): Readable => {
    const raw = createReadStream(path, { highWaterMark: CHUNK });
    raw.on('data', (chunk: Buffer | string) => count(chunk.length));
    return raw;
  };
  if (gzipped) {
    return { name: path, stream: gunzipped(rawStream(), path), rawBytesRead: () => read, rawSize: size, gzipped };
  }
  // The stream is made only if asked for: readers that can use `chunks` do.
  let stream: Readable | undefined;
  return {
    name: path,
    get stream(): Readable {
      if (!stream) {
        const raw = rawStream();
        raw.on('error', (err) => raw.destroy(new InputError(path, describe(err))));
        stream = raw;
      }
      return stream;
    },
    rawBytesRead: () => read,
    rawSize: size,
    gzipped,
    chunks: () => reusedChunks(path, count),
    syncChunks: () => syncReusedChunks(path, count),
  };
}

/** Opens stdin, peeking at its first chunk for the gzip magic. */
export async function openStdin(input: Readable = process.stdin): Promise<SlogSource> {
  let read = 0;
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const firstChunk = first.done ? Buffer.alloc(0) : Buffer.from(first.value);
  read += firstChunk.length;
  async function* rest(): AsyncGenerator<Buffer> {
    if (firstChunk.length) yield firstChunk;
    if (first.done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const chunk = Buffer.from(next.value);
      read += chunk.length;
      yield chunk;
    }
  }
  const raw = Readable.from(rest(), { objectMode: false });
  const gzipped = isGzipMagic(firstChunk);
  return {
    name: STDIN_NAME,
    stream: gzipped ? gunzipped(raw, STDIN_NAME) : raw,
    rawBytesRead: () => read,
    rawSize: undefined,
    gzipped,
  };
}

/** `-` or no file means stdin. */
export async function openSlog(file: string | undefined): Promise<SlogSource> {
  return file === undefined || file === '-' ? openStdin() : openFile(file);
}
