/**
 * Makes a gzipped slog's index (gzip-index.ts) from its members' bytes as
 * they are inflated (`slogulate index`) or compressed (`slogulate
 * recompress`), in one pass: seek.ts's byte search over the decompressed
 * bytes, in the same overlapping chunks as over a plain file, its hits
 * summed up per member and kernel run; the lines counted; each member's
 * first line read. Memory: a search chunk, and the summaries.
 */
import type { FirstLine, GzipIndex, IndexedMember, IndexedOpener, OpenerSummary, SlogStamp } from './gzip-index.js';
import { INDEX_VERSION } from './gzip-index.js';
import type { Member, MemberSink } from './gzip-members.js';
import { COUNT_BYTES, NewlineCounter } from './newline-count.js';
import { namingStandIn } from './naming-line.js';
import { withoutCr } from './lines.js';
import { lineFields, SEARCH_OVERLAP, searchChunk, timeAfter, type Found, type Opener } from './seek.js';

/** The byte search's chunk (as seek.ts's). */
const CHUNK = COUNT_BYTES;
/** The lines that name vats kept in the index: each at most this long, all at most this much. */
const CREATE_LINE_MAX = 64 << 10;
const CREATE_LINES_MAX = 8 << 20;
/** A line of a `"create-vat"` longer than this (running past its search chunk) gets no stand-in: a seek reads it. */
const LONG_LINE_MAX = 64 << 20;
/** A member's first line is read up to this many bytes (a longer one: not read). */
const FIRST_LINE_MAX = 64 << 10;

/** Sums up openers as they come, in order. */
class Summer {
  private s: OpenerSummary | undefined;

  constructor(readonly withTimes: boolean) {}

  add(o: IndexedOpener): void {
    const s = this.s;
    const known = !Number.isNaN(o.num);
    const timed = this.withTimes && o.time !== undefined && !Number.isNaN(o.time);
    if (s === undefined) {
      this.s = { n: 1, first: o, last: o, max: o, nan: known ? undefined : o, up: known, grow: timed };
      return;
    }
    s.n += 1;
    if (!(o.num > s.last.num)) s.up = false;
    if (!timed || !((o.time as number) >= (s.last.time as number))) s.grow = false;
    if (!known) s.nan ??= o;
    if (o.num > s.max.num) s.max = o;
    s.last = o;
  }

  take(): OpenerSummary | undefined {
    const s = this.s;
    this.s = undefined;
    return s;
  }
}

/** A member being indexed: its summaries per kernel run. */
interface Open {
  member: IndexedMember;
  cranks: Summer;
  blocks: Summer;
  /** The kernel run its summers are of (kernel starts before them). */
  cranksRun: number;
  blocksRun: number;
}

/**
 * Builds the index from a MemberSink's calls (start, data, end of each
 * member, in order), then `finish` with the slog's stamp.
 */
export class IndexBuilder implements MemberSink {
  private readonly found: Found = { creates: [], starts: [], cranks: [], blocks: [] };
  private readonly members: IndexedMember[] = [];
  private readonly createLines: GzipIndex['createLines'] = [];
  private readonly createNames: NonNullable<GzipIndex['createNames']> = [];
  private createLinesBytes = 0;
  /** Where the last line kept (or passed) of a `"create-vat"` ends: later hits before it are in it. */
  private createLineEnd = -1;
  /** A line of a `"create-vat"` that runs past its search chunk: where it starts, its bytes so far (none once past LONG_LINE_MAX), and how far they reach. */
  private longCreate: { start: number; pieces: Buffer[] | undefined; length: number; through: number } | undefined;
  private createsSeen = 0;
  private open: Open[] = [];
  /** The search chunk being filled (the newline counter's buffer), where it starts in the slog, and how full it is. */
  private readonly counter = new NewlineCounter();
  private readonly buf = this.counter.buf;
  private pos = 0;
  private fill = 0;
  private lines = 0;
  /** Crank-starts whose time was not read yet (their line runs past the chunk): fed in order once it is. */
  private queue: Opener[] = [];
  private cranksFed = 0;
  private blocksFed = 0;
  /** The slog's byte count, and whether its last byte was a newline. */
  private size = 0;
  private lastNewline = true;
  /** The first line of the newest member, being read. */
  private first: { member: IndexedMember; started: boolean; at: number; bytes: Buffer[]; length: number } | undefined;

  start(at: number, from: number): void {
    const member: IndexedMember = { at, bytes: 0, from, size: 0, lines: this.lines, firstLine: undefined, cranks: [], blocks: [] };
    this.members.push(member);
    this.open.push({ member, cranks: new Summer(true), blocks: new Summer(false), cranksRun: -1, blocksRun: -1 });
    this.first = { member, started: this.lastNewline, at: from, bytes: [], length: 0 };
  }

  data(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.first !== undefined) this.readFirst(chunk);
    this.size += chunk.length;
    this.lastNewline = chunk[chunk.length - 1] === 10;
    for (let at = 0; at < chunk.length; ) {
      const n = chunk.copy(this.buf, this.fill, at);
      // Its newlines counted where they were copied to (the counter's own buffer).
      this.lines += this.counter.count(this.buf.subarray(this.fill, this.fill + n));
      this.fill += n;
      at += n;
      if (this.fill === CHUNK) this.searchFull();
    }
  }

  end(member: Member): void {
    const m = this.members[this.members.length - 1] as IndexedMember;
    m.bytes = member.bytes;
    m.size = member.size;
  }

  /** The index, once every member was told. */
  finish(slog: SlogStamp): GzipIndex {
    const chunk = this.buf.subarray(0, this.fill);
    searchChunk(this.found, chunk, this.pos, true, { times: true, blocks: true });
    this.feed(chunk, true);
    if (this.first !== undefined) this.firstDone();
    for (const o of this.open) this.close(o);
    this.open = [];
    return { version: INDEX_VERSION, slog, size: this.size, lines: this.lines, creates: this.found.creates, starts: this.found.starts, createLines: this.createLines, createNames: this.createNames, members: this.members };
  }

  /** The chunk is full: searched, and its last SEARCH_OVERLAP bytes begin the next. */
  private searchFull(): void {
    searchChunk(this.found, this.buf, this.pos, false, { times: true, blocks: true });
    this.feed(this.buf, false);
    this.buf.copy(this.buf, 0, CHUNK - SEARCH_OVERLAP, CHUNK);
    this.pos += CHUNK - SEARCH_OVERLAP;
    this.fill = SEARCH_OVERLAP;
  }

  /** The times of queued crank-starts whose line ends in this chunk (`last`: none will come). */
  private resolveTimes(chunk: Buffer, last: boolean): void {
    for (const o of this.queue) {
      if (!Number.isNaN(o.time)) continue;
      const from = Math.max(0, o.at - this.pos);
      if (from >= chunk.length) continue;
      if (chunk.indexOf(10, from) >= 0 || last) o.time = timeAfter(chunk, from);
      // Still NaN with its newline here: it has no time (the summary says so).
      if (Number.isNaN(o.time) && (chunk.indexOf(10, from) >= 0 || last)) o.time = Number.NEGATIVE_INFINITY;
    }
  }

  /** The openers found so far in `chunk` to their members' summers, in order; crank-starts only once their time is known (`all`: the last chunk, as they are). */
  private feed(chunk: Buffer, all: boolean): void {
    const { cranks, blocks } = this.found;
    this.keepCreateLines(chunk, all);
    for (; this.cranksFed < cranks.length; this.cranksFed += 1) this.queue.push(cranks[this.cranksFed] as Opener);
    this.resolveTimes(chunk, all);
    let i = 0;
    for (; i < this.queue.length; i += 1) {
      const o = this.queue[i] as Opener;
      if (Number.isNaN(o.time) && !all) break;
      if (o.time === Number.NEGATIVE_INFINITY) o.time = NaN;
      this.add(o, 'cranks');
    }
    this.queue = this.queue.slice(i);
    for (; this.blocksFed < blocks.length; this.blocksFed += 1) this.add(blocks[this.blocksFed] as Opener, 'blocks');
    // Lists kept only as far as the search needs them (its last hit, to tell a hit from the same one in the overlap).
    cranks.splice(0, this.cranksFed - 1);
    this.cranksFed = Math.min(this.cranksFed, 1);
    blocks.splice(0, this.blocksFed - 1);
    this.blocksFed = Math.min(this.blocksFed, 1);
    this.closeBefore(Math.min(this.queue[0]?.at ?? Infinity, this.pos + this.fill - SEARCH_OVERLAP));
  }

  /**
   * The lines of the `"create-vat"`s found in `chunk` (`last`: the slog's
   * end), each once: kept whole when short enough, else as a stand-in
   * (naming-line.ts). A line that runs past the chunk is gathered from the
   * chunks after (up to LONG_LINE_MAX). A line whose first hit comes after
   * the chunk it begins in is not kept (a seek reads it).
   */
  private keepCreateLines(chunk: Buffer, last: boolean): void {
    const { creates } = this.found;
    if (this.longCreate !== undefined) this.continueLongCreate(chunk, last);
    for (; this.createsSeen < creates.length; this.createsSeen += 1) {
      const at = creates[this.createsSeen] as number;
      // In the line gathered (or kept) already.
      if (this.longCreate !== undefined || at <= this.createLineEnd) continue;
      const rel = at - this.pos;
      const before = chunk.lastIndexOf(10, rel);
      if (before < 0 && this.pos > 0) continue;
      const start = this.pos + before + 1;
      const end = chunk.indexOf(10, rel);
      if (end < 0 && !last) {
        const piece = chunk.subarray(before + 1);
        this.longCreate = { start, pieces: [Buffer.from(piece)], length: piece.length, through: this.pos + chunk.length };
        continue;
      }
      const to = end < 0 ? chunk.length : end;
      this.keepCreateLine(start, chunk.subarray(before + 1, to));
    }
  }

  /** The long line being gathered: its bytes in `chunk` (after the overlap with the chunk before), kept once its newline (or the slog's end) comes. */
  private continueLongCreate(chunk: Buffer, last: boolean): void {
    const long = this.longCreate as NonNullable<IndexBuilder['longCreate']>;
    const from = long.through - this.pos;
    const nl = chunk.indexOf(10, from);
    const to = nl < 0 ? chunk.length : nl;
    long.length += to - from;
    long.through = this.pos + to;
    if (long.pieces !== undefined && long.length <= LONG_LINE_MAX) long.pieces.push(Buffer.from(chunk.subarray(from, to)));
    else long.pieces = undefined;
    if (nl < 0 && !last) return;
    this.longCreate = undefined;
    if (long.pieces !== undefined) this.keepCreateLine(long.start, Buffer.concat(long.pieces, long.length));
    else this.createLineEnd = long.start + long.length;
  }

  /** A whole line of a `"create-vat"` (starting at slog byte `start`, without its newline): kept, or its stand-in, while the index has room. */
  private keepCreateLine(start: number, line: Buffer): void {
    this.createLineEnd = start + line.length;
    if (line.length <= CREATE_LINE_MAX) {
      if (this.createLinesBytes + line.length > CREATE_LINES_MAX) return;
      this.createLines.push({ start, bytes: Buffer.from(line) });
      this.createLinesBytes += line.length;
      return;
    }
    const standIn = namingStandIn(withoutCr(line));
    if (standIn === undefined || standIn.length > CREATE_LINE_MAX || this.createLinesBytes + standIn.length > CREATE_LINES_MAX) return;
    this.createNames.push({ start, end: start + line.length, bytes: standIn });
    this.createLinesBytes += standIn.length;
  }

  /** An opener to the summer of its member and kernel run. */
  private add(o: Opener, kind: 'cranks' | 'blocks'): void {
    const open = this.openAt(o.at);
    if (open === undefined) return;
    let run = 0;
    for (const s of this.found.starts) if (s < o.at) run += 1;
    const runKey = kind === 'cranks' ? 'cranksRun' : 'blocksRun';
    if (open[runKey] !== run) {
      const done = open[kind].take();
      if (done !== undefined) open.member[kind].push(done);
      open[runKey] = run;
    }
    // The opener itself (a crank-start's with its time read, a begin-block's without one).
    open[kind].add(o);
  }

  /** The open member holding slog byte `at`. */
  private openAt(at: number): Open | undefined {
    for (let i = this.open.length - 1; i >= 0; i -= 1) {
      const o = this.open[i] as Open;
      if (o.member.from <= at) return o;
    }
    return undefined;
  }

  /** Members that end before `at` (no opener to come is theirs): their summaries closed. */
  private closeBefore(at: number): void {
    while (this.open.length > 1) {
      const next = this.open[1] as Open;
      if (next.member.from > at) return;
      this.close(this.open.shift() as Open);
    }
  }

  private close(o: Open): void {
    const c = o.cranks.take();
    if (c !== undefined) o.member.cranks.push(c);
    const b = o.blocks.take();
    if (b !== undefined) o.member.blocks.push(b);
  }

  /** The newest member's first line: from its first line start, up to its newline. */
  private readFirst(chunk: Buffer): void {
    const f = this.first as NonNullable<IndexBuilder['first']>;
    let from = 0;
    if (!f.started) {
      const nl = chunk.indexOf(10);
      if (nl < 0) return;
      f.started = true;
      from = nl + 1;
      f.at = this.size + from;
    }
    const nl = chunk.indexOf(10, from);
    const piece = chunk.subarray(from, nl < 0 ? chunk.length : nl);
    if (f.length + piece.length <= FIRST_LINE_MAX) f.bytes.push(Buffer.from(piece));
    f.length += piece.length;
    if (nl >= 0) this.firstDone();
  }

  private firstDone(): void {
    const f = this.first as NonNullable<IndexBuilder['first']>;
    this.first = undefined;
    if (!f.started || f.length === 0 || f.length > FIRST_LINE_MAX) return;
    f.member.firstLine = firstLineOf(Buffer.concat(f.bytes).toString('utf8'), f.at);
  }
}

/** A line's crank, block and time, where it is a slog entry (seek.ts lineFields) that has them. */
function firstLineOf(text: string, at: number): FirstLine | undefined {
  const fields = lineFields(text);
  if (fields === undefined) return undefined;
  const out: FirstLine = { at, type: fields.type };
  if (fields.crankNum !== undefined) out.crankNum = fields.crankNum;
  if (fields.blockHeight !== undefined) out.blockHeight = fields.blockHeight;
  if (fields.time !== undefined) out.time = fields.time;
  return out;
}
