/**
 * Small entries for the text render, read from lines in the slogger's usual
 * shape (render-lines.ts says when they are used). A line is matched with
 * patterns that follow its keys in the order the kernel writes them
 * (line-scan.ts); the values the render reads with these options are read,
 * the others skipped, and the line's end checked. Anything unexpected gives
 * undefined: the line is then parsed whole.
 *
 * Each reader first tries one pattern for the whole line in its most usual
 * shape (a syscall whose arguments are strings, an ok result...), then reads
 * it step by step: the line's start, a nested value JSON.parse'd from its
 * slice, what follows it skipped (checked only not to repeat a key read),
 * the line's end.
 *
 * What the render reads of each entry (src/model/assembler.ts and
 * src/render/*), hence what the entries hold:
 * - syscall: vatID (it can name the crank's vat), time (the syscall's
 *   duration, printed only with --timing), and `ksc`, or `vsc` with
 *   --vatspace; of a vatstore syscall under --novatstore only the name is
 *   printed: `[name]`.
 * - syscall-result (for a waiting syscall): time (idem), and `ksr` (`vsr`);
 *   for a vatstore syscall under --novatstore only a status other than ok
 *   is printed: `['ok']` for an ok one.
 * - deliver: vatID and `kd` (`vd`).
 * - deliver-result: vatID and `dr`; of an ok one without --timing only the
 *   status: `['ok']` (its usage gives the computrons of --timing).
 * - crank-start: crankType, crankNum, time (printed in crank-finish lines,
 *   and in headers with --timing; never with --no-times) and the message
 *   (its type and vatID; a create-vat message, which names a vat, is
 *   parsed whole).
 * - crank-finish: crankNum and time (idem).
 * - clist: mode, vatID, kobj, vobj.
 * - create-vat: all but its source bundle.
 *
 * A time that is not printed is left undefined (the line's end is checked
 * all the same). Any other type of line, and these outside a crank (but a
 * crank-start or a create-vat), are parsed whole.
 */
import type { SlogEntry, SyscallEntry } from '../model/types.js';
import type { RenderOptions } from '../render/options.js';
import {
  BOOL,
  capturedTime,
  decoded,
  ESC_STR,
  jsonNumber,
  lacksKeys,
  NUM,
  parseSlice,
  SKIP_STR,
  STR,
  tailStart,
  tailTime,
  toTheEnd,
} from './line-scan.js';
import type { LineContext } from './render-lines.js';

const sticky = (source: string): RegExp => new RegExp(source, 'y');

/** One to four strings, captured (as in a vatstore syscall's ksc). */
const STRINGS_INNER = `${ESC_STR}(?:,${ESC_STR})?(?:,${ESC_STR})?(?:,${ESC_STR})?`;
const STRINGS = `\\[${STRINGS_INNER}\\]`;
const SKIP_STRINGS = `\\[${SKIP_STR}(?:,${SKIP_STR})*\\]`;
/** Under --novatstore: a vatstore syscall's name captured, its arguments skipped; or else STRINGS. */
const VATSTORE_OR_STRINGS = `\\[(?:"(vatstore[^"\\\\\\u0000-\\u001f]*)"(?:,${SKIP_STR})*|${STRINGS_INNER})\\]`;

/** Up to `"ksc":`; captures vatID. */
const SYSCALL_HEAD = `\\{"type":"syscall","crankNum":${NUM},"vatID":${STR},"deliveryNum":${NUM},"syscallNum":${NUM},"replay":${BOOL},"syscall":${SKIP_STR},"ksc":`;
/** Up to `"ksr":`. */
const RESULT_HEAD = `\\{"type":"syscall-result","crankNum":${NUM},"vatID":${SKIP_STR},"deliveryNum":${NUM},"syscallNum":${NUM},"replay":${BOOL},"syscall":${SKIP_STR},"ksr":`;
/** The usual result, `["ok",null]` or `["ok","string"]`; its string captured. */
const OK_RESULT = `\\["ok",(?:null|${ESC_STR})\\]`;
const SKIP_OK_RESULT = `\\["ok",(?:null|${SKIP_STR})\\]`;
/** Up to `"kd":`; captures vatID. */
const DELIVER_HEAD = `\\{"type":"deliver","crankNum":${NUM},"vatID":${STR},"deliveryNum":${NUM},"replay":${BOOL},"dispatch":${SKIP_STR},"kd":`;
/** Up to `"dr":`; captures vatID. */
const DELIVER_RESULT_HEAD = `\\{"type":"deliver-result","crankNum":${NUM},"vatID":${STR},"deliveryNum":${NUM},"replay":${BOOL},"dispatch":${SKIP_STR},"dr":`;
/** Up to `"message":`; captures crankType and crankNum. */
const CRANK_START_HEAD = `\\{"type":"crank-start","crankType":${STR},"crankNum":(${NUM}),"messageType":${SKIP_STR},"message":`;
/** The usual messages: `{type, vatID?}`, a send's `{type, target, msg}`, a notify's `{type, vatID, kpid}`; captures type and vatID. */
const MESSAGE = `\\{"type":${STR}(?:,"vatID":${STR})?(?:,"target":${SKIP_STR},"msg":\\{"methargs":\\{"body":${SKIP_STR},"slots":\\[(?:${SKIP_STR}(?:,${SKIP_STR})*)?\\]\\},"result":(?:${SKIP_STR}|null)\\}|,"kpid":${SKIP_STR})?\\}`;

const SYSCALL = sticky(SYSCALL_HEAD);
const SYSCALL_RESULT = sticky(RESULT_HEAD);
const DELIVER = sticky(DELIVER_HEAD);
const DELIVER_BRING_OUT_YOUR_DEAD = toTheEnd(`${DELIVER_HEAD}\\["bringOutYourDead"\\],"vd":\\["bringOutYourDead"\\]`);
const DELIVER_RESULT = sticky(DELIVER_RESULT_HEAD);
const DELIVER_RESULT_OK = toTheEnd(`${DELIVER_RESULT_HEAD}\\["ok",null,null\\]`);
/** An ok status, the rest unread. */
const OK_HEAD = sticky('\\["ok",');
const CRANK_START = sticky(CRANK_START_HEAD);
const CRANK_START_USUAL = toTheEnd(CRANK_START_HEAD + MESSAGE);
/** Captures crankNum. */
const CRANK_FINISH = toTheEnd(
  `\\{"type":"crank-finish","crankType":${SKIP_STR},"messageType":${SKIP_STR},"crankNum":(${NUM}),"crankhash":${SKIP_STR},"activityhash":${SKIP_STR}`,
);
/** Captures mode, vatID, kobj, vobj. */
const CLIST = toTheEnd(`\\{"type":"clist","crankNum":${NUM},"mode":${STR},"vatID":${STR},"kobj":${STR},"vobj":${STR}`);

/** Keys read from a line, looked for again in what is skipped after them (lacksKeys). */
const SYSCALL_KEYS = ['type"', 'vatID"', 'ksc"'];
const RESULT_KEYS = ['type"', 'ksr"'];
const DELIVER_KEYS = ['type"', 'vatID"', 'kd"'];
const DELIVER_RESULT_KEYS = ['type"', 'vatID"', 'dr"'];
const TYPE_KEYS = ['type"', 'vatID"'];

const S = 0x73;
const C = 0x63;
const D = 0x64;
const DASH = 0x2d;

export class LiteReader {
  private readonly kernelSpace: boolean;
  private readonly novatstore: boolean;
  private readonly timing: boolean;
  /** Are syscall times printed (--timing), and crank times (crank-finish lines, --timing headers)? */
  private readonly syscallTimes: boolean;
  private readonly crankTimes: boolean;
  /** A syscall line whose ksc (vsc) is strings, or under --novatstore a vatstore syscall. */
  private readonly syscallLine: RegExp;
  /** Where syscallLine's captures start: the vatstore name (under --novatstore), then the strings. */
  private readonly nameGroup: number;
  private readonly stringsGroup: number;
  private readonly resultLine: RegExp;

  constructor(
    options: RenderOptions,
    private readonly where: LineContext,
  ) {
    this.kernelSpace = !options.vatspace;
    this.novatstore = options.novatstore;
    this.timing = options.timing;
    this.syscallTimes = options.timing && !options.noTimes;
    this.crankTimes = !options.noTimes && (options.timing || !options.nonoise);
    const call = this.novatstore ? VATSTORE_OR_STRINGS : STRINGS;
    this.syscallLine = toTheEnd(
      this.kernelSpace ? `${SYSCALL_HEAD}${call},"vsc":${SKIP_STRINGS}` : `${SYSCALL_HEAD}${SKIP_STRINGS},"vsc":${call}`,
      this.syscallTimes,
    );
    this.nameGroup = this.novatstore ? 2 : 0;
    this.stringsGroup = this.novatstore ? 3 : 2;
    this.resultLine = toTheEnd(
      this.kernelSpace ? `${RESULT_HEAD}${OK_RESULT},"vsr":${SKIP_OK_RESULT}` : `${RESULT_HEAD}${SKIP_OK_RESULT},"vsr":${OK_RESULT}`,
      this.syscallTimes,
    );
  }

  /** A small entry for the line, or undefined: parse it whole. */
  read(text: string): SlogEntry | undefined {
    // The type's letters pick the reader (`{"type":"` is at 0); its patterns check the rest.
    const where = this.where;
    switch (text.charCodeAt(9)) {
      case S:
        if (!where.inCrank) return undefined;
        // syscall" or syscall-result"
        if (text.charCodeAt(16) !== DASH) return this.syscall(text);
        return where.awaitingResult ? this.syscallResult(text) : undefined;
      case C:
        switch (text.charCodeAt(11)) {
          case 0x61: // cra: a crank-start opens a crank whatever came before
            if (text.charCodeAt(15) === S) return crankStart(text, this.crankTimes);
            return where.inCrank ? crankFinish(text, this.crankTimes) : undefined;
          case 0x65: // cre
            return createVat(text);
          case 0x69: // cli
            return where.inCrank ? clist(text) : undefined;
          default:
            return undefined;
        }
      case D:
        if (!where.inCrank) return undefined;
        // deliver" or deliver-result"
        return text.charCodeAt(16) === DASH ? this.deliverResult(text) : this.deliver(text);
      default:
        return undefined;
    }
  }

  private syscall(text: string): SlogEntry | undefined {
    const line = this.syscallLine;
    line.lastIndex = 0;
    const m = line.exec(text);
    if (m !== null) {
      const name = m[this.nameGroup];
      const call = this.nameGroup > 0 && name !== undefined ? [name] : strings(m, this.stringsGroup);
      if (call === undefined) return undefined;
      const time = this.syscallTimes ? capturedTime(m) : undefined;
      return this.kernelSpace ? { type: 'syscall', vatID: m[1], ksc: call, time } : { type: 'syscall', vatID: m[1], vsc: call, time };
    }
    SYSCALL.lastIndex = 0;
    const head = SYSCALL.exec(text);
    if (head === null) return undefined;
    const vatID = head[1];
    const at = SYSCALL.lastIndex;
    const vscAt = text.indexOf(',"vsc":', at);
    const tailAt = tailStart(text);
    if (this.kernelSpace) {
      const ksc = parseArray(text, at, vscAt);
      if (ksc === undefined || !lacksKeys(text, vscAt, tailAt, SYSCALL_KEYS)) return undefined;
      const time = tailTime(text, tailAt);
      return time === time ? { type: 'syscall', vatID, ksc, time } : undefined;
    }
    if (vscAt < 0 || !lacksKeys(text, at, vscAt, TYPE_KEYS)) return undefined;
    const vsc = parseArray(text, vscAt + 7, tailAt);
    const time = tailTime(text, tailAt);
    return vsc !== undefined && time === time ? { type: 'syscall', vatID, vsc, time } : undefined;
  }

  private syscallResult(text: string): SlogEntry | undefined {
    // Under --novatstore a vatstore syscall's result prints only when its status is not ok.
    const statusOnly = this.novatstore && this.vatstorePending();
    const line = this.resultLine;
    line.lastIndex = 0;
    const m = line.exec(text);
    if (m !== null) {
      const result = statusOnly ? ['ok'] : okResult(m[1]);
      if (result === undefined) return undefined;
      const time = this.syscallTimes ? capturedTime(m) : undefined;
      return this.kernelSpace ? { type: 'syscall-result', ksr: result, time } : { type: 'syscall-result', vsr: result, time };
    }
    SYSCALL_RESULT.lastIndex = 0;
    if (!SYSCALL_RESULT.test(text)) return undefined;
    const at = SYSCALL_RESULT.lastIndex;
    const vsrAt = text.indexOf(',"vsr":', at);
    const tailAt = tailStart(text);
    if (this.kernelSpace) {
      const ksr = parseSlice(text, at, vsrAt);
      if (ksr === undefined || !lacksKeys(text, vsrAt, tailAt, RESULT_KEYS)) return undefined;
      const time = tailTime(text, tailAt);
      return time === time ? { type: 'syscall-result', ksr, time } : undefined;
    }
    if (vsrAt < 0 || !lacksKeys(text, at, vsrAt, RESULT_KEYS)) return undefined;
    const vsr = parseSlice(text, vsrAt + 7, tailAt);
    const time = tailTime(text, tailAt);
    return vsr !== undefined && time === time ? { type: 'syscall-result', vsr, time } : undefined;
  }

  /** Is the waiting syscall a vatstore one, as the render names it (a vatstore... name prints no result value)? */
  private vatstorePending(): boolean {
    const call: SyscallEntry | undefined = this.where.pendingSyscall;
    const args = call && (this.kernelSpace ? call.ksc : call.vsc);
    const name = Array.isArray(args) ? args[0] : undefined;
    return typeof name === 'string' && name.startsWith('vatstore');
  }

  private deliver(text: string): SlogEntry | undefined {
    DELIVER_BRING_OUT_YOUR_DEAD.lastIndex = 0;
    const bringOut = DELIVER_BRING_OUT_YOUR_DEAD.exec(text);
    if (bringOut !== null) {
      const delivery = ['bringOutYourDead'];
      return this.kernelSpace ? { type: 'deliver', vatID: bringOut[1], kd: delivery } : { type: 'deliver', vatID: bringOut[1], vd: delivery };
    }
    DELIVER.lastIndex = 0;
    const head = DELIVER.exec(text);
    if (head === null) return undefined;
    const vatID = head[1];
    const at = DELIVER.lastIndex;
    const vdAt = text.indexOf(',"vd":', at);
    const tailAt = tailStart(text);
    if (this.kernelSpace) {
      const kd = parseSlice(text, at, vdAt);
      if (kd === undefined || !lacksKeys(text, vdAt, tailAt, DELIVER_KEYS)) return undefined;
      const time = tailTime(text, tailAt);
      return time === time ? { type: 'deliver', vatID, kd } : undefined;
    }
    if (vdAt < 0 || !lacksKeys(text, at, vdAt, TYPE_KEYS)) return undefined;
    const vd = parseSlice(text, vdAt + 6, tailAt);
    const time = tailTime(text, tailAt);
    return vd !== undefined && time === time ? { type: 'deliver', vatID, vd } : undefined;
  }

  private deliverResult(text: string): SlogEntry | undefined {
    DELIVER_RESULT_OK.lastIndex = 0;
    const ok = DELIVER_RESULT_OK.exec(text);
    if (ok !== null) return { type: 'deliver-result', vatID: ok[1], dr: ['ok', null, null] };
    DELIVER_RESULT.lastIndex = 0;
    const head = DELIVER_RESULT.exec(text);
    if (head === null) return undefined;
    const vatID = head[1];
    const at = DELIVER_RESULT.lastIndex;
    const tailAt = tailStart(text);
    let dr: unknown;
    OK_HEAD.lastIndex = at;
    if (!this.timing && OK_HEAD.test(text)) {
      // Ok, and no computrons to print: nothing more is read.
      if (!lacksKeys(text, at, tailAt, DELIVER_RESULT_KEYS)) return undefined;
      dr = ['ok'];
    } else {
      dr = parseSlice(text, at, tailAt);
    }
    const time = tailTime(text, tailAt);
    return dr !== undefined && time === time ? { type: 'deliver-result', vatID, dr } : undefined;
  }
}

/** The strings captured from group `first` on, decoded; undefined when an escape is invalid. */
function strings(m: RegExpExecArray, first: number): unknown[] | undefined {
  const out: unknown[] = [];
  for (let i = first; i < first + 4; i += 1) {
    const content = m[i];
    if (content === undefined) break;
    const value = decoded(content);
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}

/** `["ok", value]` from OK_RESULT's capture (absent: null). */
function okResult(content: string | undefined): unknown[] | undefined {
  if (content === undefined) return ['ok', null];
  const value = decoded(content);
  return value === undefined ? undefined : ['ok', value];
}

function parseArray(text: string, start: number, end: number): unknown[] | undefined {
  const value = parseSlice(text, start, end);
  return Array.isArray(value) ? value : undefined;
}

/** `times`: are crank times printed (else the time is only checked to be there)? */
function crankStart(text: string, times: boolean): SlogEntry | undefined {
  CRANK_START_USUAL.lastIndex = 0;
  const m = CRANK_START_USUAL.exec(text);
  if (m !== null) {
    const type = m[3] as string;
    // A create-vat message names a vat: parsed whole.
    if (type === 'create-vat') return undefined;
    const vatID = m[4];
    const message = vatID === undefined ? { type } : { type, vatID };
    return { type: 'crank-start', crankType: m[1], crankNum: jsonNumber(m[2] as string, 0), message, time: times ? capturedTime(m) : undefined };
  }
  CRANK_START.lastIndex = 0;
  const head = CRANK_START.exec(text);
  if (head === null) return undefined;
  const at = CRANK_START.lastIndex;
  const tailAt = tailStart(text);
  const message = parseSlice(text, at, tailAt);
  if (message === undefined || (message !== null && typeof message === 'object' && (message as { type?: unknown }).type === 'create-vat')) {
    return undefined;
  }
  const time = tailTime(text, tailAt);
  return time === time ? { type: 'crank-start', crankType: head[1], crankNum: jsonNumber(head[2] as string, 0), message, time } : undefined;
}

function crankFinish(text: string, times: boolean): SlogEntry | undefined {
  CRANK_FINISH.lastIndex = 0;
  const m = CRANK_FINISH.exec(text);
  return m === null ? undefined : { type: 'crank-finish', crankNum: jsonNumber(m[1] as string, 0), time: times ? capturedTime(m) : undefined };
}

function clist(text: string): SlogEntry | undefined {
  CLIST.lastIndex = 0;
  const m = CLIST.exec(text);
  return m === null ? undefined : { type: 'clist', mode: m[1], vatID: m[2], kobj: m[3], vobj: m[4] };
}

/**
 * A create-vat entry without its source bundle (a megabyte of base64 the
 * renderer never reads). The rest is parsed as usual: the line with the
 * bundle cut out must still be valid JSON, which holds only when the cut was
 * at the top level of the entry.
 */
function createVat(text: string): SlogEntry | undefined {
  if (!text.startsWith('{"type":"create-vat"')) return undefined;
  const at = text.indexOf(',"vatSourceBundle":{');
  const end = text.lastIndexOf(',"time":');
  if (at < 0 || end < at) return undefined;
  const time = tailTime(text, end);
  if (time !== time) return undefined;
  try {
    const entry = JSON.parse(text.slice(0, at) + text.slice(end)) as SlogEntry;
    return entry !== null && typeof entry === 'object' && entry.type === 'create-vat' ? entry : undefined;
  } catch {
    return undefined;
  }
}
