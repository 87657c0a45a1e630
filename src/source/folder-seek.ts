/**
 * Seeking in a folder of slog files (per-block files as a chain node
 * writes them, or any folder read as one slog, source/inputs.ts): which of
 * its files a selection of blocks, cranks or times must read (issue 30,
 * item 2). Each file is looked at by a byte search (Buffer.indexOf over its
 * lines, gzip inflated as it streams; only the lines the search hits are
 * parsed: crank-starts, block openers, kernel starts), and says, from what
 * it holds, not from its name, whether it holds a crank the selection can
 * take:
 *
 * - by blocks: a file whose first line opens a block (begin-block or an
 *   upgrade's start, of height H) and that opens no other (no second
 *   opener, bootstrap, cosmic-swingset-init or kernel start), holds cranks
 *   of block H only (or of none, after H's end); the bootstrap file (its
 *   first line the bootstrap block's start, no other opener) those of the
 *   bootstrap block, whose height is the last `cosmic-swingset-init`'s
 *   before it, else its first run's;
 * - by cranks or times: the numbers (times) of its crank-starts;
 * - a file with a chain line of a selected height (`blockHeight`) is read
 *   (`extract` keeps a selected block's chain lines, cranks or not);
 * - a file without a crank number holds no crank; a file whose range is
 *   not known so (a crank number before its first crank-start: a crank
 *   begun in the file before; a crank-start without its number or time;
 *   another opener in a block's file; gzip cut short, whose warning a
 *   whole read prints) may hold one.
 *
 * The files read are the run from the first file that may hold a selected
 * crank to the last (the folder's order, whatever the files' names say: a
 * file out of order widens the run to read). The run starts at the
 * folder's first file instead when what comes before it could change what
 * the model makes of it: its first file does not open a block (or opens
 * the bootstrap block after a cosmic-swingset-init), a crank left open
 * before it, a kernel start in it (a restart read without the first start
 * would not be one), or a kernel start before it where cranks (blocks) of
 * the same numbers could have run (they would be marked `again`). It ends
 * at the folder's last file when its last file leaves a crank open. The
 * lines that name vats (`"create-vat"`) of the files not read are handed
 * over, before and after the run, as a plain file's seek hands them
 * (source/seek.ts).
 *
 * A plan is refused (every file is read) when it would read them all, when
 * a file not read holds a line over the big-line limit, or one the search
 * must parse and cannot. Preconditions: the files are regular files not
 * written to meanwhile.
 */
import { batchText, readLines, type LineBatch } from './lines.js';
import { InputEndsEarly, openPath } from './open.js';
import type { SeekRange } from './seek.js';

/** The files a selection reads, and the lines of the others the model needs. */
export interface FolderPlan {
  /** The files to read, in the folder's order: a run of its files. */
  files: string[];
  /** How many of the folder's files are not read. */
  skipped: number;
  /** Lines that name vats in the files before the run and after it, in order (without their newline). */
  prelude: Buffer[];
  postlude: Buffer[];
  /** Bytes the search went over (inflated). */
  searched: number;
}

/** Why a folder's seek was not made: every file is read. */
export interface FolderRefusal {
  refused: string;
}

/** Whether a file holds a crank the selection takes: no, yes, or not known (it is read). */
type Holds = 'no' | 'yes' | 'unknown';

/** What the byte search learns of one file. */
interface FileFacts {
  path: string;
  /** The first line's entry type, and its blockHeight. */
  firstType: string | undefined;
  firstHeight: number | undefined;
  /** Block openers (begin-block, bootstrap-block-start, upgrade-start), cosmic-swingset-inits and kernel starts. */
  openers: number;
  inits: number;
  kernelStarts: number;
  /** The last cosmic-swingset-init's blockHeight, and the first run-start's. */
  initHeight: number | undefined;
  firstRunHeight: number | undefined;
  /** Any crank number; one before the first crank-start (a crank begun before the file). */
  cranky: boolean;
  continues: boolean;
  /** Crank-starts: their lowest and highest number, any in the selection, any whose number (time) is not read. */
  lowCrank: number;
  highCrank: number;
  lowBlock: number;
  highBlock: number;
  selects: boolean;
  unknownCrank: boolean;
  /** The last crank-start after the last crank-finish: a crank open at the file's end. */
  openAtEnd: boolean;
  /** Lines that name vats. */
  creates: Buffer[];
  /** A line the search had to parse that is not a slog entry. */
  damaged: boolean;
  /** A chain line of a selected block height (by blocks: `extract` keeps those). */
  chainSelected: boolean;
}

const CRANK_NUM = Buffer.from('"crankNum"');
const CREATE_VAT = Buffer.from('"create-vat"');
const CRANK_START = Buffer.from('"crank-start"');
const CRANK_FINISH = Buffer.from('"crank-finish"');
const KERNEL_START = Buffer.from('"kernel-init-start"');
const CHAIN = Buffer.from('"cosmic-swingset-');

const OPENERS = new Set(['cosmic-swingset-begin-block', 'cosmic-swingset-bootstrap-block-start', 'cosmic-swingset-upgrade-start']);

/** The entry of a line's text: its fields, or undefined when it is not a slog entry. */
function entryOf(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || typeof (value as { type?: unknown }).type !== 'string') return undefined;
  return value as Record<string, unknown>;
}

const numberOf = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The lines of a batch holding `needle`, by their index in its spans (each once, in order). */
function linesWith(batch: LineBatch, needle: Buffer): number[] {
  const { bytes, spans } = batch;
  const out: number[] = [];
  const count = spans.length / 2;
  if (count === 0) return out;
  const end = spans[spans.length - 1] as number;
  let line = 0;
  let h = bytes.indexOf(needle, spans[0] as number);
  while (h >= 0 && h < end) {
    while (line < count && (spans[line * 2 + 1] as number) < h + needle.length) line += 1;
    if (line >= count) break;
    const start = spans[line * 2] as number;
    if (start > h) {
      // Between lines (a `\r`): look on from the next line's start.
      h = bytes.indexOf(needle, start);
      continue;
    }
    out.push(line);
    h = bytes.indexOf(needle, spans[line * 2 + 1] as number);
    line += 1;
  }
  return out;
}

class Refused extends Error {}

/** Looks at one file (see above): what it holds of `range`. `lineLimit`: a longer line is not read here. */
async function factsOf(path: string, range: SeekRange, lineLimit: number, counted: { searched: number }): Promise<FileFacts> {
  const f: FileFacts = {
    path,
    firstType: undefined,
    firstHeight: undefined,
    openers: 0,
    inits: 0,
    kernelStarts: 0,
    initHeight: undefined,
    firstRunHeight: undefined,
    cranky: false,
    continues: false,
    lowCrank: Infinity,
    highCrank: -Infinity,
    lowBlock: Infinity,
    highBlock: -Infinity,
    selects: false,
    unknownCrank: false,
    openAtEnd: false,
    creates: [],
    damaged: false,
    chainSelected: false,
  };
  const source = await openPath(path);
  try {
    await searchLines(f, source.chunks(), range, lineLimit, counted);
  } catch (err) {
    // Gzip cut short (a file still being written): what it holds is not known whole; it is read (the pass warns of it as a whole read does).
    if (!(err instanceof InputEndsEarly)) throw err;
    f.damaged = true;
  }
  return f;
}

/** The byte search over one file's lines, into `f` (see factsOf). */
async function searchLines(f: FileFacts, chunks: AsyncIterable<Buffer> | Iterable<Buffer>, range: SeekRange, lineLimit: number, counted: { searched: number }): Promise<void> {
  const { path } = f;
  let started = false;
  let lastStart = -1;
  let lastFinish = -1;
  let place = 0;
  for await (const batch of readLines(chunks, { bigLineBytes: lineLimit })) {
    if (batch.big) throw new Refused(`a line of more than ${lineLimit} bytes in ${path}`);
    const count = batch.spans.length / 2;
    counted.searched += batchBytesOf(batch);
    const entry = (i: number): Record<string, unknown> | undefined => {
      const e = entryOf(batchText(batch, batch.spans[i * 2] as number, batch.spans[i * 2 + 1] as number));
      if (e === undefined) f.damaged = true;
      return e;
    };
    let first = 0;
    if (f.firstType === undefined) {
      // The first line that is not blank.
      while (first < count && batch.spans[first * 2] === batch.spans[first * 2 + 1]) first += 1;
      if (first < count) {
        const e = entry(first);
        f.firstType = typeof e?.type === 'string' ? e.type : '';
        f.firstHeight = numberOf(e?.blockHeight);
      }
    }
    const nums = linesWith(batch, CRANK_NUM);
    const starts = linesWith(batch, CRANK_START);
    if (nums.length > 0) f.cranky = true;
    // A crank number before the file's first crank-start: a crank begun before the file.
    if (!started && nums.length > 0 && (starts.length === 0 || (nums[0] as number) < (starts[0] as number))) f.continues = true;
    for (const i of starts) {
      const e = entry(i);
      if (e?.type !== 'crank-start') continue;
      started = true;
      lastStart = place + i;
      const num = numberOf(e.crankNum);
      if (num !== undefined) {
        f.lowCrank = Math.min(f.lowCrank, num);
        f.highCrank = Math.max(f.highCrank, num);
      }
      const key = range.key === 'crankNum' ? num : range.key === 'time' ? numberOf(e.time) : undefined;
      if (range.key === 'blockHeight') continue;
      if (key === undefined) f.unknownCrank = true;
      else if (range.key === 'crankNum' ? key >= range.from && key <= range.to : key >= range.from && key < range.to) f.selects = true;
    }
    const finishes = linesWith(batch, CRANK_FINISH);
    if (finishes.length > 0) lastFinish = place + (finishes[finishes.length - 1] as number);
    for (const i of linesWith(batch, KERNEL_START)) if (entry(i)?.type === 'kernel-init-start') f.kernelStarts += 1;
    for (const i of linesWith(batch, CHAIN)) {
      const e = entry(i);
      const type = e?.type as string | undefined;
      const height = numberOf(e?.blockHeight);
      if (range.key === 'blockHeight' && height !== undefined && height >= range.from && height <= range.to) f.chainSelected = true;
      if (type === 'cosmic-swingset-init') {
        f.inits += 1;
        f.initHeight = numberOf(e?.blockHeight);
      } else if (type !== undefined && OPENERS.has(type)) {
        f.openers += 1;
        const h = numberOf(e?.blockHeight);
        if (h !== undefined) {
          f.lowBlock = Math.min(f.lowBlock, h);
          f.highBlock = Math.max(f.highBlock, h);
        }
      } else if (type === 'cosmic-swingset-run-start' && f.firstRunHeight === undefined) f.firstRunHeight = numberOf(e?.blockHeight);
    }
    for (const i of linesWith(batch, CREATE_VAT)) {
      f.creates.push(Buffer.from(batch.bytes.subarray(batch.spans[i * 2] as number, batch.spans[i * 2 + 1] as number)));
    }
    place += count;
  }
  f.openAtEnd = lastStart > lastFinish;
}

function batchBytesOf(batch: LineBatch): number {
  const { spans } = batch;
  return spans.length === 0 ? 0 : (spans[spans.length - 1] as number) - (spans[0] as number);
}

/** The bootstrap block's height for a file that opens it: the last cosmic-swingset-init's before it, else its first run's. */
function bootstrapHeight(files: readonly FileFacts[], at: number): number | undefined {
  for (let i = at - 1; i >= 0; i -= 1) if ((files[i] as FileFacts).initHeight !== undefined) return (files[i] as FileFacts).initHeight;
  return (files[at] as FileFacts).firstRunHeight;
}

/** Whether file `at` holds a crank of the selection (see the top of the file). */
function holds(files: readonly FileFacts[], at: number, range: SeekRange): Holds {
  const f = files[at] as FileFacts;
  if (f.damaged) return 'unknown';
  // A block's chain lines, which `extract` keeps, even without a crank.
  if (f.chainSelected) return 'yes';
  if (!f.cranky) return 'no';
  if (f.continues) return 'unknown';
  if (range.key !== 'blockHeight') return f.unknownCrank ? 'unknown' : f.selects ? 'yes' : 'no';
  if (f.openers !== 1 || f.inits > 0 || f.kernelStarts > 0) return 'unknown';
  let height: number | undefined;
  if (f.firstType === 'cosmic-swingset-begin-block' || f.firstType === 'cosmic-swingset-upgrade-start') height = f.firstHeight;
  else if (f.firstType === 'cosmic-swingset-bootstrap-block-start') height = bootstrapHeight(files, at);
  if (height === undefined) return 'unknown';
  return height >= range.from && height <= range.to ? 'yes' : 'no';
}

/** May the run of files from `first` be read without the files before it (see the top of the file)? */
function standsAlone(files: readonly FileFacts[], first: number, last: number): boolean {
  if (first === 0) return true;
  const f = files[first] as FileFacts;
  const before = files.slice(0, first);
  const run = files.slice(first, last + 1);
  if (f.firstType === 'cosmic-swingset-bootstrap-block-start') {
    if (before.some((b) => b.inits > 0)) return false;
  } else if (f.firstType !== 'cosmic-swingset-begin-block' && f.firstType !== 'cosmic-swingset-upgrade-start') return false;
  if ((files[first - 1] as FileFacts).openAtEnd) return false;
  if (run.some((r) => r.kernelStarts > 0)) return false;
  if (before.some((b) => b.kernelStarts > 0)) {
    // Loops, not Math.max(...): a folder may hold more files than a call takes arguments.
    const max = (pick: (x: FileFacts) => number): number => before.reduce((m, x) => Math.max(m, pick(x)), -Infinity);
    const min = (pick: (x: FileFacts) => number): number => run.reduce((m, x) => Math.min(m, pick(x)), Infinity);
    if (max((b) => b.highCrank) >= min((r) => r.lowCrank)) return false;
    if (max((b) => b.highBlock) >= min((r) => r.lowBlock)) return false;
  }
  return true;
}

/**
 * The plan for reading `range` of the folder whose files, in the order
 * they are read, are `paths`, or why there is none. `lineLimit`: lines
 * longer than this are not read whole here (a plan that must is refused).
 * Throws InputError when a file cannot be read (the pass would too).
 */
export async function planFolderSeek(paths: readonly string[], range: SeekRange, lineLimit: number): Promise<FolderPlan | FolderRefusal> {
  const counted = { searched: 0 };
  const files: FileFacts[] = [];
  try {
    for (const path of paths) files.push(await factsOf(path, range, lineLimit, counted));
  } catch (err) {
    if (err instanceof Refused) return { refused: err.message };
    throw err;
  }
  const may = files.map((_, i) => holds(files, i, range) !== 'no');
  let first = may.indexOf(true);
  let last = may.lastIndexOf(true);
  if (first < 0) {
    // Nothing selected: no file need be read but for what names vats.
    return { files: [], skipped: files.length, prelude: files.flatMap((f) => f.creates), postlude: [], searched: counted.searched };
  }
  if (!standsAlone(files, first, last)) first = 0;
  // A crank open at the run's end may go on in the next file: read on.
  if ((files[last] as FileFacts).openAtEnd) last = files.length - 1;
  if (first === 0 && last === files.length - 1) return { refused: 'the selection may be in every file' };
  return {
    files: paths.slice(first, last + 1),
    skipped: files.length - (last - first + 1),
    prelude: files.slice(0, first).flatMap((f) => f.creates),
    postlude: files.slice(last + 1).flatMap((f) => f.creates),
    searched: counted.searched,
  };
}
