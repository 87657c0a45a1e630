/**
 * Opens one slog for streaming: a file, stdin (`-`), a named pipe or a
 * process substitution (`<(zcat a.gz)`, `/dev/stdin`), or bytes in memory
 * (the in-process entry points and tests). Gzipped input is recognised by
 * its magic bytes (1f 8b), whatever its name, and decompressed on the fly
 * (concatenated gzip members included). Gzip data that ends before its end
 * (a live node's newest per-block file, a file still being written or
 * copied mid-write) is not a failure: every byte it decoded comes out, then
 * the chunks end with an InputEndsEarly, which the line splitter hands on
 * after the unfinished last line (lines.ts) and the pass reports as a
 * warning before going on with the next input (run/pass.ts). Other bad gzip
 * data (bad bytes in the middle) is an InputError.
 *
 * A plain regular file is read synchronously into one reused buffer: a
 * pass has nothing else to do meanwhile, and an asynchronous read leaves
 * the thread idle while each read goes to another thread and back. So is
 * stdin when it is a regular file (`slogulate - < FILE`). A pipe (`cat FILE
 * | slogulate -`, `<(zcat a.gz)`, a FIFO) is read synchronously too, in
 * order, never seeked (a pipe cannot be): a read waits for the writer, as
 * a pass would anyway, without a Node.js stream's machinery for each 64 KB
 * the pipe hands over (docs/performance.md has what each way cost). Stdin
 * that another program left non-blocking (a read that would wait fails
 * instead: EAGAIN) goes on as process.stdin's stream from there. Gzip from
 * a pipe, a socket, a terminal: streams.
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

/**
 * Gzip data that ends before its end: cut short, or still being written.
 * Thrown once every line it held was handed out; `wholeLines` (the lines
 * read whole, with their newline) is set by the line splitter (lines.ts).
 */
export class InputEndsEarly extends InputError {
  wholeLines = 0;

  constructor(file: string) {
    super(file, 'gzip data ends early (file truncated, or still being written)');
  }

  /** The line the data ends in (the first not read whole), for a warning as `FILE:LINE: why`. */
  get line(): number {
    return this.wholeLines + 1;
  }

  /** The warning: `gzip data ends early (file truncated, or still being written): read up to line N`. */
  get warning(): string {
    return `${this.why}: ${this.wholeLines > 0 ? `read up to line ${this.wholeLines}` : 'no whole line in it'}`;
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
/** Reads into all of `buf` from byte `pos` of the file `fd`, or up to its end: how many bytes came (a read may give fewer than asked). */
export function readFullyAt(fd: number, buf: Uint8Array, pos: number): number {
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** The file at `path` opened for reading (its descriptor); an InputError naming it when it cannot be. */
export function openToRead(path: string): number {
  try {
    return openSync(path, 'r');
  } catch (err) {
    throw new InputError(path, describe(err));
  }
}

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

/**
 * Bytes read synchronously in SYNC_CHUNK pieces of one reused buffer (a
 * plain regular file, a pipe), until the end; with `onWouldBlock`, until a
 * read would wait instead (a non-blocking pipe: EAGAIN), which it is then
 * told. The fd is closed at the end unless `keepOpen` (stdin), or it would
 * block (whoever reads on owns it).
 */
function* syncChunks(fd: number, path: string, count: (n: number) => void, keepOpen = false, onWouldBlock?: () => void): Generator<Buffer> {
  const buf = READ_BUFFER.take(SYNC_CHUNK);
  let close = !keepOpen;
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, SYNC_CHUNK, null);
      } catch (err) {
        if (onWouldBlock === undefined || !wouldBlock(err)) throw new InputError(path, describe(err));
        close = false;
        onWouldBlock();
        return;
      }
      if (n === 0) return;
      count(n);
      yield buf.subarray(0, n);
    }
  } finally {
    READ_BUFFER.give(buf);
    if (close) closeSync(fd);
  }
}

/**
 * The decompressed bytes of raw gzip chunks. zlib is given the next raw
 * chunk while it decodes one (so that it is never idle waiting for the
 * reader), and is ended (its final flush, Z_FINISH) only once every byte it
 * decoded was taken: a final flush that finds the data cut short fails, and
 * a failing zlib stream drops what it still buffers (Node's
 * destroy-on-error), which would lose the last lines decoded. So nothing is
 * left in it then, and the failure, an InputEndsEarly, comes after every
 * byte the data held. `count` is told the raw bytes read.
 */
async function* gunzipped(raw: AsyncIterable<Buffer | string>, name: string, count: (n: number) => void): AsyncGenerator<Buffer> {
  const gunzip = zlib().createGunzip({ chunkSize: GUNZIP_CHUNK });
  const input = raw[Symbol.asyncIterator]();
  let failure: unknown;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  gunzip.on('error', (err) => {
    failure ??= err;
    poke();
  });
  gunzip.on('readable', poke);
  gunzip.on('end', poke);
  /** Raw chunks given to zlib and not yet decoded whole. */
  let writing = 0;
  let rawDone = false;
  const written = (): void => {
    writing -= 1;
    poke();
  };
  try {
    for (;;) {
      const chunk = gunzip.read() as Buffer | null;
      if (chunk !== null) {
        yield chunk;
        continue;
      }
      if (failure !== undefined) throw failure;
      if (gunzip.readableEnded) return;
      if (!rawDone && writing < 2) {
        const next = await input.next();
        if (next.done) {
          rawDone = true;
        } else {
          const bytes = bufferOf(next.value);
          count(bytes.length);
          writing += 1;
          gunzip.write(bytes, written);
        }
        continue;
      }
      if (rawDone && writing === 0 && !gunzip.writableEnded) {
        // Every raw byte decoded, and every decoded byte taken: the end.
        gunzip.end();
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } catch (err) {
    throw streamFailure(name, err);
  } finally {
    gunzip.destroy();
    await input.return?.();
  }
}

/**
 * What a gzip stream's failure means to a user. zlib's Z_BUF_ERROR ("unexpected
 * end of file") is its input ending inside a member: data cut short, not bad.
 */
export function streamFailure(name: string, err: unknown): InputError {
  if (err instanceof InputError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'Z_BUF_ERROR') return new InputEndsEarly(name);
  if (code === 'Z_DATA_ERROR') return new InputError(name, `not valid gzip data (${(err as Error).message})`);
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
  // Plain bytes go straight to the line splitter; gzip through gunzip.
  const stream = gzipped ? gunzipped(rest(), name, () => undefined) : failuresNamed(name, rest());
  return {
    name,
    chunks: () => stream,
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
  const fd = openToRead(path);
  let regular: boolean;
  let fifo: boolean;
  let size: number;
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    regular = st.isFile();
    fifo = st.isFIFO();
    size = st.size;
  } catch (err) {
    closeSync(fd);
    throw new InputError(path, describe(err));
  }
  if (fifo) return pipeSource(fd, path, false, () => createReadStream('', { fd, highWaterMark: STREAM_CHUNK }));
  if (!regular) {
    // A device or socket (/dev/stdin on a terminal): read in order, never seeked.
    return streamSource(path, createReadStream('', { fd, highWaterMark: STREAM_CHUNK }));
  }
  return regularFileSource(fd, path, size, false);
}

/**
 * The first two bytes of `fd`, which tell gzip from plain text (an offset
 * cannot be peeked at, nor a pipe: they are handed on first), read
 * synchronously; a read gives what is there (a pipe's writer may have
 * written one byte so far), so it is read again up to two or the end.
 * `blocked`: a read would have waited (a non-blocking pipe, EAGAIN) before
 * two bytes came. The fd is closed on a failure unless `keepOpen` (stdin).
 */
function readHead(fd: number, name: string, keepOpen: boolean): { first: Buffer; blocked: boolean } {
  const head = Buffer.alloc(2);
  let got = 0;
  try {
    while (got < 2) {
      const n = readSync(fd, head, got, 2 - got, null);
      if (n === 0) break;
      got += n;
    }
  } catch (err) {
    if (!wouldBlock(err)) {
      if (!keepOpen) closeSync(fd);
      throw new InputError(name, describe(err));
    }
    return { first: head.subarray(0, got), blocked: true };
  }
  return { first: head.subarray(0, got), blocked: false };
}

/** Gzip whose first two bytes, `first`, were read and whose `rest` is a stream: gunzipped, every raw byte counted. */
function gzipSource(name: string, first: Buffer, rest: AsyncIterable<Buffer | string>, rawSize: number | undefined): SlogSource {
  let read = 0;
  const stream = gunzipped(withFirstAsync(first, rest), name, (n) => {
    read += n;
  });
  return { name, chunks: () => stream, rawBytesRead: () => read, rawSize, gzipped: true };
}

/**
 * A regular file open at `fd`, read from where its offset stands: plain
 * text synchronously into the reused buffer, gzip as a stream through
 * gunzip. The fd is closed at the end unless `keepOpen` (stdin).
 */
function regularFileSource(fd: number, name: string, size: number, keepOpen: boolean): SlogSource {
  const { first } = readHead(fd, name, keepOpen);
  if (isGzipMagic(first)) return gzipSource(name, first, createReadStream('', { fd, highWaterMark: STREAM_CHUNK, autoClose: !keepOpen }), size);
  let read = first.length;
  const count = (n: number): void => {
    read += n;
  };
  return { name, chunks: () => withFirst(first, syncChunks(fd, name, count, keepOpen)), rawBytesRead: () => read, rawSize: size, gzipped: false };
}

/** `first`, then `rest`. */
function* withFirst(first: Buffer, rest: Iterable<Buffer>): Generator<Buffer> {
  if (first.length > 0) yield first;
  yield* rest;
}

async function* withFirstAsync(first: Buffer, rest: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer | string> {
  if (first.length > 0) yield first;
  yield* rest;
}

/**
 * Stdin (fd 0, or another open fd: tests) when it is a regular file
 * (`slogulate - < FILE`): read as a file is (synchronously, into the reused
 * buffer), from where its offset stands (a program before may have read
 * some of it); when it is a pipe (`cat FILE | slogulate -`): read
 * synchronously too (pipeSource), `stream()` (process.stdin) taking over
 * where a read would wait; undefined when it is anything else (a
 * terminal, a socket), which is read as a stream. The fd is not closed.
 */
export async function stdinFile(fd = 0, stream: () => Readable = () => process.stdin): Promise<SlogSource | undefined> {
  let size: number;
  try {
    const st = fstatSync(fd);
    if (st.isFIFO()) return pipeSource(fd, STDIN_NAME, true, stream);
    if (!st.isFile()) return undefined;
    size = st.size;
  } catch {
    return undefined;
  }
  return regularFileSource(fd, STDIN_NAME, size, true);
}

/** A read that would wait, on a non-blocking fd. */
function wouldBlock(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'EAGAIN';
}

/**
 * A pipe open at `fd` (see the file's comment): its first two bytes read
 * synchronously, then, plain, the rest synchronously into the reused
 * buffer; gzip, and a plain pipe's rest once a read would wait (a
 * non-blocking stdin: EAGAIN), from `stream()`, a stream over the same fd.
 * The fd is closed at the end unless `keepOpen` (stdin).
 */
function pipeSource(fd: number, name: string, keepOpen: boolean, stream: () => Readable): SlogSource | Promise<SlogSource> {
  const { first, blocked } = readHead(fd, name, keepOpen);
  // Not two bytes there yet on a non-blocking pipe: all of it from the stream, whose first chunk (with the byte read, if one was) says gzip or not.
  if (blocked) return streamSource(name, Readable.from(headJoined(first, stream())));
  if (isGzipMagic(first)) return gzipSource(name, first, stream(), undefined);
  let read = first.length;
  const count = (n: number): void => {
    read += n;
  };
  const chunks = pipeChunks(first, fd, name, count, keepOpen, stream);
  return { name, chunks: () => chunks, rawBytesRead: () => read, rawSize: undefined, gzipped: false };
}

/** A plain pipe's bytes: `first` (read already), the rest read synchronously until a read would wait, then from `stream()`. */
async function* pipeChunks(first: Buffer, fd: number, name: string, count: (n: number) => void, keepOpen: boolean, stream: () => Readable): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  let blocked = false;
  yield* syncChunks(fd, name, count, keepOpen, () => {
    blocked = true;
  });
  if (!blocked) return;
  // The stream owns the fd from here (and closes it when it should).
  for await (const chunk of failuresNamed(name, toBuffers(stream()))) {
    count(chunk.length);
    yield chunk;
  }
}

/** A stream's chunks, `head` (bytes read from it already) joined to the first. */
async function* headJoined(head: Buffer, rest: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let pending = head.length > 0 ? head : undefined;
  for await (const chunk of rest) {
    if (pending === undefined) {
      yield bufferOf(chunk);
    } else {
      yield Buffer.concat([pending, bufferOf(chunk)]);
      pending = undefined;
    }
  }
  if (pending !== undefined) yield pending;
}

async function* toBuffers(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  for await (const chunk of stream) yield bufferOf(chunk);
}

/** Opens one input. `-` is stdin (`stdin` may stand in for process.stdin, which is then not looked at). */
export async function openInput(input: SlogInput, stdin?: Readable): Promise<SlogSource> {
  if (input === '-') return (stdin === undefined ? await stdinFile() : undefined) ?? streamSource(STDIN_NAME, stdin ?? process.stdin);
  if (typeof input === 'string') return openPath(input);
  if ('bytes' in input) return streamSource(input.name, Readable.from([input.bytes]), input.bytes.length);
  return streamSource(input.name, input.stream);
}
