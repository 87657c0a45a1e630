/**
 * The lines of `top`, `stats` and `compare`, read from their bytes.
 *
 * Those analyses read little of a slog: crank numbers, types and times; each
 * syscall's time and kernel-space name (ksc[0]), and its result's time; a
 * delivery's kind (kd[0]) and a message's body (for its method); a
 * deliver-result's time and computrons (dr[2].compute); the vat of every
 * entry (the crank assembler names a crank's vat after the first entry that
 * has one); a crank-start's message type and vat (a create-vat message,
 * which names a vat, is parsed whole). `top` reads no names (ksc[0], kd[0],
 * bodies).
 *
 * A line of one of those kinds, written as the kernel's slogger writes it
 * (its key order, no whitespace), is read from its bytes into a small entry
 * (analysis-entries.ts):
 * - its start is checked byte by byte against that shape, up to the last
 *   field read, and the fields are read as JSON.parse reads them;
 * - its end must be the slogger's `,"time":T,"monotime":M}` (with
 *   `,"seconds":S` before the `}` for the entries that close a span);
 * - what lies between is not read: taken to be the rest of the usual shape.
 * So a line cut short, keys in another order, spaces, a number or string in
 * a form this reader does not take (an exponent, an escape) all make the
 * line go to JSON.parse (undefined here), and so do console entries (round
 * marks) and the rare kernel-level entries: they are read, or reported,
 * exactly as on the plain path. Only damage inside a line's unread middle,
 * with both ends intact, goes unnoticed here where the plain path reports
 * the line: say a line cut short in its middle and run together with the
 * next line, when that one ends as this one would.
 *
 * A create-vat line is parsed whole but for its source bundle (about a
 * megabyte of base64 no analysis reads, in its middle).
 *
 * test/analysis-lines.test.ts checks, for every line of the shared slogs,
 * that what is read here is what JSON.parse reads;
 * test/analysis-fast-paths.test.ts checks the commands' output.
 */
import type { SlogEntry } from '../model/types.js';
import { ENTRIES as out } from './analysis-entries.js';
import { asciiBytes, ByteScanner, literal } from './json-bytes.js';

/** Reads one line's bytes [start, end) (no '\n', no trailing '\r'); undefined: parse it whole. */
export type ByteLineReader = (buf: Buffer, start: number, end: number) => SlogEntry | undefined;

export interface AnalysisLineOptions {
  /**
   * Read what names syscalls and deliveries: ksc[0], kd[0] and a message's
   * body (stats and compare count and time them by name; top needs none).
   */
  names: boolean;
  /**
   * A line reader of the pass's own, made once per pass, in place of this
   * one (`export` reads more of each line: src/export/export-lines.ts).
   */
  reader?: () => ByteLineReader;
}

// Each line's start, to the first value read.
const SYSCALL = literal('{"type":"syscall","crankNum":');
const SYSCALL_RESULT = literal('{"type":"syscall-result","crankNum":');
const CRANK_START = literal('{"type":"crank-start","crankType":"');
const CRANK_FINISH = literal('{"type":"crank-finish",');
const CLIST = literal('{"type":"clist","crankNum":');
const DELIVER = literal('{"type":"deliver","crankNum":');
const DELIVER_RESULT = literal('{"type":"deliver-result","crankNum":');
const CREATE_VAT = literal('{"type":"create-vat","vatID":');

// What comes between the values read.
const VAT_ID = literal(',"vatID":"');
const DELIVERY_NUM = literal(',"deliveryNum":');
const SYSCALL_NUM = literal(',"syscallNum":');
const REPLAY = literal(',"replay":');
const SYSCALL_NAME = literal(',"syscall":"');
const KSC = literal(',"ksc":["');
const CRANK_NUM = literal(',"crankNum":');
const MESSAGE_TYPE = literal(',"messageType":"');
const MESSAGE = literal(',"message":{"type":"');
const MODE = literal(',"mode":"');
const DISPATCH = literal(',"dispatch":"');
const KD = literal(',"kd":["');
const DR = literal(',"dr":["');
const KD_BODY = literal(',{"methargs":{"body":');
const NULL_COMMA = literal('null,');
const NULL_CLOSE = literal('null]');
/** How a deliver-result without a usage report ends, before its time. */
const NO_USAGE_END = literal(',null]');
const BUNDLE = asciiBytes(',"vatSourceBundle":');
const KEY_COMPUTE = asciiBytes('"compute"');

/** A line reader for the analyses, making small entries (analysis-entries.ts); one per pass (it keeps a cursor). */
export function analysisLineReader(options: AnalysisLineOptions): ByteLineReader {
  const sc = new ByteScanner();
  const names = options.names;

  /** `N,"vatID":"V"`, after a line's `"crankNum":`: the vat. */
  function crankAndVat(): string | undefined {
    return sc.skipInt() && sc.lit(VAT_ID) ? sc.word() : undefined;
  }

  /** `,"deliveryNum":N(,"syscallNum":N),"replay":B`, after the vat. */
  function deliveryAndReplay(syscallNum: boolean): boolean {
    if (!sc.lit(DELIVERY_NUM) || !sc.skipInt()) return false;
    if (syscallNum && (!sc.lit(SYSCALL_NUM) || !sc.skipInt())) return false;
    return sc.lit(REPLAY) && sc.bool() !== undefined;
  }

  function syscall(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, false);
    if (Number.isNaN(time) || !sc.lit(SYSCALL)) return undefined;
    const vatID = crankAndVat();
    if (vatID === undefined) return undefined;
    let name: string | undefined;
    if (names) {
      if (!deliveryAndReplay(true) || !sc.lit(SYSCALL_NAME) || !sc.skipWord() || !sc.lit(KSC)) return undefined;
      name = sc.word();
      if (name === undefined) return undefined;
    }
    return sc.pos > sc.tailStart ? undefined : out.syscall(vatID, name, time);
  }

  function syscallResult(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, true);
    if (Number.isNaN(time) || !sc.lit(SYSCALL_RESULT)) return undefined;
    const vatID = crankAndVat();
    return vatID === undefined || sc.pos > sc.tailStart ? undefined : out.syscallResult(vatID, time);
  }

  /** The message's type, and its vat if that comes next; a create-vat message is parsed whole. */
  function crankStart(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, false);
    if (Number.isNaN(time) || !sc.lit(CRANK_START)) return undefined;
    const crankType = sc.word();
    if (crankType === undefined || !sc.lit(CRANK_NUM)) return undefined;
    const crankNum = sc.int();
    if (Number.isNaN(crankNum) || !sc.lit(MESSAGE_TYPE) || !sc.skipWord() || !sc.lit(MESSAGE)) return undefined;
    const messageType = sc.word();
    if (messageType === undefined || messageType === 'create-vat') return undefined;
    let messageVat: string | undefined;
    if (sc.lit(VAT_ID)) {
      messageVat = sc.word();
      if (messageVat === undefined) return undefined;
    }
    return sc.pos > sc.tailStart ? undefined : out.crankStart(crankType, crankNum, messageType, messageVat, time);
  }

  function crankFinish(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, true);
    return Number.isNaN(time) || !sc.lit(CRANK_FINISH) ? undefined : out.crankFinish(time);
  }

  function clist(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, false);
    if (Number.isNaN(time) || !sc.lit(CLIST) || !sc.skipInt() || !sc.lit(MODE) || !sc.skipWord() || !sc.lit(VAT_ID)) return undefined;
    const vatID = sc.word();
    return vatID === undefined || sc.pos > sc.tailStart ? undefined : out.clist(vatID, time);
  }

  function deliver(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, false);
    if (Number.isNaN(time) || !sc.lit(DELIVER)) return undefined;
    const vatID = crankAndVat();
    if (vatID === undefined) return undefined;
    if (!names) return sc.pos > sc.tailStart ? undefined : out.deliver(vatID, undefined, undefined, time);
    if (!deliveryAndReplay(false) || !sc.lit(DISPATCH) || !sc.skipWord() || !sc.lit(KD)) return undefined;
    const kind = sc.word();
    if (kind === undefined) return undefined;
    let body: string | undefined;
    if (kind === 'message') {
      // ["message", target, {"methargs": {"body": ...: the method is the body's start.
      if (sc.buf[sc.pos] !== 44) return undefined;
      sc.pos += 1;
      if (sc.str() === undefined || !sc.lit(KD_BODY)) return undefined;
      const bodyAt = sc.pos;
      if (!sc.skipStr()) return undefined;
      body = JSON.parse(sc.buf.toString('utf8', bodyAt, sc.pos)) as string;
    }
    return sc.pos > sc.tailStart ? undefined : out.deliver(vatID, kind, body, time);
  }

  /** `dr[2]`, the worker's usage report, then `]`: its computrons (undefined: none), or false. */
  function usageComputrons(): number | undefined | false {
    if (sc.lit(NULL_CLOSE)) return undefined;
    const buf = sc.buf;
    let compute: number | undefined;
    if (buf[sc.pos] === 123 && buf[sc.pos + 1] !== 125) {
      // Member by member: the last "compute" counts, as in JSON.parse.
      do {
        sc.pos += 1;
        const keyAt = sc.pos;
        if (!sc.skipStr() || buf[sc.pos] !== 58) return false;
        const isCompute = sameBytes(buf, keyAt, sc.pos, KEY_COMPUTE);
        sc.pos += 1;
        if (isCompute) {
          const c = buf[sc.pos] as number;
          if (c === 45 || (c >= 48 && c <= 57)) {
            compute = sc.num();
            if (Number.isNaN(compute)) return false;
            continue;
          }
          compute = undefined;
        }
        if (!sc.skipValue()) return false;
      } while (buf[sc.pos] === 44);
      if (buf[sc.pos] !== 125) return false;
      sc.pos += 1;
    } else if (!sc.skipValue()) {
      return false;
    }
    return buf[sc.pos++] === 93 ? compute : false;
  }

  /**
   * Its vat, and its computrons: none when `dr` ends with a null (the
   * usual `["ok",null,null]`, or a bringOutYourDead's `["ok",{...},null]`),
   * else read from dr[2] (an XS worker's usage report).
   */
  function deliverResult(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, true);
    if (Number.isNaN(time) || !sc.lit(DELIVER_RESULT)) return undefined;
    const vatID = crankAndVat();
    if (vatID === undefined || sc.pos > sc.tailStart) return undefined;
    const tail = sc.tailStart;
    const at = sc.pos;
    sc.pos = tail - NO_USAGE_END.bytes.length;
    if (sc.pos >= at && sc.lit(NO_USAGE_END)) return out.deliverResult(vatID, undefined, time);
    sc.pos = at;
    if (!deliveryAndReplay(false) || !sc.lit(DISPATCH) || !sc.skipWord() || !sc.lit(DR) || !sc.skipWord()) return undefined;
    if (sc.buf[sc.pos] !== 44) return undefined;
    sc.pos += 1;
    if (!sc.lit(NULL_COMMA)) {
      if (!sc.skipValue() || sc.buf[sc.pos] !== 44) return undefined;
      sc.pos += 1;
    }
    const computrons = usageComputrons();
    return computrons === false || sc.pos !== tail ? undefined : out.deliverResult(vatID, computrons, time);
  }

  /**
   * The entry without its source bundle (a megabyte of base64, in the line's
   * middle: not read); the rest is parsed as usual. The bundle must be the
   * last member, an object ending with a string, so that nothing else is cut.
   */
  function createVat(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, false);
    if (Number.isNaN(time)) return undefined;
    const tail = sc.tailStart;
    const buf = sc.buf;
    const at = buf.subarray(start, tail).indexOf(BUNDLE);
    if (at < 0 || buf[tail - 1] !== 125 || buf[tail - 2] !== 34 || buf[start + at + BUNDLE.length] !== 123) return undefined;
    let entry: unknown;
    try {
      entry = JSON.parse(buf.toString('utf8', start, start + at) + buf.toString('utf8', tail, sc.end));
    } catch {
      return undefined;
    }
    return entry !== null && typeof entry === 'object' && (entry as SlogEntry).type === 'create-vat' ? (entry as SlogEntry) : undefined;
  }

  // Dispatch on the type's first letters (`{"type":"` is 9 bytes); each reader checks the whole start.
  return (buf, start, end) => {
    sc.reset(buf, start, end);
    switch (buf[start + 9]) {
      case 115: // s
        if (buf[start + 16] === 34) return syscall(start);
        return buf[start + 16] === 45 ? syscallResult(start) : undefined;
      case 99: // c
        if (buf[start + 10] === 114) {
          if (buf[start + 11] === 97) return buf[start + 15] === 115 ? crankStart(start) : crankFinish(start);
          return sc.lit(CREATE_VAT) ? createVat(start) : undefined;
        }
        return buf[start + 10] === 108 ? clist(start) : undefined;
      case 100: // d
        if (buf[start + 16] === 34) return deliver(start);
        return buf[start + 16] === 45 ? deliverResult(start) : undefined;
      default:
        return undefined;
    }
  };
}

function sameBytes(buf: Uint8Array, start: number, end: number, bytes: Uint8Array): boolean {
  if (end - start !== bytes.length) return false;
  for (let i = 0; i < bytes.length; i += 1) if (buf[start + i] !== bytes[i]) return false;
  return true;
}
