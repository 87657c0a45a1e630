/**
 * Seeking in a plain slog file: which bytes a selection of cranks or blocks
 * needs, found without parsing the rest (issue 30). Crank numbers and block
 * heights only grow within one kernel run, so the first line of a selection
 * is found by a binary search over the file's bytes: jump, find the next
 * line start, read the first line there that carries the key (`crankNum`,
 * or a cosmic-swingset entry's `blockHeight`), and halve; the end likewise.
 *
 * What the crank model and the consumers need from outside those bytes, and
 * what says the order holds, is found by a byte search over the whole file
 * (Buffer.indexOf, no parsing): the lines that name vats (`"create-vat"`:
 * create-vat entries and the crank-starts of create-vat messages), handed
 * over as a prelude (before the range) and a postlude (after it); the
 * kernel starts (a second one is a restart, which runs cranks and blocks
 * again with the same numbers: the range must then lie in the last kernel
 * run, above every number run before it, and the whole read marks nothing
 * in it `again`); and every crank-start (begin-block) with its number,
 * which must grow within the last run and lie in the range exactly when
 * selected.
 *
 * A plan is refused (and the caller reads the whole file, as without a
 * seek) whenever it cannot be sure to give what a full read gives: gzip
 * without an index that matches it, or of one member (an indexed gzip
 * file is planned over its decompressed bytes: planGzipSeek), a
 * selection that may have run before a restart, keys not in order at the
 * probes, in the range or among the openers, a range that does not begin
 * at a crank-start (a crank begun before it) or a begin-block, a line in
 * the range that is not a slog entry (a full read reports it with its line
 * number, which a seek does not know), lines of another shape (contextual
 * envelopes), or a range too big to be worth checking. Preconditions:
 * `path` names a regular file that is not written to meanwhile.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { bytesAt } from './bytes-at.js';
import { indexIn, lastIndexIn, shortNeedle, type ShortNeedle } from './short-needle.js';
import { EXACT_INT, exactDecimal } from './exact-decimal.js';
import { describe, InputError, openToRead, readFullyAt, type SlogSource } from './open.js';
import { withoutCr } from './lines.js';
import { findIndex, type GzipIndex, type IndexedOpener, type OpenerSummary } from './gzip-index.js';
import { MemberBytes, MemberTooBig } from './gzip-members.js';

/** What a seek selects by: crank numbers, chain block heights, or the time a crank started. */
export type SeekKey = 'crankNum' | 'blockHeight' | 'time';

/**
 * A range of keys: inclusive for crank numbers and block heights; for
 * times, the cranks whose crank-start time is `>= from` and `< to`
 * (`--since`, `--until`). `to` is Infinity for an open end, `from`
 * -Infinity for a time range without a start.
 */
export interface SeekRange {
  key: SeekKey;
  from: number;
  to: number;
}

/** The bytes to read, and the lines outside them the model needs. */
export interface SeekPlan {
  size: number;
  /** The range to read: `start` is a line start, `end` a line start or the file's size. */
  start: number;
  end: number;
  /** How many lines begin before `start`, counted when first asked (a bad line in the range is reported with its number in the file). */
  linesBefore: () => number;
  /** Lines that name vats before `start` and from `end` on, in file order. */
  prelude: NamingLine[];
  postlude: NamingLine[];
  /** Bytes read by the byte search (the whole file), and read and parsed besides the range (probes, checks, prelude). */
  searched: number;
  probed: number;
  /** A line to tell the user (a plain slog's index that no longer matches it). */
  note?: string;
}

/**
 * A line that names a vat, outside the range: where it starts and ends (its
 * `\n`), and its bytes without the `\n`, or (`standIn`) an index's stand-in
 * for them (naming-line.ts: what the learners read of the line, the line
 * itself too long to keep), read from the slog only by whoever wants the
 * line itself (`extract`, run/extract.ts ownBytes).
 */
export interface NamingLine {
  start: number;
  end: number;
  bytes: Buffer;
  standIn: boolean;
}

/** The refusal of a gzip file with no index. */
export const GZIP_UNINDEXED = 'gzip';

/** Why a seek was not made: the caller reads the whole file. */
export interface SeekRefusal {
  refused: string;
  /** A line to tell the user (a gzip slog's index that no longer matches it). */
  note?: string;
}

/** Bytes read and parsed per probe window (lines longer than one are read in windows of growing size). */
const WINDOW = 16 << 10;
/** The first read for the start or end of one line. */
const SMALL = 1 << 10;
/** The biggest read of one line's bytes (File.line). */
const LINE_WINDOW = 1 << 20;
/** The byte search's chunks. */
const SEARCH_CHUNK = 1 << 20;
/** The range's reads. */
const RANGE_CHUNK = 512 << 10;
/** A range bigger than this share of the file is read as a whole file is (checking it would cost more than the seek saves). */
const MAX_RANGE_SHARE = 0.25;

/**
 * The byte search's needles. Each string it looks for has a `-` followed
 * by `s`, `v` or `b` (a `-` is rare in a slog: about 3 bytes in 1000,
 * fewer than newlines), so one native Buffer.indexOf of that byte
 * (memchr) finds every candidate (nextCandidate), and the
 * bytes after it (the tail) and before it (the head) are compared in
 * JavaScript: `"crank-start"` is the head `"crank` and the tail `-start"`.
 */
const DASH = 0x2d;
const START_TAIL = Buffer.from('-start"');
const VAT_TAIL = Buffer.from('-vat"');
const BLOCK_TAIL = Buffer.from('-begin-block"');
const CRANK_HEAD = Buffer.from('"crank');
const KERNEL_INIT_HEAD = Buffer.from('"kernel-init');
const CREATE_HEAD = Buffer.from('"create');
const BLOCK_HEAD = Buffer.from('"cosmic-swingset');
const CRANK_NUM = Buffer.from('"crankNum"');
const BLOCK_HEIGHT = Buffer.from('"blockHeight"');
const CRANK_NUM_AT = shortNeedle('"crankNum":');
const TIME = Buffer.from('"time"');
const TIME_AT = shortNeedle('"time":');
const BLOCK_HEIGHT_AT = shortNeedle('"blockHeight":');

/** A line that carries the key: where it starts and ends, its key, and its entry type. */
interface Keyed {
  start: number;
  end: number;
  key: number;
  type: string;
}

/** What a seek reads of a line: its type, and its crank, block and time where each is a finite number. */
export interface LineFields {
  type: string;
  crankNum: number | undefined;
  blockHeight: number | undefined;
  time: number | undefined;
}

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The fields of a line (for seek.ts's plans and index-builder.ts's first lines), or undefined when it is not JSON or not a slog entry of the usual shape (an object with a string type). */
export function lineFields(text: string): LineFields | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entry = value as Record<string, unknown>;
  const type = entry.type;
  if (typeof type !== 'string') return undefined;
  return { type, crankNum: finite(entry.crankNum), blockHeight: finite(entry.blockHeight), time: finite(entry.time) };
}

/** A line parsed: not JSON or not a slog entry of the usual shape (undefined), or its type and the key if it has one. */
function parsed(text: string, key: SeekKey): { type: string; key: number | undefined; crankNum: number | undefined; time: number | undefined } | undefined {
  const fields = lineFields(text);
  if (fields === undefined) return undefined;
  const { type, crankNum, time } = fields;
  const k = fields[key];
  // Block heights: only the chain's entries say which block they are of.
  if (k === undefined || (key === 'blockHeight' && !type.startsWith('cosmic-swingset-'))) return { type, key: undefined, crankNum, time };
  return { type, key: k, crankNum, time };
}

/** A plan that cannot be made sure of: the caller reads the whole file. */
export class Refused extends Error {
  /** A line to tell the user beside the refusal (an index that no longer matches its slog). */
  constructor(
    message: string,
    readonly note?: string,
  ) {
    super(message);
  }
}

/**
 * Reads of one file's bytes, counted: a plain file's, or an indexed gzip's
 * decompressed bytes (gzip-members.ts), read by `readAt` (into all of a
 * buffer from a position, or up to the end: how many bytes came).
 */
export class File {
  probed = 0;
  searched = 0;

  constructor(
    readonly size: number,
    private readonly readAt: (buf: Buffer, pos: number) => number,
    /** The line holding byte `place`, when known without reading (an index's): where it starts, where it ends (its `\n`), its bytes (or their stand-in). */
    readonly known?: (place: number) => NamingLine | undefined,
  ) {}

  /** A plain file open at `fd` (with `known`: the lines an index holds). */
  static of(fd: number, known?: (place: number) => NamingLine | undefined): File {
    return new File(fstatSync(fd).size, (buf, pos) => readFullyAt(fd, buf, pos), known);
  }

  read(pos: number, length: number, count: 'probed' | 'searched' = 'probed', into?: Buffer): Buffer {
    const want = Math.max(0, Math.min(length, this.size - pos));
    const buf = into === undefined ? Buffer.allocUnsafe(want) : into.subarray(0, want);
    const got = this.readAt(buf, pos);
    this[count] += got;
    return buf.subarray(0, got);
  }

  /** The start of the line holding byte `pos`. */
  lineStart(pos: number): number {
    let at = pos;
    for (let step = SMALL; at > 0; step = Math.min(step * 2, WINDOW)) {
      const from = Math.max(0, at - step);
      const nl = this.read(from, at - from).lastIndexOf(10);
      if (nl >= 0) return from + nl + 1;
      at = from;
    }
    return 0;
  }

  /** The end of the line starting at `start` (its `\n`, or the file's end), and its text without a `\r` before the `\n`. */
  line(start: number, limit: number): { end: number; bytes: Buffer } {
    const pieces: Buffer[] = [];
    let at = start;
    // Windows that double up to LINE_WINDOW: a create-vat line with its vat's bundle (about 1 MB) in some 11 reads.
    for (let step = SMALL; ; step = Math.min(step * 2, LINE_WINDOW)) {
      const chunk = this.read(at, step);
      const nl = chunk.indexOf(10);
      if (nl >= 0 || chunk.length === 0) {
        pieces.push(nl >= 0 ? chunk.subarray(0, nl) : chunk);
        at += nl >= 0 ? nl : chunk.length;
        break;
      }
      pieces.push(chunk);
      at += chunk.length;
      if (at - start > limit) throw new Refused(`a line of more than ${limit} bytes at byte ${start}`);
    }
    return { end: at, bytes: withoutCr(pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces)) };
  }
}

/** A line: where it starts, where it ends (its `\n`, or the file's end), its bytes without a `\r` before the `\n`. */
interface Line {
  start: number;
  end: number;
  bytes: Buffer;
}


/** The lines from the line start `at` on, up to `until`, read a window at a time. */
function* linesFrom(file: File, at: number, until: number, limit: number): Generator<Line> {
  while (at < until) {
    const win = file.read(at, WINDOW);
    if (win.length === 0) return;
    let i = 0;
    for (let nl = win.indexOf(10); nl >= 0; nl = win.indexOf(10, i)) {
      yield { start: at + i, end: at + nl, bytes: withoutCr(win.subarray(i, nl)) };
      i = nl + 1;
      if (at + i >= until) return;
    }
    if (at + win.length >= file.size) {
      // The last line, without a newline.
      if (i < win.length) yield { start: at + i, end: file.size, bytes: withoutCr(win.subarray(i)) };
      return;
    }
    if (i === 0) {
      // A line longer than a window.
      const { end, bytes } = file.line(at, limit);
      yield { start: at, end, bytes };
      at = end + 1;
    } else {
      at += i;
    }
  }
}

/**
 * The first line starting at or after `pos` (`pos` itself when it is a line
 * start) that carries the key; undefined when none does before the end.
 * Lines without the key's name in their bytes are not parsed; a line that
 * has it but is not a slog entry is taken as one without it (the range's
 * own lines are checked whole: checkRange).
 */
function keyedAfter(file: File, pos: number, key: SeekKey, limit: number): Keyed | undefined {
  for (const keyed of keyedLines(file, pos, key, limit)) return keyed;
  return undefined;
}

/** The lines that carry the key from the first line starting at or after `pos` on (as keyedAfter). */
function* keyedLines(file: File, pos: number, key: SeekKey, limit: number): Generator<Keyed> {
  const at = pos === 0 || file.read(pos - 1, 1)[0] === 10 ? pos : nextLineStart(file, pos);
  const name = key === 'crankNum' ? CRANK_NUM : key === 'blockHeight' ? BLOCK_HEIGHT : TIME;
  for (const line of linesFrom(file, at, file.size, limit)) {
    if (line.bytes.indexOf(name) < 0) continue;
    const p = parsed(line.bytes.toString('utf8'), key);
    if (p?.key !== undefined) yield { start: line.start, end: line.end, key: p.key, type: p.type };
  }
}

/** The start of the line after the one holding `pos`. */
function nextLineStart(file: File, pos: number): number {
  let at = pos;
  while (at < file.size) {
    const chunk = file.read(at, WINDOW);
    const nl = chunk.indexOf(10);
    if (nl >= 0) return at + nl + 1;
    at += chunk.length;
  }
  return file.size;
}

/**
 * The first line start whose keyed line comes after `bound` (`key >= bound`
 * when `inclusive`, else `key > bound`): a binary search over bytes, then
 * line by line. Every key seen goes to `seen`, to check the order.
 */
function firstBeyond(file: File, key: SeekKey, bound: number, inclusive: boolean, seen: Keyed[], limit: number, floor: number, narrow?: Narrow): Keyed | undefined {
  const beyond = (k: number): boolean => (inclusive ? k >= bound : k > bound);
  let lo = floor;
  let hi = file.size;
  if (narrow !== undefined) ({ lo, hi } = narrow(key, beyond, lo, hi, seen));
  while (hi - lo > WINDOW) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const k = keyedAfter(file, mid, key, limit);
    if (k !== undefined) seen.push(k);
    if (k === undefined || beyond(k.key)) hi = mid;
    else lo = k.end + 1;
  }
  for (const k of keyedLines(file, lo, key, limit)) {
    seen.push(k);
    if (beyond(k.key)) return k;
  }
  return undefined;
}

/**
 * Where a binary search may begin and end (`lo`, `hi`), narrowed by keyed
 * lines known without reading (an index's), each put in `seen` as a probe
 * that found it would be.
 */
type Narrow = (key: SeekKey, beyond: (k: number) => boolean, lo: number, hi: number, seen: Keyed[]) => { lo: number; hi: number };

/**
 * A line that opens a crank (its crank-start) or a block (its begin-block),
 * found by the byte search: where, and its number (NaN: not found near);
 * a crank-start's time when the search is by time (NaN: its line runs past
 * the search's chunk, read afterwards: openerTimes).
 */
export interface Opener {
  at: number;
  num: number;
  time?: number;
}

/** How far after an opener's type its number may be (`{"type":"crank-start","crankType":"delivery","crankNum":12`). */
const NUMBER_WITHIN = 200;
/** How much each chunk of the byte search overlaps the one before: a needle, or a number after it, across two chunks is found in the second. */
export const SEARCH_OVERLAP = NUMBER_WITHIN + 64;

/** What the byte search finds: lines that name vats, kernel starts, and the openers of cranks and blocks. */
export interface Found {
  creates: number[];
  starts: number[];
  cranks: Opener[];
  blocks: Opener[];
}

/** The first `-` at or after `from` in `chunk` followed by `s`, `v` or `b` (-1: none): where a needle may be. */
function nextCandidate(chunk: Buffer, from: number): number {
  for (let at = chunk.indexOf(DASH, from); at >= 0; at = chunk.indexOf(DASH, at + 1)) {
    const next = chunk[at + 1];
    if (next === 0x73 || next === 0x76 || next === 0x62) return at;
  }
  return -1;
}

/**
 * The number after `name` when `name` begins within NUMBER_WITHIN bytes of
 * `from` in `chunk` (NaN: none there), or undefined when the chunk ends
 * before it could be read (the next chunk, which overlaps this one, reads
 * it).
 */
function numberAfter(chunk: Buffer, from: number, name: ShortNeedle, last: boolean): number | undefined {
  if (from + NUMBER_WITHIN + name.bytes.length > chunk.length && !last) return undefined;
  const k = indexIn(chunk, name, from, from + NUMBER_WITHIN);
  if (k < 0) return NaN;
  let i = k + name.bytes.length;
  let value = 0;
  let digits = 0;
  for (; i < chunk.length; i += 1) {
    const c = chunk[i] as number;
    if (c < 48 || c > 57) break;
    value = value * 10 + (c - 48);
    digits += 1;
  }
  if (i === chunk.length && !last) return undefined;
  return digits > 0 && digits < 16 ? value : NaN;
}

/**
 * The `time` of the line holding `from` in `chunk`, read from the line's end
 * (the slogger writes `time` and `monotime` last): the number after the
 * last `"time":` before the line's newline. NaN when the newline is not in
 * the chunk or no such number is there. A nested `"time":` later in the
 * line would be read instead: the range's crank-starts are parsed whole
 * and checked against it (checkRange).
 */
export function timeAfter(chunk: Buffer, from: number): number {
  const nl = chunk.indexOf(10, from);
  if (nl < 0) return NaN;
  const k = lastIndexIn(chunk, TIME_AT, from, nl - TIME_AT.bytes.length);
  if (k < 0) return NaN;
  return decimalAt(chunk, k + TIME_AT.bytes.length, nl);
}

/**
 * The JSON number at `begin` of `chunk` (ending before `end` at the latest):
 * NaN when there is none, or it is longer than 40 bytes or not finite. A
 * plain decimal of at most 16 digits whose digits make an integer below
 * 2^53 is read by exactDecimal; any other by Number().
 */
function decimalAt(chunk: Buffer, begin: number, end: number): number {
  let digits = 0;
  let point = -1;
  let i = begin;
  for (; i < end; i += 1) {
    const c = chunk[i] as number;
    if (c >= 48 && c <= 57) digits = digits * 10 + (c - 48);
    else if (c === 46 && point < 0) point = i;
    else break;
  }
  const plain = i - begin - (point < 0 ? 0 : 1);
  const next = i < end ? (chunk[i] as number) : 0;
  // Not '-', '+', 'e', 'E', '.' next: a plain decimal ends here.
  if (plain > 0 && plain <= 16 && digits < EXACT_INT && point !== begin && point !== i - 1 && next !== 45 && next !== 43 && next !== 101 && next !== 69 && next !== 46) {
    return exactDecimal(digits, point < 0 ? 0 : i - point - 1);
  }
  for (; i < end; i += 1) {
    const c = chunk[i] as number;
    // Digits, '.', '-', '+', 'e', 'E'.
    if (!((c >= 48 && c <= 57) || c === 46 || c === 45 || c === 43 || c === 101 || c === 69)) break;
  }
  if (i === begin || i - begin > 40) return NaN;
  const value = Number(chunk.toString('latin1', begin, i));
  return Number.isFinite(value) ? value : NaN;
}

/** What the byte search looks for besides the lines that name vats, kernel starts and crank-starts: their times, begin-blocks. */
export interface SearchFor {
  times: boolean;
  blocks: boolean;
}

/** What a search by `key` needs. */
function searchFor(key: SeekKey): SearchFor {
  return { times: key === 'time', blocks: key === 'blockHeight' };
}

/** A hit at `at` of `chunk` (which starts at byte `pos`) whose bytes before are `head`, not found in the chunk before (which overlaps this one). */
function isHit(chunk: Buffer, pos: number, at: number, head: Buffer, list: ReadonlyArray<number | Opener>): boolean {
  if (!bytesAt(chunk, at - head.length, chunk.length, head)) return false;
  const prev = list[list.length - 1];
  return prev === undefined || pos + at > (typeof prev === 'number' ? prev : prev.at);
}

/**
 * One chunk of the byte search, starting at byte `pos`, into `found`; the
 * next chunk must overlap it by SEARCH_OVERLAP bytes. `last`: no bytes
 * after it. Every place of `"create-vat"` and `"kernel-init-start"`, and
 * every crank-start and begin-block with its number (and, `times`, a
 * crank-start's time from its line's end: NaN when its line runs past the
 * chunk). One pass over the `-`s (nextCandidate); a number cut by the chunk's end
 * stops it there, and the next chunk (from before that hit) finds the
 * rest: each list takes only hits after its last.
 */
export function searchChunk(found: Found, chunk: Buffer, pos: number, last: boolean, want: SearchFor): void {
  for (let at = nextCandidate(chunk, 0); at >= 0; at = nextCandidate(chunk, at + 1)) {
    const next = chunk[at + 1];
    if (next === 0x73) {
      // `-s`: a kernel-init-start, a crank-start.
      if (!bytesAt(chunk, at, chunk.length, START_TAIL)) continue;
      if (isHit(chunk, pos, at, KERNEL_INIT_HEAD, found.starts)) found.starts.push(pos + at);
      else if (isHit(chunk, pos, at, CRANK_HEAD, found.cranks)) {
        const num = numberAfter(chunk, at, CRANK_NUM_AT, last);
        if (num === undefined) return;
        found.cranks.push(want.times ? { at: pos + at, num, time: timeAfter(chunk, at) } : { at: pos + at, num });
      }
    } else if (next === 0x76) {
      // `-v`: a create-vat.
      if (bytesAt(chunk, at, chunk.length, VAT_TAIL) && isHit(chunk, pos, at, CREATE_HEAD, found.creates)) found.creates.push(pos + at);
    } else if (next === 0x62 && want.blocks) {
      // `-b`: a begin-block.
      if (!bytesAt(chunk, at, chunk.length, BLOCK_TAIL) || !isHit(chunk, pos, at, BLOCK_HEAD, found.blocks)) continue;
      const num = numberAfter(chunk, at, BLOCK_HEIGHT_AT, last);
      if (num === undefined) return;
      found.blocks.push({ at: pos + at, num });
    }
  }
}

/**
 * The byte search (Buffer.indexOf, no parsing) over the bytes `lo` to `hi`
 * (the whole file unless told): searchChunk's hits whose place is in them.
 */
function search(file: File, key: SeekKey, lo = 0, hi = file.size): Found {
  const found: Found = { creates: [], starts: [], cranks: [], blocks: [] };
  const want = searchFor(key);
  const buf = Buffer.allocUnsafe(SEARCH_CHUNK);
  const from = Math.max(0, lo - SEARCH_OVERLAP);
  const to = Math.min(file.size, hi + SEARCH_OVERLAP);
  for (let pos = from; pos < to; ) {
    const chunk = file.read(pos, Math.min(SEARCH_CHUNK, to - pos), 'searched', buf);
    const last = pos + chunk.length >= file.size;
    searchChunk(found, chunk, pos, last, want);
    if (last || pos + chunk.length >= to) break;
    pos += chunk.length - SEARCH_OVERLAP;
  }
  if (lo === 0 && hi === file.size) return found;
  const inside = (at: number): boolean => at >= lo && at < hi;
  return {
    creates: found.creates.filter(inside),
    starts: found.starts.filter(inside),
    cranks: found.cranks.filter((o) => inside(o.at)),
    blocks: found.blocks.filter((o) => inside(o.at)),
  };
}

/**
 * The openers of the selection's key after the last kernel start (`floor`)
 * grow, and those with a number in the range are all in the bytes read,
 * and only those: so no crank or block of the selection is elsewhere (a
 * run again without its kernel start: slogs joined, a line lost).
 */
function checkOpeners(openers: readonly Opener[], floor: number, range: SeekRange, start: number, end: number): void {
  let last = -Infinity;
  for (const o of openers) {
    if (o.at < floor) continue;
    if (Number.isNaN(o.num)) throw new Refused(`an opener without its number at byte ${o.at}`);
    if (o.num <= last) throw new Refused(`${range.key} ${o.num} at byte ${o.at} after ${last}`);
    last = o.num;
    const selected = o.num >= range.from && o.num <= range.to;
    if (selected !== (o.at >= start && o.at < end)) throw new Refused(`${range.key} ${o.num} at byte ${o.at} is not where the search found the range`);
  }
}

/** The highest number of the openers before `floor` (-1: none). */
function highestBefore(openers: readonly Opener[], floor: number): number {
  let high = -1;
  for (const o of openers) {
    if (o.at >= floor) break;
    if (Number.isNaN(o.num)) throw new Refused(`an opener without its number at byte ${o.at}`);
    high = Math.max(high, o.num);
  }
  return high;
}

/** The whole lines holding `places`, once each, in order (one that is not a slog entry names no vat, read whole or not). */
function linesAt(file: File, places: readonly number[], limit: number): NamingLine[] {
  const out: NamingLine[] = [];
  let lastEnd = -1;
  for (const place of places) {
    if (place <= lastEnd) continue;
    const known = file.known?.(place);
    if (known !== undefined) {
      lastEnd = known.end;
      out.push(known.standIn ? known : { ...known, bytes: withoutCr(known.bytes) });
      continue;
    }
    const start = file.lineStart(place);
    const { end, bytes } = file.line(start, limit);
    lastEnd = end;
    out.push({ start, end, bytes, standIn: false });
  }
  return out;
}

/** Keys seen at the probes, in file order: they must not go down. */
function checkOrder(seen: Keyed[]): void {
  const sorted = [...seen].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i += 1) {
    const a = sorted[i - 1] as Keyed;
    const b = sorted[i] as Keyed;
    if (b.key < a.key) throw new Refused(`keys not in order (${a.key} at byte ${a.start}, ${b.key} at byte ${b.start})`);
  }
}

/**
 * Every line of the range is a slog entry, and its keyed lines are within
 * the selection (else the keys are not in order: a restart without its
 * kernel start, a damaged region).
 */
function checkRange(file: File, start: number, end: number, range: SeekRange, limit: number, ranBefore: Ran): void {
  for (const line of linesFrom(file, start, end, limit)) {
    if (line.bytes.length === 0) continue;
    const p = parsed(line.bytes.toString('utf8'), range.key);
    if (p === undefined) throw new Refused(`a line that is not a slog entry at byte ${line.start}`);
    if (p.key !== undefined && (p.key < range.from || p.key > range.to)) throw new Refused(`key ${p.key} at byte ${line.start} out of order`);
    if (p.crankNum !== undefined && p.crankNum <= ranBefore.crankNum) throw new Refused(`crank ${p.crankNum} at byte ${line.start} may have run before a restart`);
  }
}

/**
 * A time range's lines: the first, parsed whole, is a crank-start in the
 * times, and after a restart no crank in the range ran before it (the
 * lines holding `"crankNum"` parsed). The range's other crank-starts are
 * not read again: the pass selects each crank by its own time, as a whole
 * read does, so one whose time the byte search misread is left out (or
 * kept) by both alike; what a whole read selects outside the range is
 * decided by the byte search's times, which the binary search's probes
 * (parsed whole) confirmed at both of the range's ends. A line that is not
 * a slog entry is read by the pass as the whole read reads it (the plan
 * counts the lines before it: `linesBefore`).
 */
function checkTimeRange(file: File, start: number, end: number, range: SeekRange, limit: number, ranBefore: Ran): void {
  if (start > 0) {
    const p = parsed(file.line(start, limit).bytes.toString('utf8'), 'time');
    if (p?.type !== 'crank-start') throw new Refused(`the range's first line at byte ${start} is not a crank-start`);
    if (!(p.time !== undefined && p.time >= range.from && p.time < range.to)) throw new Refused(`a crank-start at byte ${start} outside the times`);
  }
  if (ranBefore.crankNum < 0) return;
  for (const line of linesFrom(file, start, end, limit)) {
    if (line.bytes.indexOf(CRANK_NUM) < 0) continue;
    const p = parsed(line.bytes.toString('utf8'), 'time');
    if (p?.crankNum !== undefined && p.crankNum <= ranBefore.crankNum) throw new Refused(`crank ${p.crankNum} at byte ${line.start} may have run before a restart`);
  }
}

/** How many lines begin before the line start `at` of the file at `path` (its `\n`s before it). Throws InputError. */
function countLinesBefore(path: string, at: number): number {
  const fd = openToRead(path);
  try {
    const file = File.of(fd);
    const buf = Buffer.allocUnsafe(SEARCH_CHUNK);
    let lines = 0;
    for (let pos = 0; pos < at; ) {
      const chunk = file.read(pos, Math.min(SEARCH_CHUNK, at - pos), 'searched', buf);
      if (chunk.length === 0) break;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, nl + 1)) lines += 1;
      pos += chunk.length;
    }
    return lines;
  } finally {
    closeSync(fd);
  }
}

/** The highest crank number and block height run before the last restart (-1: none, no restart). */
interface Ran {
  crankNum: number;
  blockHeight: number;
}

/**
 * Asked for an index of the plain slog at `path` (of `size` bytes) that has
 * none matching it, before its whole file is searched: one made now (the
 * caller may keep it: run/index-cache.ts), or undefined to search.
 */
export type WhenUnindexed = (path: string, size: number) => GzipIndex | undefined;

/**
 * The plan for reading `range` of the plain file at `path`, or why there is
 * none. `lineLimit`: lines longer than this are not read whole here (the
 * pass reads them as a stream): a plan that would have to is refused.
 * `unindexed`: asked for an index of a plain file that has none.
 */
export function planSeek(path: string, range: SeekRange, lineLimit: number, unindexed?: WhenUnindexed): SeekPlan | SeekRefusal {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { refused: 'cannot be opened' };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { refused: 'not a regular file' };
    const file = File.of(fd);
    const head = file.read(0, 2);
    if (head.length === 2 && head[0] === 0x1f && head[1] === 0x8b) return planGzipSeek(path, fd, range, lineLimit);
    return planPlainSeek(path, fd, file, range, lineLimit, unindexed);
  } catch (err) {
    if (err instanceof Refused) return err.note === undefined ? { refused: err.message } : { refused: err.message, note: err.note };
    if (err instanceof MemberTooBig) return { refused: err.message };
    throw err;
  } finally {
    closeSync(fd);
  }
}

/**
 * The plan for a plain file: with an index that matches it (`slogulate
 * index`: its pieces stand for a gzip file's members), the byte search's
 * findings are taken from the index, and only the pieces that may hold the
 * range are searched; else the whole file is searched, with a note when an
 * index was found that no longer matches it (a slog that grew since),
 * unless `unindexed` makes one then.
 */
function planPlainSeek(path: string, fd: number, file: File, range: SeekRange, limit: number, unindexed: WhenUnindexed | undefined): SeekPlan {
  const found = findIndex(path, fd);
  const index = 'index' in found ? found.index : unindexed?.(path, file.size);
  if (index === undefined) {
    let made: SeekPlan;
    try {
      made = plan(file, range, limit);
    } catch (err) {
      // Refused: the note still told, once.
      if (err instanceof Refused && 'stale' in found) throw new Refused(err.message, found.stale);
      throw err;
    }
    let before: number | undefined;
    made.linesBefore = () => (before ??= countLinesBefore(path, made.start));
    if ('stale' in found) made.note = found.stale;
    return made;
  }
  // The lines that name vats, from the index too.
  const made = plan(File.of(fd, knownLines(index)), range, limit, (f, r) => indexedFound(f, index, r), (key, beyond, lo, hi, seen) => narrowByMembers(index, key, beyond, lo, hi, seen));
  let before: number | undefined;
  made.linesBefore = () => (before ??= countPlainLinesBefore(path, index, made.start));
  return made;
}

/** How many lines begin before the line start `at` of a plain slog with an index: the lines before its piece, and those in it before `at`. Throws InputError. */
function countPlainLinesBefore(path: string, index: GzipIndex, at: number): number {
  let i = 0;
  while (i + 1 < index.members.length && (index.members[i + 1] as GzipIndex['members'][number]).from <= at) i += 1;
  const m = index.members[i];
  if (m === undefined) return 0;
  const fd = openToRead(path);
  try {
    const piece = Buffer.allocUnsafe(at - m.from);
    const got = readFullyAt(fd, piece, m.from);
    let lines = m.lines;
    for (let nl = piece.indexOf(10); nl >= 0 && nl < got; nl = piece.indexOf(10, nl + 1)) lines += 1;
    return lines;
  } finally {
    closeSync(fd);
  }
}

/** A gzip member bigger than this (decompressed) is not inflated whole for a seek. */
const MAX_MEMBER = 64 << 20;

/**
 * The plan for a gzip file with an index (gzip-index.ts): the same plan as
 * a plain file's, over its decompressed bytes (read a member at a time:
 * MemberBytes), the byte search's findings taken from the index
 * (indexedFound). Without a matching index, or with one member only (no
 * place to begin but the first), refused.
 */
function planGzipSeek(path: string, fd: number, range: SeekRange, limit: number): SeekPlan | SeekRefusal {
  const found = findIndex(path, fd);
  if ('none' in found) return { refused: GZIP_UNINDEXED };
  if ('stale' in found) return { refused: 'gzip whose index does not match it', note: found.stale };
  const { index } = found;
  if (index.members.length < 2) return { refused: 'gzip of one member: nothing to seek into' };
  const bytes = new MemberBytes(fd, path, index.members, MAX_MEMBER);
  const file = new File(bytes.size, (buf, pos) => bytes.readAt(buf, pos), knownLines(index));
  let made: SeekPlan;
  try {
    made = plan(file, range, limit, (f, r) => indexedFound(f, index, r), (key, beyond, lo, hi, seen) => narrowByMembers(index, key, beyond, lo, hi, seen));
  } catch (err) {
    // The members are not what the index says (its stamp matched): read as without it.
    if (err instanceof InputError) return { refused: 'gzip whose index does not match it', note: `${path}: its index ${found.path} is not used (${err.why}): run slogulate index ${path}` };
    throw err;
  }
  let before: number | undefined;
  made.linesBefore = () => (before ??= countGzipLinesBefore(path, index, made.start));
  return made;
}

/** The lines that name vats the index holds (createLines, and createNames' stand-ins): the one holding a place. */
function knownLines(index: GzipIndex): (place: number) => NamingLine | undefined {
  const lines: NamingLine[] = [
    ...index.createLines.map((l) => ({ start: l.start, end: l.start + l.bytes.length, bytes: l.bytes, standIn: false })),
    ...(index.createNames ?? []).map((l) => ({ ...l, standIn: true })),
  ].sort((a, b) => a.start - b.start);
  return (place) => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lines[mid] as NamingLine).start <= place) lo = mid;
      else hi = mid - 1;
    }
    const line = lines[lo];
    if (line === undefined || line.start > place || place >= line.end) return undefined;
    return line;
  };
}

/**
 * What the byte search would find in the whole of an indexed gzip slog,
 * as far as a plan for `range` needs it: the lines that name vats and the
 * kernel starts from the index; the openers (crank-starts, begin-blocks)
 * of each member that holds some of the range's and some not, or whose
 * numbers do not grow (times do not go up), or were not read, by the byte
 * search over that member (mustSearch); of every other member only its
 * first, last, highest and first unread opener per kernel run. The plan's
 * checks give on those what they give on every opener: the others lie
 * between them (their numbers grow, their times do not go down), and are
 * all in the range or all out of it, as they are.
 */
function indexedFound(file: File, index: GzipIndex, range: SeekRange): Found {
  const found: Found = { creates: index.creates, starts: index.starts, cranks: [], blocks: [] };
  for (const m of index.members) {
    const summaries = range.key === 'blockHeight' ? m.blocks : m.cranks;
    if (summaries.some((s) => mustSearch(s, range))) {
      const f = search(file, range.key, m.from, m.from + m.size);
      found.cranks.push(...f.cranks);
      found.blocks.push(...f.blocks);
      continue;
    }
    for (const s of m.cranks) found.cranks.push(...representatives(s));
    if (range.key === 'blockHeight') for (const s of m.blocks) found.blocks.push(...representatives(s));
  }
  return found;
}

/**
 * A binary search narrowed to the members between the last whose first
 * line's key is not beyond the bound and the first whose is: each of those
 * first lines is what a probe at its start would have found (it carries
 * the key, as parsed reads it: a block height only on the chain's entries),
 * and goes to `seen`, whose order the plan checks.
 */
function narrowByMembers(index: GzipIndex, key: SeekKey, beyond: (k: number) => boolean, lo: number, hi: number, seen: Keyed[]): { lo: number; hi: number } {
  for (const m of index.members) {
    const first = m.firstLine;
    if (first === undefined || first.at < lo || first.at >= hi) continue;
    const k = first[key];
    if (k === undefined || (key === 'blockHeight' && !first.type.startsWith('cosmic-swingset-'))) continue;
    seen.push({ start: first.at, end: first.at, key: k, type: first.type });
    if (beyond(k)) return { lo, hi: first.at };
    lo = first.at;
  }
  return { lo, hi };
}

/**
 * Whether the openers summed up in `s` are searched: they are out of order
 * or not all read, or some are in the range and some not. Those all in it
 * (inside one kernel run, in order, the first and the last in it) are not:
 * each lies between two of its representatives and is selected, as they are.
 */
function mustSearch(s: OpenerSummary, range: SeekRange): boolean {
  if (range.key === 'time') {
    if (!s.grow) return true;
    const first = s.first.time as number;
    const last = s.last.time as number;
    return first < range.to && last >= range.from && !(first >= range.from && last < range.to);
  }
  if (!s.up) return true;
  return s.first.num <= range.to && s.last.num >= range.from && !(s.first.num >= range.from && s.last.num <= range.to);
}

/** The openers standing for those summed up in `s`, in order, once each. */
function representatives(s: OpenerSummary): Opener[] {
  const out: IndexedOpener[] = [s.first];
  for (const o of [s.max, s.nan, s.last]) if (o !== undefined && !out.some((p) => p.at === o.at)) out.push(o);
  return out.sort((a, b) => a.at - b.at).map((o) => ({ ...o }));
}

/** How many lines begin before the line start `at` of the decompressed bytes of an indexed gzip slog. Throws InputError. */
function countGzipLinesBefore(path: string, index: GzipIndex, at: number): number {
  const fd = openToRead(path);
  try {
    const bytes = new MemberBytes(fd, path, index.members, Infinity);
    const i = bytes.memberAt(at);
    const m = index.members[i] as GzipIndex['members'][number];
    const b = bytes.member(i);
    let lines = m.lines;
    for (let nl = b.indexOf(10); nl >= 0 && nl < at - m.from; nl = b.indexOf(10, nl + 1)) lines += 1;
    return lines;
  } finally {
    closeSync(fd);
  }
}

/** The byte search's findings for a range of `key`: over the whole file, or from an index (indexedFound). */
type FindOpeners = (file: File, range: SeekRange) => Found;
const searchAll: FindOpeners = (file, range) => search(file, range.key);

function plan(file: File, range: SeekRange, limit: number, find: FindOpeners = searchAll, narrow?: Narrow): SeekPlan {
  // The head must be a slog entry: a file that is not one is told so by a full read.
  for (const line of linesFrom(file, 0, file.size, limit)) {
    if (parsed(line.bytes.toString('utf8'), range.key) === undefined) throw new Refused('its first line is not a slog entry');
    break;
  }
  if (range.key === 'time') return planByTime(file, range, limit, find, narrow);
  const { creates, starts, cranks, blocks } = find(file, range);
  // Several kernel runs: the range must be in the last, after what ran before its restart (run again, it is marked so).
  const floor = starts.length > 1 ? file.lineStart(starts[starts.length - 1] as number) : 0;
  const ran: Ran = { crankNum: highestBefore(cranks, floor), blockHeight: highestBefore(blocks, floor) };
  if (range.from <= (range.key === 'crankNum' ? ran.crankNum : ran.blockHeight)) throw new Refused(`${range.key} ${range.from} may have run before a restart`);
  const seen: Keyed[] = [];
  const first = firstBeyond(file, range.key, range.from, true, seen, limit, floor, narrow);
  let start = first?.start ?? file.size;
  if (first !== undefined) {
    const before = seen.some((k) => k.start < first.start && k.key < range.from);
    // Nothing keyed before it in a slog of one kernel run: read from the head (a slog that starts inside a crank or block reads as it does whole).
    if (!before && floor === 0) start = 0;
    else if (range.key === 'crankNum' && first.type !== 'crank-start') throw new Refused(`crank ${first.key} begins before byte ${first.start} (no crank-start)`);
    else if (range.key === 'blockHeight' && first.type !== 'cosmic-swingset-begin-block') throw new Refused(`block ${first.key} does not open with its begin-block at byte ${first.start}`);
  }
  const last = range.to === Infinity ? undefined : firstBeyond(file, range.key, range.to, false, seen, limit, floor, narrow);
  const end = Math.max(start, last?.start ?? file.size);
  checkOrder(seen);
  checkOpeners(range.key === 'crankNum' ? cranks : blocks, floor, range, start, end);
  if (end - start > file.size * MAX_RANGE_SHARE) throw new Refused('the range is more than a quarter of the file');
  checkRange(file, start, end, range, limit, ran);
  return planOf(file, creates, start, end, limit);
}

/** The plan for the bytes `start` to `end`: the lines that name vats outside them, and what was read. */
function planOf(file: File, creates: readonly number[], start: number, end: number, limit: number): SeekPlan {
  const naming = linesAt(file, creates.filter((p) => p < start || p >= end), limit);
  return {
    size: file.size,
    start,
    end,
    linesBefore: () => NaN,
    prelude: naming.filter((l) => l.start < start),
    postlude: naming.filter((l) => l.start >= end),
    searched: file.searched,
    probed: file.probed,
  };
}

/** The parsed line starting at the line start `at`. */
function lineAt(file: File, at: number, limit: number): ReturnType<typeof parsed> {
  return parsed(file.line(at, limit).bytes.toString('utf8'), 'time');
}

/** The crank-starts' times the byte search could not read (a line past its chunk): read from each line whole. */
function openerTimes(file: File, cranks: readonly Opener[], limit: number): void {
  for (const o of cranks) {
    if (!Number.isNaN(o.time)) continue;
    const time = lineAt(file, file.lineStart(o.at), limit)?.time;
    if (time === undefined) throw new Refused(`a crank-start without its time at byte ${o.at}`);
    o.time = time;
  }
}

/**
 * No crank but `crankNum`'s (undefined: none at all) has a line from `from`
 * to `to`: a crank whose crank-start was lost, or which the slog begins
 * inside, would be selected by its first entry's time, which only a read
 * of its lines knows.
 */
function onlyCrank(file: File, from: number, to: number, crankNum: number | undefined, limit: number): void {
  for (const line of linesFrom(file, from, to, limit)) {
    if (line.bytes.indexOf(CRANK_NUM) < 0) continue;
    const p = parsed(line.bytes.toString('utf8'), 'crankNum');
    if (p?.crankNum !== undefined && p.crankNum !== crankNum) throw new Refused(`crank ${p.crankNum} at byte ${line.start} without its crank-start before the selection`);
  }
}

/**
 * A time range (`--since`, `--until`): the cranks whose crank-start time is
 * in it. Times grow within a kernel run, so the first line at or after
 * `from` is found by a binary search over the lines' times, and the range
 * begins at the next crank-start (a crank that runs across `from` began
 * before it); it ends at the first crank-start at or after `to`. The byte
 * search reads every crank-start's time from its line's end: they must
 * grow after the last kernel start, be where the binary search found them,
 * and none before the last kernel start (executions a restart abandoned,
 * which a whole read selects by their time too) may be in the times.
 * The lines between the crank before the range and the range are checked
 * to be that crank's (no crank without its crank-start there).
 */
function planByTime(file: File, range: SeekRange, limit: number, find: FindOpeners, narrow?: Narrow): SeekPlan {
  const { creates, starts, cranks } = find(file, range);
  openerTimes(file, cranks, limit);
  const floor = starts.length > 1 ? file.lineStart(starts[starts.length - 1] as number) : 0;
  const ran: Ran = { crankNum: highestBefore(cranks, floor), blockHeight: -1 };
  const selected = (o: Opener): boolean => (o.time as number) >= range.from && (o.time as number) < range.to;
  const after = cranks.filter((o) => o.at >= floor);
  for (const o of cranks) {
    if (o.at >= floor) break;
    if (selected(o)) throw new Refused(`crank ${o.num} at byte ${o.at}, before a restart, began in the selection's times`);
  }
  for (let i = 1; i < after.length; i += 1) {
    const a = after[i - 1] as Opener;
    const b = after[i] as Opener;
    if ((b.time as number) < (a.time as number)) throw new Refused(`crank-start times not in order (${a.time} at byte ${a.at}, ${b.time} at byte ${b.at})`);
  }
  const seen: Keyed[] = [];
  /** The first crank-start at or after the first line whose time is at or after `bound`, found by the binary search (undefined: none). */
  const openerFrom = (bound: number, floorAt: number): Opener | undefined => {
    const line = firstBeyond(file, 'time', bound, true, seen, limit, floorAt, narrow);
    if (line === undefined) return undefined;
    return after.find((o) => o.at >= line.start);
  };
  const firstSelected = after.find((o) => (o.time as number) >= range.from);
  const first = range.from === -Infinity ? after[0] : openerFrom(range.from, floor);
  if (first !== firstSelected) throw new Refused('the crank-start times are not where the binary search found them');
  let start = first === undefined ? file.size : file.lineStart(first.at);
  const index = first === undefined ? after.length : after.indexOf(first);
  const previous = index > 0 ? (after[index - 1] as Opener) : undefined;
  if (previous !== undefined) onlyCrank(file, file.lineStart(previous.at), start, previous.num, limit);
  else if (floor === 0) start = 0; // the slog's first crank-start: read from its head (a crank it begins inside is read as a whole read reads it)
  else onlyCrank(file, floor, start, undefined, limit);
  const lastSelected = after.find((o) => (o.time as number) >= range.to);
  const last = range.to === Infinity ? undefined : openerFrom(range.to, start);
  if (last !== lastSelected) throw new Refused('the crank-start times are not where the binary search found them');
  const end = Math.max(start, last === undefined ? file.size : file.lineStart(last.at));
  checkOrder(seen);
  for (const o of after) {
    if (selected(o) !== (o.at >= start && o.at < end)) throw new Refused(`crank ${o.num} at byte ${o.at} is not where the search found the range`);
  }
  checkTimeRange(file, start, end, range, limit, ran);
  return planOf(file, creates, start, end, limit);
}

/**
 * The bytes `start` to `end` of the file at `path` (of a gzip file with an
 * index, its decompressed bytes), as a source: read synchronously, in
 * order. Throws InputError.
 */
export function openRange(path: string, start: number, end: number): SlogSource {
  const fd = openToRead(path);
  const head = Buffer.alloc(2);
  if (readFullyAt(fd, head, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b) return gzipRange(path, fd, start, end);
  let read = 0;
  function* chunks(): Generator<Buffer> {
    const buf = Buffer.allocUnsafe(RANGE_CHUNK);
    try {
      for (let pos = start; pos < end; ) {
        let n: number;
        try {
          n = readSync(fd, buf, 0, Math.min(RANGE_CHUNK, end - pos), pos);
        } catch (err) {
          throw new InputError(path, describe(err));
        }
        if (n === 0) return;
        pos += n;
        read += n;
        yield buf.subarray(0, n);
      }
    } finally {
      closeSync(fd);
    }
  }
  return { name: path, chunks, rawBytesRead: () => read, rawSize: end - start, gzipped: false };
}

/** openRange of a gzip file open at `fd`, through its index (which the plan used). Its sizes are decompressed bytes. */
function gzipRange(path: string, fd: number, start: number, end: number): SlogSource {
  let found: ReturnType<typeof findIndex>;
  try {
    found = findIndex(path, fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!('index' in found)) {
    closeSync(fd);
    throw new InputError(path, 'its index changed while it was read');
  }
  const bytes = new MemberBytes(fd, path, found.index.members, Infinity);
  let read = 0;
  function* chunks(): Generator<Buffer> {
    try {
      for (const piece of bytes.range(start, end)) {
        read += piece.length;
        yield piece;
      }
    } finally {
      closeSync(fd);
    }
  }
  return { name: path, chunks, rawBytesRead: () => read, rawSize: end - start, gzipped: true };
}
