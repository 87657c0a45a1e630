/**
 * What the reading layer must do with any bytes, checked (each check returns
 * what went wrong, or undefined):
 *
 * - `checkPaths`: every line read by the fast path (the byte reader, with
 *   the plain path for the lines it does not take: scan/line-reader.ts) and
 *   by the plain path (every line JSON.parse'd) gives the same entry, or the
 *   same bad-line report, or both say blank, for every consumer's reads; and
 *   neither throws. One difference is by design (docs/architecture.md,
 *   "What the fast path checks"): a line the byte reader took leniently
 *   (bytes after its walk unchecked: LinesRead.lenient) is an entry of its
 *   type whatever those bytes hold, where JSON.parse may find damage there
 *   (a bad line) or a key given again that overrides one read before;
 *   checking those bytes too cost `top` +35% (measured, not kept). A
 *   lenient line that JSON.parse reads whole with no key given twice is
 *   held to JSON.parse's entry. Any other difference fails: every line read
 *   whole (the reads of everything, of the render) is held to JSON.parse's
 *   reading.
 * - `checkStreaming`: the slog read as a pass reads it (source/lines.ts
 *   `readLines`, in chunks of any size, lines over a big-line threshold read
 *   as a stream of tokens: scan/big-line.ts) gives, line by line, what
 *   JSON.parse gives of each line of the bytes split here on `\n` (the
 *   reference), with the same line numbers; a big line's bad-line report
 *   names the same fault (its parser's words differ), but for a line whose
 *   `type` comes again, which the token path cannot read as it streams
 *   (big-line.ts READ_AMISS: the text is checked to be one).
 */
import { AGGREGATE_READS } from '../../src/analyses/stats/aggregate.js';
import { TOP_READS } from '../../src/analyses/top/top.js';
import { DEFAULT_EXPORT_READS, EXPORT_READS } from '../../src/export/reads.js';
import { MODEL_READS } from '../../src/model/reads.js';
import { RENDER_OPTION_SETS } from '../../src/render/option-sets.test-helpers.js';
import { defaultRenderOptions } from '../../src/render/options.js';
import { renderReads } from '../../src/render/reads.js';
import { REPORT_READS } from '../../src/report/side.js';
import { SERIES_READS } from '../../src/report/series.js';
import type { SlogEntry } from '../../src/scan/entry-types.js';
import { READ_AMISS } from '../../src/scan/big-line.js';
import { lineReader, type LineReader } from '../../src/scan/line-reader.js';
import { BadLine, readPlainLine } from '../../src/scan/plain-reader.js';
import { mergeReads, READ_ALL, READ_NOTHING, type Reads } from '../../src/scan/reads.js';
import { lineText, readLines, splitLines } from '../../src/source/lines.js';

/** Every consumer's reads, each with the model's added (as a pass adds them). */
export const CONSUMERS: ReadonlyArray<{ name: string; reads: Reads }> = [
  { name: 'model (blocks, runs)', reads: READ_NOTHING },
  { name: 'everything (trace, kref)', reads: READ_ALL },
  ...RENDER_OPTION_SETS.map((o) => ({ name: `render ${JSON.stringify(o)}`, reads: renderReads({ ...defaultRenderOptions(), ...o }) })),
  { name: 'render --vatspace --novatstore', reads: renderReads({ ...defaultRenderOptions(), vatspace: true, novatstore: true }) },
  { name: 'stats, compare', reads: AGGREGATE_READS },
  { name: 'top', reads: TOP_READS },
  { name: 'export', reads: EXPORT_READS },
  { name: 'export (default tables)', reads: DEFAULT_EXPORT_READS },
  { name: 'report', reads: REPORT_READS },
  { name: 'report series', reads: SERIES_READS },
].map((c) => ({ name: c.name, reads: mergeReads(MODEL_READS, c.reads) }));

interface Readers {
  name: string;
  fast: LineReader;
  plain: LineReader;
}

let readers: Readers[] | undefined;
function allReaders(): Readers[] {
  readers ??= CONSUMERS.map(({ name, reads }) => ({ name, fast: lineReader(reads, { fast: true }), plain: lineReader(reads, { fast: false }) }));
  return readers;
}

/**
 * The same value: the same keys in the same order (a field set on one side
 * only shows), numbers by Object.is (-0 is not 0), at any depth (without
 * recursion: a value can be nested thousands deep).
 */
export function sameValue(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  while (stack.length > 0) {
    const [u, v] = stack.pop() as [unknown, unknown];
    if (Object.is(u, v)) continue;
    if (typeof u !== 'object' || typeof v !== 'object' || u === null || v === null || Array.isArray(u) !== Array.isArray(v)) return false;
    if (Object.getPrototypeOf(u) !== Object.getPrototypeOf(v)) return false;
    const ku = Object.keys(u);
    const kv = Object.keys(v);
    if (ku.length !== kv.length) return false;
    for (let i = 0; i < ku.length; i += 1) {
      const k = ku[i] as string;
      if (k !== kv[i]) return false;
      stack.push([(u as Record<string, unknown>)[k], (v as Record<string, unknown>)[k]]);
    }
  }
  return true;
}

type Read = SlogEntry | BadLine | undefined;

/** A read, as one line of a message. */
export function shown(r: Read | Error): string {
  if (r === undefined) return 'blank';
  if (r instanceof Error) return `threw ${r.name}: ${r.message}`;
  if (r instanceof BadLine) return `bad line: ${r.why}`;
  let text: string;
  try {
    text = JSON.stringify(r, (_k, v: unknown) => (typeof v === 'number' && Object.is(v, -0) ? '-0' : v === undefined ? '<undefined>' : v));
  } catch {
    text = `${r.type} entry too deep to show`;
  }
  return text.length > 400 ? `${text.slice(0, 400)}...` : text;
}

/** A line's bytes as a message shows them: JSON-quoted, cut at 300 characters. */
export function quoted(bytes: Buffer): string {
  const text = JSON.stringify(bytes.toString('latin1'));
  return text.length > 300 ? `${text.slice(0, 300)}...(${bytes.length} bytes)` : text;
}

function attempt(read: () => Read): Read | Error {
  try {
    return read();
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

function sameRead(a: Read | Error, b: Read | Error): boolean {
  if (a instanceof Error || b instanceof Error) return false;
  if (a === undefined || b === undefined) return a === b;
  if (a instanceof BadLine || b instanceof BadLine) return a instanceof BadLine && b instanceof BadLine && a.why === b.why;
  return sameValue(a, b);
}

/**
 * The one difference allowed: a line the byte reader took leniently is an
 * entry of its type, whatever JSON.parse makes of the bytes it left
 * unchecked: a bad line, or (a key given again there) another value. A
 * line JSON.parse reads whole with no key given twice has nothing there to
 * differ by: its entry must be JSON.parse's.
 */
function leniencyOnly(fast: Read | Error, plain: Read | Error, lenient: boolean, text: string): boolean {
  if (!lenient || fast === undefined || fast instanceof Error || fast instanceof BadLine) return false;
  if (plain instanceof BadLine) return true;
  return plain !== undefined && !(plain instanceof Error) && plain.type === fast.type && repeatsAKey(text);
}

/**
 * Does some object of this JSON text (one JSON.parse reads) give a key twice
 * (JSON.parse keeps the last)? Keys compared decoded; nesting followed
 * without recursion.
 */
export function repeatsAKey(text: string): boolean {
  // Per open container: its keys so far (an object), or undefined (an array).
  const open: Array<Set<string> | undefined> = [];
  let keyNext = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      while (text.charCodeAt(j) !== 34) j += text.charCodeAt(j) === 92 ? 2 : 1;
      if (keyNext) {
        const keys = open[open.length - 1] as Set<string>;
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) return true;
        keys.add(key);
        keyNext = false;
      }
      i = j;
    } else if (c === 123) {
      open.push(new Set());
      keyNext = true;
    } else if (c === 91) {
      open.push(undefined);
      keyNext = false;
    } else if (c === 125 || c === 93) {
      open.pop();
      keyNext = false;
    } else if (c === 44) {
      keyNext = open[open.length - 1] !== undefined;
    }
  }
  return false;
}

/** Every line of `bytes` (a slog held whole) read both ways, for every consumer. */
export function checkPaths(bytes: Buffer): string | undefined {
  const batch = splitLines(bytes);
  const lines = batch.spans.length / 2;
  for (const { name, fast, plain } of allReaders()) {
    for (let i = 0; i < lines; i += 1) {
      const lenientBefore = fast.linesRead.lenient;
      const f = attempt(() => fast.read(batch, i));
      const p = attempt(() => plain.read(batch, i));
      if (!sameRead(f, p) && !leniencyOnly(f, p, fast.linesRead.lenient > lenientBefore, lineText(batch, i))) {
        const line = bytes.subarray(batch.spans[2 * i] as number, batch.spans[2 * i + 1] as number);
        return `line ${i + 1}, reads of ${name}: fast path ${shown(f)}; plain path ${shown(p)}; line ${quoted(line)}`;
      }
    }
  }
  return undefined;
}

/**
 * The keys of a JSON object's text at the top (depth 1), in order, and of
 * each top-level `body` object (depth 2), decoded; a rough scan of the
 * text, which must be JSON (the caller knows it parses).
 */
function topKeys(text: string): { top: string[]; body: string[][] } {
  const top: string[] = [];
  const body: string[][] = [];
  /** The containers open: true for an object; and whether each top-level member value is a `body` object. */
  const stack: boolean[] = [];
  let inBody = false;
  let lastTopKey = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const literal = text.slice(i, j + 1);
      let k = j + 1;
      while (k < text.length && ' \t\r\n'.includes(text[k] as string)) k += 1;
      if (text[k] === ':' && stack[stack.length - 1] === true) {
        const key = JSON.parse(literal) as string;
        if (stack.length === 1) {
          top.push(key);
          lastTopKey = key;
        } else if (stack.length === 2 && inBody) body[body.length - 1]?.push(key);
      }
      i = j;
    } else if (c === '{' || c === '[') {
      stack.push(c === '{');
      if (stack.length === 2) {
        inBody = c === '{' && lastTopKey === 'body';
        if (inBody) body.push([]);
      }
    } else if (c === '}' || c === ']') {
      stack.pop();
    }
  }
  return { top, body };
}

/**
 * Whether a line's text is one the token path cannot read as it streams
 * (big-line.ts READ_AMISS): its `type` comes twice, or after its `body`, or
 * its `body`'s `type` comes twice.
 */
function typeComesAgain(text: string): boolean {
  const { top, body } = topKeys(text);
  const twice = (keys: string[]): boolean => keys.filter((k) => k === 'type').length > 1;
  return twice(top) || (top.includes('body') && top.lastIndexOf('type') > top.indexOf('body')) || body.some(twice);
}

/** The gist of a bad-line report, which both parsers give: the kind of fault, not the parser's words. */
const faultOf = (why: string): string => why.split(':')[0] as string;

/** The reference lines: split on `\n`, a `\r` before it dropped, a BOM at the very start dropped; the last unterminated. */
function referenceLines(bytes: Buffer): Array<{ text: string; unterminated: boolean }> {
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const out: Array<{ text: string; unterminated: boolean }> = [];
  let start = from;
  for (;;) {
    const nl = bytes.indexOf(10, start);
    if (nl < 0) break;
    const end = nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
    out.push({ text: bytes.subarray(start, end).toString('utf8'), unterminated: false });
    start = nl + 1;
  }
  if (start < bytes.length) {
    const end = bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    out.push({ text: bytes.subarray(start, end).toString('utf8'), unterminated: true });
  }
  return out;
}

/** What the plain path makes of a line's text (JSON.parse, and a consumer's reads applied). */
function referenceRead(plain: LineReader, text: string, unterminated: boolean): Read | Error {
  return attempt(() => readPlainLine(text, plain.plan, unterminated));
}

/** `bytes` in chunks of the given sizes, in turn (each a copy, as a stream hands them out). */
export function chunked(bytes: Buffer, sizes: readonly number[]): Buffer[] {
  const out: Buffer[] = [];
  let k = 0;
  for (let at = 0; at < bytes.length; k += 1) {
    const size = Math.max(1, sizes.length ? (sizes[k % sizes.length] as number) : bytes.length);
    out.push(Buffer.from(bytes.subarray(at, at + size)));
    at += size;
  }
  return out;
}

/** The slog read as a pass reads it, in these chunks, lines over `bigLineBytes` streamed; for each consumer. */
export async function checkStreaming(bytes: Buffer, chunkSizes: readonly number[], bigLineBytes: number, consumers = allReaders()): Promise<string | undefined> {
  const reference = referenceLines(bytes);
  for (const { name, fast, plain } of consumers) {
    const got: Array<{ line: number; read: Read | Error; big: boolean; lenient?: boolean }> = [];
    try {
      for await (const batch of readLines(chunked(bytes, chunkSizes), { bigLineBytes })) {
        if (batch.big) {
          let read: Read | Error;
          try {
            read = await fast.readBig(batch.big);
          } catch (err) {
            read = err as Error;
          }
          got.push({ line: batch.firstLine, read, big: true });
          continue;
        }
        for (let i = 0; i < batch.spans.length / 2; i += 1) {
          const lenientBefore = fast.linesRead.lenient;
          const read = attempt(() => fast.read(batch, i));
          got.push({ line: batch.firstLine + i, read, big: false, lenient: fast.linesRead.lenient > lenientBefore });
        }
      }
    } catch (err) {
      return `reads of ${name}, chunks ${JSON.stringify(chunkSizes)}, big lines from ${bigLineBytes} bytes: readLines threw ${(err as Error).message}`;
    }
    const where = (line: number): string => `line ${line}, reads of ${name}, chunks ${JSON.stringify(chunkSizes)}, big lines from ${bigLineBytes} bytes`;
    if (got.length !== reference.length) return `${where(0)}: ${got.length} lines read, ${reference.length} in the bytes`;
    for (let i = 0; i < got.length; i += 1) {
      const g = got[i] as { line: number; read: Read | Error; big: boolean; lenient?: boolean };
      const r = reference[i] as { text: string; unterminated: boolean };
      const want = referenceRead(plain, r.text, r.unterminated);
      if (g.line !== i + 1) return `${where(i + 1)}: numbered ${g.line}`;
      // A big line whose type comes again is not read (big-line.ts): JSON.parse reads it.
      const amiss = g.big && g.read instanceof BadLine && g.read.why === READ_AMISS && !(want instanceof Error) && !(want instanceof BadLine) && typeComesAgain(r.text);
      let same: boolean;
      if (amiss) same = true;
      else if (!g.big) same = sameRead(g.read, want) || leniencyOnly(g.read, want, g.lenient === true, r.text);
      else if (g.read instanceof Error || want instanceof Error) same = false;
      else if (g.read instanceof BadLine || want instanceof BadLine) same = g.read instanceof BadLine && want instanceof BadLine && faultOf(g.read.why) === faultOf(want.why);
      else same = sameRead(g.read, want);
      if (!same) return `${where(i + 1)}${g.big ? ' (read as a big line)' : ''}: ${shown(g.read)}; JSON.parse of the line: ${shown(want)}; line ${quoted(Buffer.from(r.text))}`;
    }
  }
  return undefined;
}

export { allReaders };
