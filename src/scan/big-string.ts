/**
 * A string too big to hold as a JavaScript string: one of a big line's
 * (big-line.ts) strings over BIG_STRING_CHARS characters, which the pass's
 * consumer asked to have as a BigString (the render, stats, top) rather
 * than as a string. Its first HEAD_CHARS characters are kept; its text is
 * written, as UTF-8, to a spool: a temporary file unlinked as soon as it is
 * made (nothing is left behind, whatever happens to the process), closed
 * once none of the line's strings is referenced any more; or, where no
 * temporary file can be made, to memory.
 *
 * How it prints. A BigString is made for the scope it prints in (the
 * text render's BigTextScope, handed to the reader that makes it: run/pass.ts,
 * big-line.ts), or for none. While its scope runs the render's work,
 * `toString()` and `toJSON()` give a short sentinel that stands for the
 * text (raw, or escaped as inside a JSON string), the render's lines carry
 * it like any text, and the scope's `write` puts the text in its place as
 * the lines are written, piece by piece, so that the text is never a string
 * of its own. At any other time, or without a scope, they give the whole
 * text (read back: correct, and as costly as the string). They take no
 * arguments (a template literal or JSON.stringify calls them), hence the
 * scope held by the BigString itself.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { os } from '../source/builtins.js';

/** A string of a big line longer than this is a BigString (when the consumer takes them). */
export const BIG_STRING_CHARS = 8192;
/** The characters a BigString keeps in memory (a method's name is found in a body's first 400). */
export const HEAD_CHARS = 1024;
/** Text is written to the spool (and read back) in pieces of about this many characters. */
const PIECE_CHARS = 1 << 16;

/** Closes a spool's file once nothing refers to it. */
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

let spoolCount = 0;

/** Where the BigStrings of one line keep their text: an unlinked temporary file, or memory. */
export class Spool {
  private fd: number | undefined;
  private tried = false;
  /** A write failed (a full disk): what follows goes to memory. */
  private broken = false;
  private size = 0;
  /** The text kept in memory when no file could be made (or written). */
  private readonly memory: Buffer[] = [];

  private file(): number | undefined {
    if (this.tried) return this.broken ? undefined : this.fd;
    this.tried = true;
    const path = join(os().tmpdir(), `slogulate-${process.pid}-${Date.now().toString(36)}-${(spoolCount += 1)}.spool`);
    let fd: number | undefined;
    try {
      fd = openSync(path, 'wx+', 0o600);
      unlinkSync(path);
    } catch {
      // No temporary folder to write to, or a system that cannot unlink an open file: memory.
      if (fd !== undefined) {
        closeSync(fd);
        try {
          unlinkSync(path);
        } catch {
          // nothing to remove
        }
      }
      return undefined;
    }
    this.fd = fd;
    closer.register(this, fd);
    return fd;
  }

  /** Appends bytes: where they are now. */
  write(bytes: Buffer): Extent {
    const fd = this.file();
    if (fd !== undefined) {
      try {
        const at = this.size;
        let done = 0;
        while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
        this.size += bytes.length;
        return { file: true, at, bytes: bytes.length };
      } catch {
        this.broken = true;
      }
    }
    this.memory.push(bytes);
    return { file: false, at: this.memory.length - 1, bytes: bytes.length };
  }

  /** The bytes of an extent, in pieces of at most `into`'s size (a file's are read into it). */
  *read(extent: Extent, into: () => Buffer): Generator<Buffer> {
    if (!extent.file) {
      yield this.memory[extent.at] as Buffer;
      return;
    }
    const fd = this.fd as number;
    const buffer = into();
    for (let done = 0; done < extent.bytes; ) {
      const got = readSync(fd, buffer, 0, Math.min(buffer.length, extent.bytes - done), extent.at + done);
      if (got <= 0) throw new Error('BigString: its spool was cut short');
      done += got;
      yield buffer.subarray(0, got);
    }
  }
}

/** Where a written piece is: at a byte offset of the spool's file, or the index of a piece in its memory. */
interface Extent {
  file: boolean;
  at: number;
  bytes: number;
}

export class BigString {
  /** Its length in UTF-16 code units, as a string's `length`. */
  length = 0;
  /** Its first HEAD_CHARS characters. */
  head = '';
  private readonly extents: Extent[] = [];
  private pending = '';
  private done = false;

  constructor(
    private readonly spool: Spool,
    /** The scope it prints in as a sentinel (the text render's), if any. */
    readonly printedIn?: BigTextScope,
  ) {}

  /** Appends text (while its line is read). */
  append(text: string): void {
    if (this.head.length < HEAD_CHARS) this.head += text.slice(0, HEAD_CHARS - this.head.length);
    this.length += text.length;
    this.pending += text;
    if (this.pending.length >= PIECE_CHARS) this.flush(false);
  }

  /** No more text. */
  end(): void {
    this.flush(true);
    this.done = true;
  }

  private flush(last: boolean): void {
    let text = this.pending;
    this.pending = '';
    // A surrogate pair is not parted (each half alone would be written as U+FFFD).
    const lastCode = text.charCodeAt(text.length - 1);
    if (!last && lastCode >= 0xd800 && lastCode <= 0xdbff) {
      this.pending = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text.length === 0) return;
    const bytes = Buffer.from(text, 'utf8');
    this.extents.push(this.spool.write(bytes));
  }

  /** Its text in pieces of up to about PIECE_CHARS characters, in order. */
  *pieces(): Generator<string> {
    if (!this.done) throw new Error('BigString read before its end');
    const decoder = new StringDecoder('utf8');
    let buffer: Buffer | undefined;
    const into = (): Buffer => (buffer ??= Buffer.allocUnsafe(PIECE_CHARS));
    for (const extent of this.extents) {
      for (const bytes of this.spool.read(extent, into)) {
        const text = decoder.write(bytes);
        if (text) yield text;
      }
    }
    const rest = decoder.end();
    if (rest) yield rest;
  }

  /** The whole text, as one string (what a consumer outside a scope gets). */
  text(): string {
    let out = '';
    for (const piece of this.pieces()) out += piece;
    return out;
  }

  /** The length of its text escaped as inside a JSON string (without the quotes). */
  jsonLength(): number {
    let n = 0;
    for (const piece of this.pieces()) n += JSON.stringify(piece).length - 2;
    return n;
  }

  toString(): string {
    const scope = this.printedIn;
    return scope?.running ? scope.sentinel(this, false) : this.text();
  }

  toJSON(): string {
    const scope = this.printedIn;
    return scope?.running ? scope.sentinel(this, true) : this.text();
  }
}

/**
 * A BigString's text framed: `before`, its text without its first `skip`
 * characters, then `after` (a 2021 message's args body made a methargs
 * body, message.ts). Read through to the BigString's spool; nothing is
 * copied.
 */
export class FramedBigString extends BigString {
  constructor(
    private readonly inner: BigString,
    private readonly before: string,
    private readonly after: string,
    private readonly skip: number,
  ) {
    super(new Spool(), inner.printedIn);
    this.length = before.length + inner.length - skip + after.length;
    const whole = inner.length <= HEAD_CHARS;
    this.head = `${before}${inner.head.slice(skip)}${whole ? after : ''}`.slice(0, HEAD_CHARS);
  }

  override *pieces(): Generator<string> {
    if (this.before) yield this.before;
    let skip = this.skip;
    for (const piece of this.inner.pieces()) {
      if (skip > 0) {
        const rest = piece.slice(skip);
        skip -= piece.length - rest.length;
        if (rest) yield rest;
        continue;
      }
      yield piece;
    }
    if (this.after) yield this.after;
  }
}

// ---- sentinels

/** A sentinel: OPEN, RAW or JSON, the id in base-256 digits from DIGIT0, CLOSE (all private-use characters). */
const OPEN = '\uE000';
const RAW = '\uE001';
const JSON_MODE = '\uE002';
const CLOSE = '\uE003';
const DIGIT0 = 0xe100;

/**
 * Where BigStrings print as sentinels, and where those are written out. One
 * per text render, which the render's reader makes its BigStrings for; run
 * around each piece of the render's work (synchronous: nothing else prints
 * them meanwhile).
 */
export class BigTextScope {
  private readonly live = new Map<string, BigString>();
  private nextId = 0;
  private inRun = false;

  /** Runs `fn` with this scope's BigStrings printing as its sentinels. */
  run<T>(fn: () => T): T {
    const outer = this.inRun;
    this.inRun = true;
    try {
      return fn();
    } finally {
      this.inRun = outer;
    }
  }

  /** Inside `run`: its BigStrings print as sentinels. */
  get running(): boolean {
    return this.inRun;
  }

  /** Are sentinels waiting to be written? */
  get holding(): boolean {
    return this.live.size > 0;
  }

  sentinel(big: BigString, json: boolean): string {
    let id = this.nextId;
    this.nextId += 1;
    let digits = '';
    do {
      digits = String.fromCharCode(DIGIT0 + (id & 255)) + digits;
      id >>>= 8;
    } while (id > 0);
    const key = `${json ? JSON_MODE : RAW}${digits}`;
    this.live.set(key, big);
    return `${OPEN}${key}${CLOSE}`;
  }

  /** The sentinels of `text` that this scope made, in order, with where they are. */
  private *found(text: string): Generator<{ start: number; end: number; big: BigString; json: boolean }> {
    for (let at = text.indexOf(OPEN); at >= 0; at = text.indexOf(OPEN, at + 1)) {
      const close = text.indexOf(CLOSE, at + 1);
      if (close < 0) return;
      const key = text.slice(at + 1, close);
      const big = this.live.get(key);
      if (big === undefined) continue;
      yield { start: at, end: close + 1, big, json: key.charAt(0) === JSON_MODE };
      at = close;
    }
  }

  /** The length `text` has once its sentinels are replaced. */
  expandedLength(text: string): number {
    if (this.live.size === 0) return text.length;
    let n = text.length;
    for (const s of this.found(text)) n += (s.json ? s.big.jsonLength() : s.big.length) - (s.end - s.start);
    return n;
  }

  /** Writes `text` to `out`, each sentinel replaced by its text (in pieces). */
  write(text: string, out: (text: string) => void): void {
    if (this.live.size === 0 || text.indexOf(OPEN) < 0) {
      out(text);
      return;
    }
    let from = 0;
    for (const s of this.found(text)) {
      if (s.start > from) out(text.slice(from, s.start));
      for (const piece of s.big.pieces()) out(s.json ? jsonPiece(piece) : piece);
      from = s.end;
    }
    if (from < text.length) out(text.slice(from));
  }

  /** `text` with its sentinels replaced, as one string (where a line must be read whole). */
  expand(text: string): string {
    if (this.live.size === 0 || text.indexOf(OPEN) < 0) return text;
    let out = '';
    this.write(text, (piece) => (out += piece));
    return out;
  }

  /** Forgets the sentinels made so far (their text was written, or dropped). */
  release(): void {
    this.live.clear();
  }
}

/** A piece of a string as JSON.stringify writes it inside the quotes. */
function jsonPiece(piece: string): string {
  const quoted = JSON.stringify(piece);
  return quoted.slice(1, -1);
}
