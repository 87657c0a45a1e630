/**
 * Reading JSON values straight from a line's bytes, without making a string
 * of the line: numbers exactly as JSON.parse reads them, short strings
 * (interned), literal runs of bytes, and the slogger's usual line end, read
 * backwards. Every read checks the bytes it passes over against the JSON
 * grammar (without whitespace: the slogger writes none); a read that fails
 * returns a failure value (undefined, NaN, -1 or false) and leaves the
 * cursor somewhere in the line, and the caller gives the line up.
 *
 * All bytes at or above 0x80 are taken as string content where strings are
 * skipped: the plain path decodes them as UTF-8, where even an invalid
 * sequence becomes U+FFFD inside the string, which JSON.parse accepts.
 */
import { EXACT_INT, exactDecimal, MAX_EXACT_DECIMALS, POW10 } from '../source/exact-decimal.js';


/** Node's Buffer has it (what toString('latin1') calls); its types do not. */
type Latin1Sliceable = Buffer & { latin1Slice(start: number, end: number): string };

/** The bytes of an ASCII literal, to compare lines against. */
export function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (ch) => ch.charCodeAt(0));
}

/**
 * An ASCII literal to compare lines against, eight bytes at a time: each
 * run of eight is also held as the double those bytes make. Printable ASCII
 * never makes a NaN, a zero or an infinity, so two such doubles are equal
 * exactly when their bytes are.
 */
export interface Literal {
  bytes: Uint8Array;
  words: Float64Array;
}

export function literal(text: string): Literal {
  const bytes = asciiBytes(text);
  if (bytes.some((b) => b < 0x20 || b > 0x7e)) throw new Error(`not printable ASCII: ${text}`);
  const view = new DataView(bytes.buffer);
  const words = Float64Array.from({ length: bytes.length >> 3 }, (_, k) => view.getFloat64(k * 8, true));
  return { bytes, words };
}

/** The last four bytes of a literal of four or more, as a little-endian integer. */
function lastFour(text: string): number {
  const bytes = asciiBytes(text);
  return new DataView(bytes.buffer).getUint32(bytes.length - 4, true);
}

/**
 * Short strings seen again and again (vat IDs, syscall names, delivery kinds)
 * are made once: a map from a hash of the bytes to the string, checked
 * against the bytes on every hit. Bounded, so that a slog with endless
 * distinct values costs no memory (they are then made each time).
 */
const INTERN_MAX_LENGTH = 48;
const INTERN_MAX_ENTRIES = 4096;
const interned = new Map<number, string>();

export function internAscii(buf: Buffer, start: number, end: number): string {
  const length = end - start;
  let hash = length;
  for (let i = start; i < end; i += 1) hash = (Math.imul(hash, 31) + (buf[i] as number)) | 0;
  const hit = interned.get(hash);
  if (hit !== undefined && hit.length === length) {
    let i = 0;
    while (i < length && hit.charCodeAt(i) === buf[start + i]) i += 1;
    if (i === length) return hit;
  }
  const text = (buf as Latin1Sliceable).latin1Slice(start, end);
  if (length <= INTERN_MAX_LENGTH && interned.size < INTERN_MAX_ENTRIES) interned.set(hash, text);
  return text;
}

const OBJECT = 1;
const ARRAY = 2;

/** A cursor over one line. `pos` moves forward as values are read or skipped. */
export class ByteScanner {
  buf: Buffer = Buffer.alloc(0);
  pos = 0;
  /** The line's end (exclusive). */
  end = 0;
  /** What readTail found: where the line's tail starts, its time, and where its monotime and seconds are. */
  tailStart = 0;
  time = NaN;
  private monotimeStart = 0;
  private monotimeEnd = 0;
  private secondsStart = -1;
  private secondsEnd = 0;
  /** The key and integer part of the last time timeEndingAt read exactly (`,"time":1795308057`), and the integer's value: for sameSecondTime. */
  private readonly timeSecond = new KnownPrefix();
  private timeSecondValue = 0;
  /** The bytes of `buf` (indexed as `buf` is), to read eight at a time. */
  view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  private viewOf: ArrayBufferLike = this.view.buffer;
  private viewOffset = 0;
  /** Open containers of skipValue, innermost last. */
  private stack = new Uint8Array(64);

  reset(buf: Buffer, start: number, end: number): void {
    // A new chunk: most are views of one reused buffer, which one DataView serves.
    // The offset is compared first: both reads run on the first chunk, so that
    // the optimised code has seen them (else it is dropped on the first view).
    if (buf !== this.buf && (buf.byteOffset !== this.viewOffset || buf.buffer !== this.viewOf)) {
      this.view = new DataView(buf.buffer, buf.byteOffset);
      this.viewOf = buf.buffer;
      this.viewOffset = buf.byteOffset;
    }
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** Consumes the bytes of `lit` if they come next. */
  lit(lit: Literal): boolean {
    const at = this.pos;
    const bytes = lit.bytes;
    const n = bytes.length;
    if (at + n > this.end) return false;
    const words = lit.words;
    const view = this.view;
    let i = 0;
    for (let k = 0; k < words.length; k += 1, i += 8) if (view.getFloat64(at + i, true) !== words[k]) return false;
    const buf = this.buf;
    for (; i < n; i += 1) if (buf[at + i] !== bytes[i]) return false;
    this.pos = at + n;
    return true;
  }

  /**
   * The rest of a string whose opening quote was read: printable ASCII
   * without escapes, up to and past its closing quote (interned);
   * undefined for anything else.
   */
  word(): string | undefined {
    const buf = this.buf;
    const start = this.pos;
    const end = this.end;
    let i = start;
    let c = buf[i] as number;
    while (c !== 34) {
      if (c < 32 || c === 92 || c > 126 || i >= end) return undefined;
      c = buf[++i] as number;
    }
    if (i >= end) return undefined;
    this.pos = i + 1;
    return internAscii(buf, start, i);
  }

  /** As word(), without making the string. */
  skipWord(): boolean {
    const buf = this.buf;
    const end = this.end;
    let i = this.pos;
    let c = buf[i] as number;
    while (c !== 34) {
      if (c < 32 || c === 92 || c > 126 || i >= end) return false;
      c = buf[++i] as number;
    }
    if (i >= end) return false;
    this.pos = i + 1;
    return true;
  }

  /** A JSON string (with its quotes) read as word() reads its rest. */
  str(): string | undefined {
    if (this.buf[this.pos] !== 34) return undefined;
    this.pos += 1;
    return this.word();
  }

  /** Skips a JSON string, escapes and all (checked); false if there is none. */
  skipStr(): boolean {
    const at = this.end - this.pos > LONG_STRING ? longStringEnd(this.buf, this.pos, this.end) : stringEnd(this.buf, this.pos, this.end);
    if (at < 0) return false;
    this.pos = at;
    return true;
  }

  /** Skips a non-negative JSON integer (`0|[1-9][0-9]*`); false if there is none. */
  skipInt(): boolean {
    const buf = this.buf;
    const end = this.end;
    let i = this.pos;
    let c = buf[i] as number;
    if (c === 48) {
      i += 1;
    } else {
      if (c < 49 || c > 57) return false;
      c = buf[++i] as number;
      while (c >= 48 && c <= 57) c = buf[++i] as number;
    }
    if (i >= end) return false;
    this.pos = i;
    return true;
  }

  /**
   * A JSON number, exactly the double JSON.parse makes of it; NaN if there
   * is none (JSON has no NaN). When its digits make an integer below 2^53
   * and it has at most 22 decimals, the value is that exact integer divided
   * by an exact power of ten: one correctly rounded division, so the
   * correctly rounded value, which is JSON.parse's. Anything longer, or with
   * an exponent, goes through Number() (JSON.parse's own conversion).
   */
  num(): number {
    const buf = this.buf;
    const start = this.pos;
    const end = numberEnd(buf, start, this.end);
    if (end < 0) return NaN;
    this.pos = end;
    let i = start;
    while (i < end && buf[i] !== 101 && buf[i] !== 69) i += 1;
    return i === end ? plainNumber(buf, start, end) : Number((buf as Latin1Sliceable).latin1Slice(start, end));
  }

  /** `true` or `false`; undefined if neither comes next. */
  bool(): boolean | undefined {
    const buf = this.buf;
    const at = this.pos;
    if (buf[at] === 116 && buf[at + 1] === 114 && buf[at + 2] === 117 && buf[at + 3] === 101 && at + 4 <= this.end) {
      this.pos = at + 4;
      return true;
    }
    if (buf[at] === 102 && buf[at + 1] === 97 && buf[at + 2] === 108 && buf[at + 3] === 115 && buf[at + 4] === 101 && at + 5 <= this.end) {
      this.pos = at + 5;
      return false;
    }
    return undefined;
  }

  /** Skips one JSON value of any kind, checking its grammar; false if it is not one. */
  skipValue(): boolean {
    const buf = this.buf;
    const end = this.end;
    let i = this.pos;
    let depth = 0;
    for (;;) {
      // A value starts at i.
      if (i >= end) return false;
      const c = buf[i] as number;
      if (c === 34) {
        i = end - i > LONG_STRING ? longStringEnd(buf, i, end) : stringEnd(buf, i, end);
      } else if (c === 123 || c === 91) {
        i += 1;
        const close = c === 123 ? 125 : 93;
        if (buf[i] === close && i < end) {
          i += 1;
        } else {
          if (depth === this.stack.length) {
            const grown = new Uint8Array(depth * 2);
            grown.set(this.stack);
            this.stack = grown;
          }
          this.stack[depth] = c === 123 ? OBJECT : ARRAY;
          depth += 1;
          if (c === 123) {
            i = memberValueStart(buf, i, end);
            if (i < 0) return false;
          }
          continue;
        }
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        i = numberEnd(buf, i, end);
      } else if (c === 110) {
        i = buf[i + 1] === 117 && buf[i + 2] === 108 && buf[i + 3] === 108 && i + 4 <= end ? i + 4 : -1;
      } else if (c === 116) {
        i = buf[i + 1] === 114 && buf[i + 2] === 117 && buf[i + 3] === 101 && i + 4 <= end ? i + 4 : -1;
      } else if (c === 102) {
        i = buf[i + 1] === 97 && buf[i + 2] === 108 && buf[i + 3] === 115 && buf[i + 4] === 101 && i + 5 <= end ? i + 5 : -1;
      } else {
        return false;
      }
      if (i < 0) return false;
      // A value ended at i: close containers, or go on to the next element or member.
      for (;;) {
        if (depth === 0) {
          this.pos = i;
          return true;
        }
        if (i >= end) return false;
        const kind = this.stack[depth - 1];
        const d = buf[i];
        if (d === 44) {
          i += 1;
          if (kind === OBJECT) {
            i = memberValueStart(buf, i, end);
            if (i < 0) return false;
          }
          break;
        }
        if ((d === 125 && kind === OBJECT) || (d === 93 && kind === ARRAY)) {
          depth -= 1;
          i += 1;
          continue;
        }
        return false;
      }
    }
  }

  /**
   * Reads the end of an entry as the slogger writes it, from the line's end
   * backwards: `,"time":T,"monotime":M}`, maybe with `,"seconds":S` before
   * the `}` (the entries that close a span); each number plain (digits,
   * maybe a sign and a fraction: an exponent is left to JSON.parse). Sets
   * `time`, `tailStart` (the tail's first byte, its comma) and where the
   * monotime and seconds are (read by monotime() and seconds()); false if
   * the line does not end so. `pos` stays. A T of the same second as the
   * last one read is read from its fraction alone (sameSecondTime).
   */
  readTail(start: number): boolean {
    const p = this.end - 1;
    if (p <= start || this.buf[p] !== 125) return false;
    this.secondsStart = -1;
    const key = this.monotimeKey(p, start);
    if (key < 0) return false;
    return this.sameSecondTime(key, start) || this.timeEndingAt(key, start);
  }

  /**
   * Where the key of `,"monotime":M` starts: M ends at `end`, or, when
   * `,"seconds":S` ends there, where that starts (then secondsStart and
   * secondsEnd are set too); -1 when the line does not end so. Sets
   * monotimeStart and monotimeEnd. (Its integer part is read again on every
   * line: telling a line of the same second as the time does cost more
   * than it saved, the monotime's integer being short.)
   */
  private monotimeKey(end: number, start: number): number {
    const buf = this.buf;
    const view = this.view;
    let p = end;
    let numberStart = plainNumberStart(buf, view, p);
    let key = numberStart - SECONDS_KEY.bytes.length;
    if (numberStart > start && key > start && view.getFloat64(key, true) === SECONDS_WORD && view.getUint32(key + 7, true) === SECONDS_LAST) {
      this.secondsStart = numberStart;
      this.secondsEnd = p;
      p = key;
      numberStart = plainNumberStart(buf, view, p);
    }
    key = numberStart - MONOTIME_KEY.bytes.length;
    if (numberStart <= start || key <= start || view.getFloat64(key, true) !== MONOTIME_WORD || view.getUint32(key + 8, true) !== MONOTIME_LAST) {
      return -1;
    }
    this.monotimeStart = numberStart;
    this.monotimeEnd = p;
    return key;
  }

  /**
   * The time ending at `p` when its key and integer part are byte for byte
   * those of the last time timeEndingAt read (a slog writes many entries a
   * second): only its fraction is read, the rest compared a word at a time.
   * Sets `time` and `tailStart` as timeEndingAt does; false (nothing set)
   * when the line's time is not of that second or not exactly computed so.
   */
  private sameSecondTime(p: number, start: number): boolean {
    const known = this.timeSecond;
    if (known.length === 0) return false;
    const buf = this.buf;
    const fraction = digitRunStart(buf, this.view, p);
    const dot = fraction - 1;
    const tail = dot - known.length;
    if (fraction === p || buf[dot] !== 46 || tail <= start || !known.before(this.view, dot)) return false;
    const decimals = p - fraction;
    if (decimals > MAX_EXACT_DECIMALS) return false;
    let f = 0;
    for (let i = fraction; i < p; i += 1) f = f * 10 + ((buf[i] as number) - 48);
    // Exact while below 2^53: the integer part times 10^decimals is an integer below the sum.
    const mantissa = this.timeSecondValue * (POW10[decimals] as number) + f;
    if (mantissa >= EXACT_INT) return false;
    this.tailStart = tail;
    this.time = exactDecimal(mantissa, decimals);
    return true;
  }

  /**
   * The time ending at `p` (`,"time":T` before the monotime's key), read
   * backwards as it is checked: digit d at 10^k adds d * 10^k, exactly while
   * the sum stays below 2^53 (else the text goes to Number()). Sets `time`
   * and `tailStart`, and keeps its key and integer part for sameSecondTime.
   */
  private timeEndingAt(p: number, start: number): boolean {
    const buf = this.buf;
    const view = this.view;
    let i = p - 1;
    let c = buf[i] as number;
    let mantissa = 0;
    let scale = 1;
    let digits = 0;
    while (c >= 48 && c <= 57) {
      mantissa += (c - 48) * scale;
      scale *= 10;
      digits += 1;
      c = buf[--i] as number;
    }
    let decimals = 0;
    let fraction = 0;
    if (c === 46) {
      decimals = digits;
      fraction = mantissa;
      c = buf[--i] as number;
      while (c >= 48 && c <= 57) {
        mantissa += (c - 48) * scale;
        scale *= 10;
        digits += 1;
        c = buf[--i] as number;
      }
      if (decimals === 0 || digits === decimals) return false;
    } else if (digits === 0) {
      return false;
    }
    // No leading zero in the integer part.
    if (buf[i + 1] === 48 && digits - decimals > 1) return false;
    const negative = c === 45;
    const numberAt = negative ? i : i + 1;
    if (negative) i -= 1;
    // buf[i] is the key's colon.
    const tail = i + 1 - TIME_KEY.bytes.length;
    if (tail <= start || view.getFloat64(tail, true) !== TIME_WORD) return false;
    this.tailStart = tail;
    this.timeSecond.forget();
    if (mantissa >= EXACT_INT || decimals > MAX_EXACT_DECIMALS) {
      this.time = Number((buf as Latin1Sliceable).latin1Slice(numberAt, p));
      return true;
    }
    const value = exactDecimal(mantissa, decimals);
    this.time = negative ? -value : value;
    if (!negative && decimals > 0) {
      // mantissa - fraction is the integer part times 10^decimals, exactly: so is its quotient.
      this.timeSecond.keep(view, tail, p - decimals - 1);
      this.timeSecondValue = (mantissa - fraction) / (POW10[decimals] as number);
    }
    return true;
  }

  /** The monotime readTail found. */
  monotime(): number {
    return plainNumber(this.buf, this.monotimeStart, this.monotimeEnd);
  }

  /** The seconds readTail found, or undefined when the line has none. */
  seconds(): number | undefined {
    return this.secondsStart < 0 ? undefined : plainNumber(this.buf, this.secondsStart, this.secondsEnd);
  }

  /**
   * A non-negative integer written `0|[1-9][0-9]*` with at most 15 digits
   * (so exact); NaN for anything else, which the caller leaves to JSON.parse.
   */
  int(): number {
    const buf = this.buf;
    let i = this.pos;
    let c = buf[i] as number;
    if (c === 48) {
      this.pos = i + 1;
      return i + 1 < this.end ? 0 : NaN;
    }
    let value = 0;
    const first = i;
    while (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      c = buf[++i] as number;
    }
    if (i === first || i - first > 15 || i >= this.end) return NaN;
    this.pos = i;
    return value;
  }
}

/**
 * A number's key and integer part as a line had them (`,"time":1795308057`):
 * a line of the same second has them byte for byte, which three words
 * compared tell (readTail then reads the fraction alone).
 */
class KnownPrefix {
  /** How many bytes are kept: 0 (none), or 9 to 24. */
  length = 0;
  /** The first eight bytes, the next eight (when over 16), and the last eight (overlapping the others when shorter). */
  private readonly words = new Float64Array(3);

  /** Keeps bytes [from, dot), the key and integer part of a number checked to be plain and not negative, when 9 to 24 bytes; else none. */
  keep(view: DataView<ArrayBufferLike>, from: number, dot: number): void {
    const n = dot - from;
    if (n < 9 || n > 24) {
      this.length = 0;
      return;
    }
    this.length = n;
    this.words[0] = view.getFloat64(from, true);
    this.words[1] = n > 16 ? view.getFloat64(from + 8, true) : 0;
    this.words[2] = view.getFloat64(dot - 8, true);
  }

  forget(): void {
    this.length = 0;
  }

  /**
   * Are the `length` bytes before `dot` the kept ones? Words of these bytes
   * (ASCII digits and key) are never NaN or zero, so equal words are equal
   * bytes. Precondition: length > 0 and dot - length within the line.
   */
  before(view: DataView<ArrayBufferLike>, dot: number): boolean {
    const from = dot - this.length;
    return view.getFloat64(from, true) === this.words[0] && view.getFloat64(dot - 8, true) === this.words[2] && (this.length <= 16 || view.getFloat64(from + 8, true) === this.words[1]);
  }
}

const SECONDS_KEY = literal(',"seconds":');
const MONOTIME_KEY = literal(',"monotime":');
const TIME_KEY = literal(',"time":');
// Their first eight bytes as a double, and their last four.
const SECONDS_WORD = SECONDS_KEY.words[0] as number;
const SECONDS_LAST = lastFour(',"seconds":');
const MONOTIME_WORD = MONOTIME_KEY.words[0] as number;
const MONOTIME_LAST = lastFour(',"monotime":');
const TIME_WORD = TIME_KEY.words[0] as number;

/**
 * Where the run of ASCII digits that ends right before `end` begins (`end`
 * if there is none), looking four bytes at a time: four bytes are digits
 * when their high nibbles are all 3 and adding 6 to each leaves them so.
 */
function digitRunStart(buf: Uint8Array, view: DataView<ArrayBufferLike>, end: number): number {
  let i = end;
  while (i >= 4) {
    const four = view.getUint32(i - 4, true);
    if ((four & 0xf0f0f0f0) !== 0x30303030 || ((four + 0x06060606) & 0xf0f0f0f0) !== 0x30303030) break;
    i -= 4;
  }
  let c = buf[i - 1] as number;
  while (c >= 48 && c <= 57) {
    i -= 1;
    c = buf[i - 1] as number;
  }
  return i;
}

/**
 * The start of the plain JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`) that
 * ends at `end` (exclusive), or -1. (A line's first byte is never part of
 * one: the scan stops there, or at the buffer's start.)
 */
function plainNumberStart(buf: Uint8Array, view: DataView<ArrayBufferLike>, end: number): number {
  const last = end - 1;
  let i = digitRunStart(buf, view, end) - 1;
  let c = buf[i] as number;
  if (c === 46) {
    const dot = i;
    if (dot === last) return -1;
    i = digitRunStart(buf, view, dot) - 1;
    if (i === dot - 1) return -1;
    c = buf[i] as number;
  } else if (i === last) {
    return -1;
  }
  const first = i + 1;
  if (buf[first] === 48 && first < last && buf[first + 1] !== 46) return -1;
  return c === 45 ? i : first;
}

/** The value of the JSON number [start, end) without an exponent, as JSON.parse reads it (see num()). */
function plainNumber(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = buf[i] === 45;
  if (negative) i += 1;
  let mantissa = 0;
  let decimals = -1;
  for (; i < end; i += 1) {
    const c = buf[i] as number;
    if (c === 46) {
      decimals = 0;
    } else {
      mantissa = mantissa * 10 + (c - 48);
      if (decimals >= 0) decimals += 1;
    }
  }
  if (decimals <= MAX_EXACT_DECIMALS && mantissa < EXACT_INT) {
    const value = exactDecimal(mantissa, decimals);
    return negative ? -value : value;
  }
  return Number((buf as Latin1Sliceable).latin1Slice(start, end));
}

/** The end of the JSON string starting at `at` (a quote), or -1. */
function stringEnd(buf: Uint8Array, at: number, end: number): number {
  if (buf[at] !== 34) return -1;
  let i = at + 1;
  for (;;) {
    if (i >= end) return -1;
    const c = buf[i] as number;
    if (c === 34) return i + 1;
    if (c === 92) {
      const e = buf[i + 1];
      if (e === 117) {
        // \uXXXX
        for (let k = i + 2; k < i + 6; k += 1) {
          const h = buf[k] as number;
          if (!((h >= 48 && h <= 57) || (h >= 65 && h <= 70) || (h >= 97 && h <= 102))) return -1;
        }
        i += 6;
      } else if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
        i += 2;
      } else {
        return -1;
      }
    } else if (c < 32) {
      return -1;
    } else {
      i += 1;
    }
  }
}

/** A string that may run this long (a create-vat's source bundle: a megabyte of base64) is skipped by longStringEnd. */
const LONG_STRING = 1 << 16;

/**
 * stringEnd, for a string that may be long: its run of plain bytes found by
 * plainRunEnd, the string's end at once when a quote ends that run, else
 * stringEnd's loop from its start. Its callers choose it when the line has
 * more than LONG_STRING bytes left, so stringEnd itself, on every string,
 * stays as small as before.
 */
function longStringEnd(buf: Uint8Array, at: number, end: number): number {
  if (buf[at] !== 34) return -1;
  const run = plainRunEnd(buf, at + 1, end);
  return run < end && buf[run] === 34 ? run + 1 : stringEnd(buf, at, end);
}

/**
 * Where the run of plain string bytes starting at `i` ends: the first quote,
 * backslash or control character (or `end`), the byte stringEnd's loop must
 * look at next. Found by native searches (memchr, some 0.6 ms per MB for
 * all 34 bytes) where the loop costs some 3.4 ms per MB; a string shorter
 * than 4 KB is left to the loop.
 */
function plainRunEnd(buf: Uint8Array, i: number, end: number): number {
  const quote = buf.indexOf(34, i);
  let stop = quote < 0 || quote > end ? end : quote;
  if (stop - i < 4096) return i;
  const run = buf.subarray(i, stop);
  const backslash = run.indexOf(92);
  if (backslash >= 0) stop = i + backslash;
  for (let c = 0; c < 32; c += 1) {
    const at = run.indexOf(c);
    if (at >= 0 && i + at < stop) stop = i + at;
  }
  return stop;
}

/** The end of the JSON number starting at `at`, or -1. */
function numberEnd(buf: Uint8Array, at: number, end: number): number {
  let i = at;
  if (buf[i] === 45) i += 1;
  if (i >= end) return -1;
  let c = buf[i] as number;
  if (c === 48) {
    i += 1;
  } else if (c >= 49 && c <= 57) {
    i += 1;
    while (i < end && (c = buf[i] as number) >= 48 && c <= 57) i += 1;
  } else {
    return -1;
  }
  if (i < end && buf[i] === 46) {
    i += 1;
    const digits = i;
    while (i < end && (c = buf[i] as number) >= 48 && c <= 57) i += 1;
    if (i === digits) return -1;
  }
  if (i < end && (buf[i] === 101 || buf[i] === 69)) {
    i += 1;
    if (i < end && (buf[i] === 43 || buf[i] === 45)) i += 1;
    const digits = i;
    while (i < end && (c = buf[i] as number) >= 48 && c <= 57) i += 1;
    if (i === digits) return -1;
  }
  return i;
}

/** After `{` or an object's `,`: skips `"key":`; returns where the value starts, or -1. */
function memberValueStart(buf: Uint8Array, at: number, end: number): number {
  const i = stringEnd(buf, at, end);
  if (i < 0 || i >= end || buf[i] !== 58) return -1;
  return i + 1;
}
