/**
 * A gzip file's members (RFC 1952: a file may be several gzip streams end to
 * end, which every gzip reader reads as one; block-slog's files, `cat a.gz
 * b.gz`, and `slogulate recompress` write many). Node's zlib restores no
 * inflate state in the middle of a member (docs/gzip-index.md), so a
 * member's start is the only place a reader can begin: this file finds the
 * members of a file (scanMembers: each inflated once, as a stream) and
 * reads an indexed file's decompressed bytes anywhere (MemberBytes: the
 * member that holds them inflated whole, the last few kept).
 */
import { closeSync, fstatSync } from 'node:fs';
import { zlib } from './builtins.js';
import { describe, InputEndsEarly, InputError, openToRead, readFullyAt } from './open.js';

/** One member: its compressed bytes in the file, and its decompressed bytes in the slog. */
export interface Member {
  /** Where it starts in the .gz, and its length there (header and trailer included). */
  at: number;
  bytes: number;
  /** Where its decompressed bytes start in the slog, and how many. */
  from: number;
  size: number;
}

/** Bytes read for a header (its optional name and comment included). */
const HEADER_READ = 64 << 10;
/** The compressed bytes given to zlib at a time. */
const RAW_CHUNK = 1 << 20;
/** zlib's output pieces. */
const OUT_CHUNK = 1 << 20;

/** Members kept inflated by MemberBytes (a plan reads the members of its probes, its range and its create-vat lines, then again some): at most this many, and bytes. */
const KEEP_MEMBERS = 4;
const KEEP_BYTES = 32 << 20;

/** A member too big to inflate whole for a seek: the caller reads the file from its start. */
export class MemberTooBig extends Error {}

/**
 * The length of the gzip member header at the start of `bytes`: undefined
 * when `bytes` is not one (no gzip magic, not deflate) or ends before it
 * does (a name or comment longer than the bytes read).
 */
export function gzipHeaderLength(bytes: Buffer): number | undefined {
  if (bytes.length < 10 || bytes[0] !== 0x1f || bytes[1] !== 0x8b || bytes[2] !== 8) return undefined;
  const flags = bytes[3] as number;
  let at = 10;
  if (flags & 4) {
    if (at + 2 > bytes.length) return undefined;
    at += 2 + bytes.readUInt16LE(at);
  }
  for (const flag of [8, 16]) {
    if (!(flags & flag)) continue;
    const zero = bytes.indexOf(0, at);
    if (zero < 0) return undefined;
    at = zero + 1;
  }
  if (flags & 2) at += 2;
  return at <= bytes.length ? at : undefined;
}

/** What scanMembers tells as it goes. */
export interface MemberSink {
  /** A member begins at byte `at` of the file, its bytes at byte `from` of the slog. */
  start(at: number, from: number): void;
  /** Its decompressed bytes, in order (valid only during the call). */
  data(chunk: Buffer): void;
  /** It ended: the member whole. */
  end(member: Member): void;
}

/**
 * Every member of the gzip file at `path`, each inflated once as a stream
 * (memory: zlib's window and a chunk), told to `sink`. Bytes after the last
 * member that do not start another (padding) are ignored, as gzip does.
 * Throws InputError: not gzip, bad data, or data that ends early
 * (InputEndsEarly).
 */
export async function scanMembers(path: string, sink: MemberSink): Promise<{ size: number; members: number }> {
  const fd = openToRead(path);
  try {
    const size = fstatSync(fd).size;
    const raw = new RawWindow(fd, size);
    let at = 0;
    let from = 0;
    let members = 0;
    while (at < size) {
      const head = raw.bytes(at, HEADER_READ);
      const header = gzipHeaderLength(head);
      if (header === undefined) {
        if (members === 0) throw new InputError(path, head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b ? 'gzip header not read' : 'not gzip');
        break;
      }
      sink.start(at, from);
      const deflated = await inflateMember(raw, path, at + header, sink);
      const trailer = raw.bytes(at + header + deflated.consumed, 8);
      if (trailer.length < 8) throw new InputEndsEarly(path);
      if (trailer.readUInt32LE(4) !== deflated.size % 2 ** 32) throw new InputError(path, `gzip member at byte ${at}: its length does not match its trailer`);
      const bytes = header + deflated.consumed + 8;
      sink.end({ at, bytes, from, size: deflated.size });
      at += bytes;
      from += deflated.size;
      members += 1;
    }
    return { size: from, members };
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw new InputError(path, describe(err));
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's bytes read forward RAW_CHUNK at a time, each byte once: a
 * member's header, deflate data and trailer, and the next member's
 * header, are pieces of the same reads. Each read fills a new buffer (zlib
 * may still hold the one before), so a piece stays valid.
 */
class RawWindow {
  private block = Buffer.alloc(0);
  private blockAt = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  /** Up to `length` bytes from `pos` (fewer at the file's end, or where the window ends: `pos` is always in the piece unless at the end). */
  bytes(pos: number, length: number): Buffer {
    if (pos >= this.size) return Buffer.alloc(0);
    const end = this.blockAt + this.block.length;
    // Not in the window, or too near its end for what is asked (a header, a trailer): read from `pos`.
    if (pos < this.blockAt || pos >= end || (end - pos < length && end < this.size && end - pos < HEADER_READ)) {
      const want = Math.min(Math.max(RAW_CHUNK, length), this.size - pos);
      const block = Buffer.allocUnsafe(want);
      this.block = block.subarray(0, readFullyAt(this.fd, block, pos));
      this.blockAt = pos;
    }
    const from = pos - this.blockAt;
    return this.block.subarray(from, Math.min(this.block.length, from + length));
  }
}

/**
 * The deflate stream from byte `start` of the file, inflated to its end
 * (zlib stops there: the bytes after are the trailer and the next member),
 * its bytes to `sink.data`: how many compressed bytes it took, and how
 * many it made.
 */
function inflateMember(raw: RawWindow, path: string, start: number, sink: MemberSink): Promise<{ consumed: number; size: number }> {
  return new Promise((resolve, reject) => {
    const inflate = zlib().createInflateRaw({ chunkSize: OUT_CHUNK });
    let pos = start;
    let size = 0;
    let ended = false;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      sink.data(chunk);
    });
    inflate.on('error', (err: NodeJS.ErrnoException) => {
      ended = true;
      reject(err.code === 'Z_BUF_ERROR' ? new InputEndsEarly(path) : new InputError(path, `not valid gzip data (${err.message})`));
    });
    inflate.on('end', () => {
      ended = true;
      resolve({ consumed: inflate.bytesWritten, size });
    });
    const pump = (): void => {
      while (!ended && pos < raw.size) {
        const chunk = raw.bytes(pos, RAW_CHUNK);
        if (chunk.length === 0) break;
        pos += chunk.length;
        if (!inflate.write(chunk)) {
          inflate.once('drain', pump);
          return;
        }
      }
      // Every byte given and the stream not ended: cut short (end() makes zlib say so).
      if (!ended && pos >= raw.size && !inflate.writableEnded) inflate.end();
    };
    pump();
  });
}

/**
 * Random access to the decompressed bytes of a gzip file whose members are
 * known (from its index): the member that holds a byte is read and
 * inflated whole (gunzip checks its CRC and length), and the last few
 * inflated are kept (KEEP_MEMBERS, KEEP_BYTES). A member of more than `maxMember` decompressed bytes
 * is not inflated (MemberTooBig).
 */
export class MemberBytes {
  private readonly kept: Array<{ index: number; bytes: Buffer }> = [];
  /** Members inflated, and their decompressed bytes. */
  inflated = 0;
  inflatedBytes = 0;

  constructor(
    private readonly fd: number,
    private readonly path: string,
    readonly members: readonly Member[],
    private readonly maxMember: number,
  ) {}

  /** The decompressed size. */
  get size(): number {
    const last = this.members[this.members.length - 1];
    return last === undefined ? 0 : last.from + last.size;
  }

  /** The index of the member holding byte `pos` (the last member when `pos` is at or past the end). */
  memberAt(pos: number): number {
    let lo = 0;
    let hi = this.members.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.members[mid] as Member).from <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Member `index`'s decompressed bytes. Throws InputError when they are not what the index says. */
  member(index: number): Buffer {
    const at = this.kept.findIndex((k) => k.index === index);
    if (at >= 0) {
      // The most recently used first.
      const [hit] = this.kept.splice(at, 1) as [{ index: number; bytes: Buffer }];
      this.kept.unshift(hit);
      return hit.bytes;
    }
    const m = this.members[index] as Member;
    if (m.size > this.maxMember) throw new MemberTooBig(`a gzip member of ${m.size} bytes at byte ${m.at}`);
    const raw = Buffer.allocUnsafe(m.bytes);
    if (readFullyAt(this.fd, raw, m.at) < m.bytes) throw new InputError(this.path, `gzip member at byte ${m.at} ends early (the index does not match the file)`);
    let bytes: Buffer;
    try {
      bytes = zlib().gunzipSync(raw);
    } catch (err) {
      throw new InputError(this.path, `gzip member at byte ${m.at}: ${(err as Error).message}`);
    }
    if (bytes.length !== m.size) throw new InputError(this.path, `gzip member at byte ${m.at} holds ${bytes.length} bytes, its index says ${m.size}`);
    this.inflated += 1;
    this.inflatedBytes += bytes.length;
    this.kept.unshift({ index, bytes });
    // The newest kept, and as many before it as KEEP allows.
    let held = 0;
    const keep = this.kept.findIndex((k, i) => i > 0 && (i >= KEEP_MEMBERS || (held += k.bytes.length) + bytes.length > KEEP_BYTES));
    if (keep > 0) this.kept.length = keep;
    return bytes;
  }

  /** Reads into all of `buf` from byte `pos` of the decompressed bytes, or up to their end: how many bytes came. */
  readAt(buf: Buffer, pos: number): number {
    let got = 0;
    for (let i = this.memberAt(pos); got < buf.length && i < this.members.length; i += 1) {
      const m = this.members[i] as Member;
      const at = pos + got - m.from;
      if (at >= m.size) continue;
      const bytes = this.member(i);
      got += bytes.copy(buf, got, at, Math.min(m.size, at + buf.length - got));
    }
    return got;
  }

  /** The decompressed bytes `start` to `end`, a member (or its part) at a time: each valid until the next is asked for. */
  *range(start: number, end: number): Generator<Buffer> {
    for (let i = this.memberAt(start); i < this.members.length; i += 1) {
      const m = this.members[i] as Member;
      if (m.from >= end) return;
      if (m.from + m.size <= start) continue;
      const bytes = this.member(i);
      yield bytes.subarray(Math.max(0, start - m.from), Math.min(m.size, end - m.from));
    }
  }
}
