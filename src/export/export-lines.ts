/**
 * The lines `export` reads most, read from their bytes (as `stats` reads
 * its lines: src/input/analysis-lines.ts, whose rules this follows): a
 * syscall, syscall-result, deliver or deliver-result line written in the
 * slogger's usual shape becomes an entry holding only the fields the tables
 * read, where the full entry holds them, so that fields.ts reads both alike:
 *
 * - syscall: crankNum, vatID, deliveryNum, syscallNum, replay, and `ksc`
 *   cut to what fields.ts reads: `[name, target, {methargs: {body}, result}]`
 *   for a send (the body cut after the method: `#["deposit",`), `[name,
 *   target, method]` for an invoke, `[name, vatID, promise or key]` for a
 *   subscribe or vatstore syscall, `[name, vatID, [[promise]]]` for a
 *   resolve, `[name, [ref]]` for a drop or retire, `[name]` for the others;
 * - syscall-result: crankNum, vatID, `ksr: [status]`;
 * - deliver: crankNum, vatID, deliveryNum, replay, and `kd` cut as a send's
 *   ksc for a message (`['message', target, {methargs: {body}, result}]`),
 *   `['notify', [[promise]]]` for a notify, `[kind]` for the others;
 * - deliver-result: crankNum, vatID, `dr: [status, undefined, {compute}]`;
 * - and `time` for each.
 * Any other shape (a replayed entry: no `ksc`/`kd`; an escape in a method
 * name; keys in another order...) goes to JSON.parse, as do all other
 * lines but crank-start, crank-finish, clist and create-vat, which the
 * analyses' reader reads (names off).
 *
 * src/export/export-lines.test.ts checks, for every line of the shared
 * slogs, that the tables' cells read from these entries are those read
 * from JSON.parse's.
 */
import { analysisLineReader, type ByteLineReader } from '../input/analysis-lines.js';
import { ByteScanner, literal } from '../input/json-bytes.js';
import type { SlogEntry } from '../model/types.js';

const SYSCALL = literal('{"type":"syscall","crankNum":');
const SYSCALL_RESULT = literal('{"type":"syscall-result","crankNum":');
const DELIVER = literal('{"type":"deliver","crankNum":');
const DELIVER_RESULT = literal('{"type":"deliver-result","crankNum":');
const VAT_ID = literal(',"vatID":"');
const DELIVERY_NUM = literal(',"deliveryNum":');
const SYSCALL_NUM = literal(',"syscallNum":');
const REPLAY = literal(',"replay":');
const SYSCALL_NAME = literal(',"syscall":"');
const KSC = literal(',"ksc":["');
const KSR = literal(',"ksr":["');
const DISPATCH = literal(',"dispatch":"');
const KD = literal(',"kd":["');
const DR = literal(',"dr":["');
const METHARGS_BODY = literal(',{"methargs":{"body":"');
const SLOTS = literal(',"slots":');
const RESULT = literal(',"result":');
const NULL = literal('null');
const FIRST_OF_LISTS = literal(',[["');
const FIRST_OF_LIST = literal(',["');
const EMPTY_LIST = literal(',[]');

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

/** One shared array per status (`ok`, `error`): entries are never changed once made. */
const statusArrays = new Map<string, [string]>();
function statusArray(status: string): [string] {
  let arr = statusArrays.get(status);
  if (!arr) {
    arr = [status];
    if (statusArrays.size < 64) statusArrays.set(status, arr);
  }
  return arr;
}

const NO_USAGE = null;

export function exportLineReader(): ByteLineReader {
  const sc = new ByteScanner();
  const others = analysisLineReader({ names: false });

  /**
   * A JSON string at pos (its opening quote): its value, not interned (krefs
   * and keys are many); undefined if there is none.
   */
  function string(): string | undefined {
    const buf = sc.buf;
    const at = sc.pos;
    if (buf[at] !== QUOTE || !sc.skipStr()) return undefined;
    const end = sc.pos;
    for (let i = at + 1; i < end - 1; i += 1) {
      if (buf[i] === BACKSLASH) return JSON.parse(buf.toString('utf8', at, end)) as string;
    }
    return buf.toString('utf8', at + 1, end - 1);
  }

  /** `,` then a string. */
  function nextString(): string | undefined {
    if (sc.buf[sc.pos] !== COMMA) return undefined;
    sc.pos += 1;
    return string();
  }

  /**
   * After `{"methargs":{"body":"` (the body's opening quote read): the body
   * cut after its method (`#["name",` or `["name",`), the rest of the
   * message skipped, its result read; pos after the message's `}`.
   */
  function message(): { methargs: { body: string }; result?: string | null } | undefined {
    const buf = sc.buf;
    const quote = sc.pos - 1;
    let i = sc.pos;
    const smallcaps = buf[i] === 35; // #
    if (smallcaps) i += 1;
    // [\"
    if (buf[i] !== 91 || buf[i + 1] !== BACKSLASH || buf[i + 2] !== QUOTE) return undefined;
    i += 3;
    const nameAt = i;
    let c = buf[i] as number;
    while (c !== BACKSLASH) {
      if (c < 32 || c === QUOTE || c > 126 || i >= sc.end) return undefined;
      c = buf[++i] as number;
    }
    // \", : the method is a plain string followed by its arguments.
    if (buf[i + 1] !== QUOTE || buf[i + 2] !== COMMA) return undefined;
    const body = `${smallcaps ? '#' : ''}["${buf.toString('latin1', nameAt, i)}",`;
    sc.pos = quote;
    if (!sc.skipStr() || !sc.lit(SLOTS) || !sc.skipValue() || buf[sc.pos] !== 125) return undefined;
    sc.pos += 1;
    let result: string | null | undefined;
    if (sc.lit(RESULT)) {
      if (sc.lit(NULL)) result = null;
      else if ((result = string()) === undefined) return undefined;
    }
    if (buf[sc.pos] !== 125) return undefined;
    sc.pos += 1;
    return result === undefined ? { methargs: { body } } : { methargs: { body }, result };
  }

  /** `N,"vatID":"V"` after `"crankNum":`. */
  function crankAndVat(): { crankNum: number; vatID: string } | undefined {
    const crankNum = sc.int();
    if (Number.isNaN(crankNum) || !sc.lit(VAT_ID)) return undefined;
    const vatID = sc.word();
    return vatID === undefined ? undefined : { crankNum, vatID };
  }

  /** The ksc after its name, cut to what the tables read. */
  function kscArgs(name: string): unknown[] | undefined {
    switch (name) {
      case 'send': {
        const target = nextString();
        if (target === undefined || !sc.lit(METHARGS_BODY)) return undefined;
        const msg = message();
        return msg && [name, target, msg];
      }
      case 'invoke':
      case 'callNow': {
        const target = nextString();
        const method = target === undefined ? undefined : nextString();
        return method === undefined ? undefined : [name, target, method];
      }
      case 'subscribe':
      case 'vatstoreGet':
      case 'vatstoreGetNextKey':
      case 'vatstoreSet':
      case 'vatstoreDelete':
      case 'vatstoreGetAfter': {
        const vat = nextString();
        const key = vat === undefined ? undefined : nextString();
        return key === undefined ? undefined : [name, vat, key];
      }
      case 'resolve': {
        const vat = nextString();
        if (vat === undefined || !sc.lit(FIRST_OF_LISTS)) return undefined;
        sc.pos -= 1;
        const promise = string();
        return promise === undefined ? undefined : [name, vat, [[promise]]];
      }
      case 'dropImports':
      case 'retireImports':
      case 'retireExports':
      case 'abandonExports': {
        if (sc.lit(EMPTY_LIST)) return [name, []];
        if (!sc.lit(FIRST_OF_LIST)) return undefined;
        sc.pos -= 1;
        const ref = string();
        return ref === undefined ? undefined : [name, [ref]];
      }
      default:
        return [name];
    }
  }

  function syscall(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, false);
    if (Number.isNaN(time) || !sc.lit(SYSCALL)) return undefined;
    const cv = crankAndVat();
    if (!cv || !sc.lit(DELIVERY_NUM)) return undefined;
    const deliveryNum = sc.int();
    if (Number.isNaN(deliveryNum) || !sc.lit(SYSCALL_NUM)) return undefined;
    const syscallNum = sc.int();
    if (Number.isNaN(syscallNum) || !sc.lit(REPLAY)) return undefined;
    const replay = sc.bool();
    if (replay === undefined || !sc.lit(SYSCALL_NAME)) return undefined;
    const syscallField = sc.word();
    if (syscallField === undefined || !sc.lit(KSC)) return undefined;
    const name = sc.word();
    const ksc = name === undefined ? undefined : kscArgs(name);
    if (!ksc || sc.pos > sc.tailStart) return undefined;
    return { type: 'syscall', crankNum: cv.crankNum, vatID: cv.vatID, deliveryNum, syscallNum, replay, syscall: syscallField, ksc, time };
  }

  function syscallResult(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, true);
    if (Number.isNaN(time) || !sc.lit(SYSCALL_RESULT)) return undefined;
    const cv = crankAndVat();
    if (!cv || !sc.lit(DELIVERY_NUM) || !sc.skipInt() || !sc.lit(SYSCALL_NUM) || !sc.skipInt()) return undefined;
    if (!sc.lit(REPLAY) || sc.bool() === undefined || !sc.lit(SYSCALL_NAME) || !sc.skipWord() || !sc.lit(KSR)) return undefined;
    const status = sc.word();
    if (status === undefined || sc.pos > sc.tailStart) return undefined;
    return { type: 'syscall-result', crankNum: cv.crankNum, vatID: cv.vatID, ksr: statusArray(status), time };
  }

  function deliver(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, false);
    if (Number.isNaN(time) || !sc.lit(DELIVER)) return undefined;
    const cv = crankAndVat();
    if (!cv || !sc.lit(DELIVERY_NUM)) return undefined;
    const deliveryNum = sc.int();
    if (Number.isNaN(deliveryNum) || !sc.lit(REPLAY)) return undefined;
    const replay = sc.bool();
    if (replay === undefined || !sc.lit(DISPATCH) || !sc.skipWord() || !sc.lit(KD)) return undefined;
    const kind = sc.word();
    if (kind === undefined) return undefined;
    let kd: unknown[];
    if (kind === 'message') {
      const target = nextString();
      if (target === undefined || !sc.lit(METHARGS_BODY)) return undefined;
      const msg = message();
      if (!msg) return undefined;
      kd = [kind, target, msg];
    } else if (kind === 'notify') {
      if (!sc.lit(FIRST_OF_LISTS)) return undefined;
      sc.pos -= 1;
      const promise = string();
      if (promise === undefined) return undefined;
      kd = [kind, [[promise]]];
    } else {
      kd = [kind];
    }
    if (sc.pos > sc.tailStart) return undefined;
    return { type: 'deliver', crankNum: cv.crankNum, vatID: cv.vatID, deliveryNum, replay, kd, time };
  }

  /** dr[2] then `]`: `{compute}` (the last "compute" member, as JSON.parse keeps), null, or false. */
  function usage(): { compute?: number } | null | false {
    const buf = sc.buf;
    if (sc.lit(NULL)) return buf[sc.pos++] === 93 ? NO_USAGE : false;
    if (buf[sc.pos] !== 123) return false;
    let compute: number | undefined;
    if (buf[sc.pos + 1] === 125) {
      sc.pos += 2;
    } else {
      do {
        sc.pos += 1;
        const keyAt = sc.pos;
        if (!sc.skipStr() || buf[sc.pos] !== 58) return false;
        const isCompute = sc.pos - keyAt === 9 && buf.toString('latin1', keyAt, sc.pos) === '"compute"';
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
      } while (buf[sc.pos] === COMMA);
      if (buf[sc.pos] !== 125) return false;
      sc.pos += 1;
    }
    if (buf[sc.pos++] !== 93) return false;
    return compute === undefined ? {} : { compute };
  }

  function deliverResult(start: number): SlogEntry | undefined {
    const time = sc.timeTail(start, true);
    if (Number.isNaN(time) || !sc.lit(DELIVER_RESULT)) return undefined;
    const cv = crankAndVat();
    if (!cv || !sc.lit(DELIVERY_NUM) || !sc.skipInt() || !sc.lit(REPLAY) || sc.bool() === undefined) return undefined;
    if (!sc.lit(DISPATCH) || !sc.skipWord() || !sc.lit(DR)) return undefined;
    const status = sc.word();
    if (status === undefined || sc.buf[sc.pos] !== COMMA) return undefined;
    sc.pos += 1;
    if (!sc.skipValue() || sc.buf[sc.pos] !== COMMA) return undefined;
    sc.pos += 1;
    const used = usage();
    if (used === false || sc.pos !== sc.tailStart) return undefined;
    return { type: 'deliver-result', crankNum: cv.crankNum, vatID: cv.vatID, dr: [status, undefined, used], time };
  }

  return (buf, start, end) => {
    switch (buf[start + 9]) {
      case 115: // s
        sc.reset(buf, start, end);
        if (buf[start + 16] === QUOTE) return syscall(start);
        return buf[start + 16] === 45 ? syscallResult(start) : undefined;
      case 100: // d
        sc.reset(buf, start, end);
        if (buf[start + 16] === QUOTE) return deliver(start);
        return buf[start + 16] === 45 ? deliverResult(start) : undefined;
      default:
        return others(buf, start, end);
    }
  };
}
