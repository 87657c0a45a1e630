/**
 * A line of a batch to an entry: the byte reader first (fast-reader.ts),
 * the plain path for any line it does not take (plain-reader.ts), or the
 * plain path alone (`fast: false`: SLOGULATE_FAST=0, the reference the fast
 * path is checked against).
 *
 * A create-vat line's source bundle (about a megabyte of base64 no consumer
 * reads, in the line's middle) is cut out of its bytes before the rest is
 * decoded and parsed, when it is where the kernel writes it.
 *
 * A line over the big-line threshold (source/lines.ts) is read as a stream
 * of tokens instead (`readBig`, big-line.ts), whatever the path.
 *
 * The reader counts the lines it read each way (`linesRead`): what a pass
 * reports as the way its lines were read, and what the tests check.
 */
import { bytesAt } from '../source/bytes-at.js';
import { batchText, lineText, type BigLine, type LineBatch } from '../source/lines.js';
import { readBigLine, type BigLineOptions } from './big-line.js';
import type { BigTextScope } from './big-string.js';
import { checkedEntry } from './checked-entries.js';
import type { LineFacts, SlogEntry } from './entry-types.js';
import { FastReader } from './fast-reader.js';
import { asciiBytes, ByteScanner } from './json-bytes.js';
import { planReads, type ReadPlan } from './read-plan.js';
import type { Reads } from './reads.js';
import { BadLine, readPlainLine } from './plain-reader.js';

export type ReadPath = 'plain' | 'fast';

export interface LineReaderOptions {
  /** Use the byte reader (default true). */
  fast?: boolean;
  /** Hand out entries that throw when a field not asked for is read (tests: SLOGULATE_CHECK_READS=1). */
  checkReads?: boolean;
  /** A big line's strings over BIG_STRING_CHARS as BigStrings (scan/big-string.ts): the consumer copes with them. */
  bigStrings?: boolean;
  /** The scope those BigStrings print in (the text render's). */
  printedIn?: BigTextScope;
}

/** Lines read each way. */
export interface LinesRead {
  /** By the byte reader (fast-reader.ts). */
  fast: number;
  /** By JSON.parse (plain-reader.ts): every line on the plain path; on the fast path, the lines the byte reader did not take (blank, bad, or of another shape or type). */
  plain: number;
  /** As a stream of tokens (big-line.ts): lines over the big-line threshold, whatever the path. */
  big: number;
  /** Of the `fast` lines, those taken with bytes after the walk unchecked (StepHost.lenient): what the fuzzed properties tell apart. */
  lenient: number;
}

export interface LineReader {
  readonly path: ReadPath;
  readonly plan: ReadPlan;
  /** The lines read so far, each way. */
  readonly linesRead: Readonly<LinesRead>;
  /** The type and time of the entry `read` or `readBig` gave last (unchanged by a blank or bad line). */
  readonly facts: Readonly<LineFacts>;
  /** Line `i` of the batch: its entry, a BadLine, or undefined for a blank line. */
  read(batch: LineBatch, i: number): SlogEntry | BadLine | undefined;
  /** A big line (a batch's `big`), read as it streams. */
  readBig(line: BigLine): Promise<SlogEntry | BadLine | undefined>;
}

const CREATE_VAT = asciiBytes('{"type":"create-vat",');
const BUNDLE = asciiBytes(',"vatSourceBundle":{');
const TIME_KEY = asciiBytes(',"time":');

/**
 * A create-vat line without its source bundle, or undefined when the bundle
 * is not where the kernel writes it (its value an object, the last key
 * before the tail): the cut must leave valid JSON of the same entry, so the
 * bundle's value is skipped over (its grammar checked, not decoded) and must
 * end where the tail begins.
 */
function createVatText(batch: LineBatch, start: number, end: number): string | undefined {
  const buf = batch.bytes;
  if (!bytesAt(buf, start, end, CREATE_VAT)) return undefined;
  const at = buf.subarray(start, end).indexOf(BUNDLE);
  const tail = buf.subarray(start, end).lastIndexOf(TIME_KEY);
  if (at < 0 || tail <= at || buf[start + tail - 1] !== 125) return undefined;
  const bundle = new ByteScanner();
  bundle.reset(buf, start + at + BUNDLE.length - 1, end);
  if (!bundle.skipValue() || bundle.pos !== start + tail) return undefined;
  return batchText(batch, start, start + at) + batchText(batch, start + tail, end);
}

export function lineReader(reads: Reads, options: LineReaderOptions = {}): LineReader {
  const plan = planReads(reads);
  const fast = options.fast !== false ? new FastReader(plan) : undefined;
  const check = options.checkReads === true;
  const linesRead: LinesRead = { fast: 0, plain: 0, big: 0, lenient: 0 };
  const facts: LineFacts = { type: '', time: NaN };
  /** An entry of the plain path or a big line: its facts read from it. */
  const plainFacts = <E extends SlogEntry | BadLine | undefined>(entry: E): E => {
    if (entry !== undefined && !(entry instanceof BadLine)) {
      facts.type = entry.type;
      facts.time = typeof entry.time === 'number' ? entry.time : NaN;
    }
    return entry;
  };

  function plain(batch: LineBatch, i: number, last: boolean): SlogEntry | BadLine | undefined {
    const start = batch.spans[2 * i] as number;
    const end = batch.spans[2 * i + 1] as number;
    if (fast) {
      const cut = createVatText(batch, start, end);
      if (cut !== undefined) {
        const entry = readPlainLine(cut, plan, false);
        if (entry !== undefined && !(entry instanceof BadLine) && entry.type === 'create-vat') return entry;
      }
    }
    return readPlainLine(lineText(batch, i), plan, last);
  }

  function read(batch: LineBatch, i: number): SlogEntry | BadLine | undefined {
    const last = batch.unterminatedLast && 2 * i + 2 === batch.spans.length;
    if (fast) {
      const entry = fast.read(batch, batch.spans[2 * i] as number, batch.spans[2 * i + 1] as number);
      if (entry !== undefined) {
        linesRead.fast += 1;
        if (fast.lenient) linesRead.lenient += 1;
        facts.type = fast.type;
        facts.time = fast.sc.time;
        return entry;
      }
    }
    linesRead.plain += 1;
    return plainFacts(plain(batch, i, last));
  }

  const bigOptions: BigLineOptions = { bigStrings: options.bigStrings === true, printedIn: options.printedIn };
  async function readBig(line: BigLine): Promise<SlogEntry | BadLine | undefined> {
    linesRead.big += 1;
    const { entry, syscallName } = await readBigLine(line, plan, bigOptions);
    plainFacts(entry);
    if (!check || entry === undefined || entry instanceof BadLine) return entry;
    return checkedEntry(entry, plan, syscallName);
  }

  if (!check) return { path: fast ? 'fast' : 'plain', plan, linesRead, facts, read, readBig };
  const byName = Object.keys(reads.bySyscallName ?? {}).length > 0;
  return {
    path: fast ? 'fast' : 'plain',
    plan,
    linesRead,
    facts,
    read(batch, i) {
      const entry = read(batch, i);
      if (entry === undefined || entry instanceof BadLine) return entry;
      // The syscall's name decides its reads only where some names have reads of their own.
      const named = (entry.type === 'syscall' || entry.type === 'syscall-result') && byName;
      return checkedEntry(entry, plan, named ? syscallNameOf(lineText(batch, i)) : undefined);
    },
    readBig,
  };
}

/** The syscall name a line's reads are chosen by (as the plain path finds it). */
function syscallNameOf(text: string): string | undefined {
  let o: Named & { body?: Named };
  try {
    o = JSON.parse(text) as Named & { body?: Named };
  } catch {
    return undefined;
  }
  const e = o.body && typeof o.body === 'object' ? o.body : o;
  // A syscall's by its name (ksc[0] first: entries.ts fromParsed), a result's by its `syscall` field.
  const first = (call: unknown): string | undefined => (Array.isArray(call) && typeof call[0] === 'string' ? call[0] : undefined);
  const field = typeof e.syscall === 'string' ? e.syscall : undefined;
  return e.type === 'syscall' ? (first(e.ksc) ?? field ?? first(e.vsc)) : (field ?? first(e.ksc) ?? first(e.vsc));
}

interface Named {
  type?: unknown;
  syscall?: unknown;
  ksc?: unknown;
  vsc?: unknown;
}
