/**
 * `slogulate index` and `slogulate recompress` (docs/gzip-index.md): the
 * index of a gzipped slog, made by inflating each of its members once
 * (source/gzip-members.ts, source/index-builder.ts); and a slog (plain or
 * gzipped) rewritten as independently compressed gzip members of about
 * `memberBytes` of slog each, cut at line ends (as bgzip does), which every
 * gzip reader reads as one stream, its index made as it is written.
 */
import { closeSync, fstatSync } from 'node:fs';
import { zlib } from '../source/builtins.js';
import { stampOf, type GzipIndex, type SlogStamp } from '../source/gzip-index.js';
import { scanMembers } from '../source/gzip-members.js';
import { IndexBuilder } from '../source/index-builder.js';
import { InputError, isGzipMagic, openPath, openToRead, readFullyAt } from '../source/open.js';

/** The slog recompress cuts into members, about this many bytes each (the member ends at the first line end at or before it, else after). */
export const MEMBER_BYTES = 2 << 20;
/** Members compressed at once (zlib's thread pool). */
const IN_FLIGHT = 3;

/** Why an index was not made. */
const CHANGED = 'changed while it was indexed (still being written?)';

/** Whether the file at `path` starts with the gzip magic. Throws InputError. */
export function isGzipFile(path: string): boolean {
  const fd = openToRead(path);
  try {
    const head = Buffer.alloc(2);
    return isGzipMagic(head.subarray(0, readFullyAt(fd, head, 0)));
  } finally {
    closeSync(fd);
  }
}

/** The index of the gzip file at `path`, made by inflating it once. Throws InputError (not gzip, bad or cut short, changed meanwhile). */
export async function indexOfGzip(path: string): Promise<GzipIndex> {
  const builder = new IndexBuilder();
  const before = stampOfPath(path);
  await scanMembers(path, builder);
  const after = stampOfPath(path);
  if (before.size !== after.size || before.mtimeMs !== after.mtimeMs) throw new InputError(path, CHANGED);
  return builder.finish(after);
}

/** A plain slog's index cuts it into pieces of this many bytes (the places a seek may begin a search: any byte). */
export const PLAIN_PIECE_BYTES = 4 << 20;

/**
 * The index of the plain slog at `path`, made by reading it once: the same
 * index as a gzip file's, its pieces of `PLAIN_PIECE_BYTES` standing for
 * the members (each piece's `at` and `from` are the same byte). A seek on a
 * plain file with a matching index takes the byte search's findings from
 * it instead of reading every byte (source/seek.ts). Throws InputError
 * (changed meanwhile, told at the end of the first piece read after it
 * grew: a live slog's index is out of date at its next line).
 */
export function indexOfPlain(path: string, pieceBytes = PLAIN_PIECE_BYTES): GzipIndex {
  const builder = new IndexBuilder();
  const fd = openToRead(path);
  try {
    const before = stampOf(fd);
    const buf = Buffer.allocUnsafe(1 << 20);
    let from = 0;
    while (from < before.size) {
      const size = Math.min(pieceBytes, before.size - from);
      builder.start(from, from);
      for (let pos = from; pos < from + size; ) {
        const got = readFullyAt(fd, buf.subarray(0, Math.min(buf.length, from + size - pos)), pos);
        if (got === 0) throw new InputError(path, CHANGED);
        builder.data(buf.subarray(0, got));
        pos += got;
      }
      builder.end({ at: from, bytes: size, from, size });
      from += size;
      // A live slog grows: given up at once, not at the end of a read of gigabytes.
      if (fstatSync(fd).size !== before.size) throw new InputError(path, CHANGED);
    }
    const after = stampOf(fd);
    if (before.size !== after.size || before.mtimeMs !== after.mtimeMs) throw new InputError(path, CHANGED);
    return builder.finish(after);
  } finally {
    closeSync(fd);
  }
}

/** The stamp (gzip-index.ts) of the file at `path`. Throws InputError. */
export function stampOfPath(path: string): SlogStamp {
  const fd = openToRead(path);
  try {
    return stampOf(fd, fstatSync(fd));
  } finally {
    closeSync(fd);
  }
}

export interface RecompressConfig {
  input: string;
  /** Takes the compressed bytes, in order. */
  write: (bytes: Buffer) => void;
  /** Resolves when the output can take more. */
  drained: () => Promise<void>;
  memberBytes?: number;
  level?: number;
}

/** What recompress wrote: how much, and its index once the output's stamp is known (after it was put in place). */
export interface Recompressed {
  members: number;
  size: number;
  compressed: number;
  index: (stamp: SlogStamp) => GzipIndex;
}

/**
 * Reads the slog `input` (plain or gzip) and writes it as gzip members of
 * about `memberBytes` each, cut after a newline; the last member ends where
 * the slog does. Throws InputError.
 */
export async function recompress(config: RecompressConfig): Promise<Recompressed> {
  const memberBytes = config.memberBytes ?? MEMBER_BYTES;
  const builder = new IndexBuilder();
  const source = await openPath(config.input);
  let acc = Buffer.allocUnsafe(memberBytes * 2);
  let fill = 0;
  let from = 0;
  let at = 0;
  let members = 0;
  const inFlight: Array<{ piece: Buffer; gz: Promise<Buffer> }> = [];
  const gzip = zlib();
  /** The oldest member compressed: written, and told to the index. */
  const writeOldest = async (): Promise<void> => {
    const { piece, gz } = inFlight.shift() as { piece: Buffer; gz: Promise<Buffer> };
    const bytes = await gz;
    builder.start(at, from);
    builder.data(piece);
    builder.end({ at, bytes: bytes.length, from, size: piece.length });
    config.write(bytes);
    await config.drained();
    at += bytes.length;
    from += piece.length;
    members += 1;
  };
  const emit = async (piece: Buffer): Promise<void> => {
    const copy = Buffer.from(piece);
    inFlight.push({
      piece: copy,
      gz: new Promise((resolve, reject) => gzip.gzip(copy, { level: config.level ?? gzip.constants.Z_DEFAULT_COMPRESSION }, (err, out) => (err ? reject(err) : resolve(out)))),
    });
    if (inFlight.length >= IN_FLIGHT) await writeOldest();
  };
  for await (const chunk of source.chunks()) {
    for (let i = 0; i < chunk.length; ) {
      if (fill === acc.length) {
        const bigger = Buffer.allocUnsafe(acc.length * 2);
        acc.copy(bigger, 0, 0, fill);
        acc = bigger;
      }
      const n = chunk.copy(acc, fill, i);
      fill += n;
      i += n;
      while (fill >= memberBytes) {
        const back = acc.lastIndexOf(10, memberBytes - 1);
        const cut = back >= 0 ? back + 1 : acc.subarray(0, fill).indexOf(10, memberBytes) + 1;
        // A line longer than a member, not ended yet: read on.
        if (cut === 0) break;
        await emit(acc.subarray(0, cut));
        acc.copy(acc, 0, cut, fill);
        fill -= cut;
      }
    }
  }
  // An empty slog: one empty member (a file of no bytes is not gzip to a reader).
  if (fill > 0 || members + inFlight.length === 0) await emit(acc.subarray(0, fill));
  while (inFlight.length > 0) await writeOldest();
  return { members, size: from, compressed: at, index: (stamp) => builder.finish(stamp) };
}
