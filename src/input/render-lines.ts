/**
 * Lines the text render does not need to parse.
 *
 * For a given set of render options some lines print nothing, or only a
 * number or two: a clist line under --nonoise, a vatstore syscall under
 * --novatstore (still counted, and timed, in its crank's header), a routing
 * crank under --nonoise, a crank-finish's hashes, an ok deliver-result
 * without --timing, a create-vat's source bundle. For those the line's start and end are read with a
 * regular expression into a small entry holding just what the renderer
 * reads, and the rest of the line is not parsed (so not checked either: a
 * corrupt line the options drop is not reported). Every other line, and any
 * line that does not have the slogger's usual shape, is parsed whole.
 *
 * test/fast-paths.test.ts checks that the text is the same, byte for byte,
 * with and without these shortcuts, on every shared slog and option set.
 */
import type { SlogEntry } from '../model/types.js';
import type { RenderOptions } from '../render/options.js';
import type { LineParser } from './entries.js';
import { parseLine } from './parse.js';

/** A JSON number (the grammar, so that Number() reads it as JSON.parse would). */
const NUM = '-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
/** A string without escapes. */
const STR = '"([^"\\\\\\u0000-\\u001f]*)"';

/** `,"time":T,"monotime":M` and maybe `,"seconds":S`, closing the line. */
const TIME_TAIL = new RegExp(`,"time":(${NUM}),"monotime":${NUM}(?:,"seconds":${NUM})?\\}$`, 'y');
const CRANK_FINISH = new RegExp(`^\\{"type":"crank-finish","crankType":${STR},"messageType":${STR},"crankNum":(0|[1-9]\\d*),`);
const ROUTING_START = /^\{"type":"crank-start","crankType":"routing","crankNum":(0|[1-9]\d*),/;
const CLIST = new RegExp(`^\\{"type":"clist","crankNum":${NUM},"mode":${STR},"vatID":${STR},`);
const OK_DELIVER_RESULT = new RegExp(`^\\{"type":"deliver-result","crankNum":${NUM},"vatID":${STR},"deliveryNum":${NUM},"replay":(?:true|false),"dispatch":${STR},"dr":\\["ok",`);
/** A vatstore syscall's start, up to its kernel-space name. */
const VATSTORE_SYSCALL = new RegExp(
  `^\\{"type":"syscall","crankNum":${NUM},"vatID":${STR},"deliveryNum":${NUM},"syscallNum":${NUM},"replay":(?:true|false),"syscall":"(vatstore[A-Za-z]*)","ksc":\\["(vatstore[A-Za-z]*)",`,
);
const VSC_NAME = /,"vsc":\["(vatstore[A-Za-z]*)",/;
const VATSTORE_RESULT = new RegExp(
  `^\\{"type":"syscall-result","crankNum":${NUM},"vatID":${STR},"deliveryNum":${NUM},"syscallNum":${NUM},"replay":(?:true|false),"syscall":"vatstore[A-Za-z]*",`,
);

/** The entry's time, read from the line's end; undefined unless the line ends as the slogger ends it. */
function timeOf(text: string): number | undefined {
  const at = text.lastIndexOf(',"time":');
  if (at < 0) return undefined;
  TIME_TAIL.lastIndex = at;
  const m = TIME_TAIL.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The JSON value between `"key":` and the next `,"stop":` (parsed, so checked); undefined if not there. */
function valueBetween(text: string, key: string, stop: string, from: number): unknown {
  const start = text.indexOf(`,"${key}":`, from);
  if (start < 0) return undefined;
  const valueAt = start + key.length + 4;
  const end = text.indexOf(`,"${stop}":`, valueAt);
  if (end < 0) return undefined;
  try {
    return JSON.parse(text.slice(valueAt, end));
  } catch {
    return undefined;
  }
}

/** Where the line being read will go: the assembler that will get its entry. */
export interface LineContext {
  readonly inCrank: boolean;
  readonly awaitingResult: boolean;
}

/**
 * The line parser for a text render with these options. `where` is the crank
 * assembler the entries go to, read as each line is: a small entry is only
 * made where the renderer is known to print nothing from the rest of it
 * (inside a crank; a syscall-result only for a waiting syscall). Elsewhere,
 * say a crank-finish without its crank-start, the renderer prints the whole
 * entry, so the whole line is parsed.
 */
export function renderLineParser(options: RenderOptions, where: LineContext): LineParser {
  const kernelSpace = !options.vatspace;
  const dropClist = options.nonoise || !options.clist;

  /** A small entry for a line the options need little of; undefined: parse it whole. */
  function lite(text: string): SlogEntry | undefined {
    if (!text.startsWith('{"type":"')) return undefined;
    if (text.startsWith('create-vat"', 9)) return createVat(text);
    if (!where.inCrank) {
      // Only a crank-start (which opens a crank whatever came before) may be small here.
      return options.nonoise && text.startsWith('crank-start"', 9) ? routingStart(text) : undefined;
    }
    switch (text.charCodeAt(9)) {
      case 99: {
        // c: crank-finish, crank-start, clist
        if (text.startsWith('crank-finish"', 9)) {
          // Its crank number and time; not the hashes.
          const m = CRANK_FINISH.exec(text);
          const time = m ? timeOf(text) : undefined;
          if (!m || time === undefined) return undefined;
          return { type: 'crank-finish', crankType: m[1], messageType: m[2], crankNum: Number(m[3]), time };
        }
        if (options.nonoise && text.startsWith('crank-start"', 9)) return routingStart(text);
        if (dropClist && text.startsWith('clist"', 9)) {
          // Prints nothing; its vat can name the crank's vat.
          const m = CLIST.exec(text);
          return m && timeOf(text) !== undefined ? { type: 'clist', vatID: m[2] } : undefined;
        }
        return undefined;
      }
      case 100: {
        // d: deliver-result. Prints nothing when ok; its computrons show only with --timing.
        if (options.timing || !text.startsWith('deliver-result"', 9)) return undefined;
        const m = OK_DELIVER_RESULT.exec(text);
        return m && timeOf(text) !== undefined ? { type: 'deliver-result', vatID: m[1], dispatch: m[2], dr: ['ok'] } : undefined;
      }
      case 115: {
        // s: syscall, syscall-result. Under --novatstore a vatstore syscall prints nothing
        // but a result that is not ok; it still counts, with its time, in the crank's figures.
        if (!options.novatstore) return undefined;
        if (text.startsWith('syscall"', 9)) {
          const m = VATSTORE_SYSCALL.exec(text);
          const time = m ? timeOf(text) : undefined;
          if (!m || time === undefined) return undefined;
          const entry: SlogEntry = { type: 'syscall', vatID: m[1], syscall: m[2], time };
          if (kernelSpace) {
            entry.ksc = [m[3]];
          } else {
            const v = VSC_NAME.exec(text);
            if (!v) return undefined;
            entry.vsc = [v[1]];
          }
          return entry;
        }
        if (text.startsWith('syscall-result"', 9)) {
          if (!where.awaitingResult) return undefined;
          const m = VATSTORE_RESULT.exec(text);
          const time = m ? timeOf(text) : undefined;
          if (!m || time === undefined) return undefined;
          const result = kernelSpace ? valueBetween(text, 'ksr', 'vsr', m[0].length - 1) : valueBetween(text, 'vsr', 'time', m[0].length - 1);
          if (!Array.isArray(result)) return undefined;
          return { type: 'syscall-result', vatID: m[1], [kernelSpace ? 'ksr' : 'vsr']: result, time };
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  return (text, unterminated) => lite(text) ?? parseLine(text, unterminated);
}

/**
 * A create-vat entry without its source bundle (a megabyte of base64 the
 * renderer never reads). The rest is parsed as usual: the line with the
 * bundle cut out must still be valid JSON, which holds only when the cut was
 * at the top level of the entry.
 */
function createVat(text: string): SlogEntry | undefined {
  const at = text.indexOf(',"vatSourceBundle":{');
  const end = text.lastIndexOf(',"time":');
  if (at < 0 || end < at || timeOf(text) === undefined) return undefined;
  try {
    const entry = JSON.parse(text.slice(0, at) + text.slice(end)) as SlogEntry;
    return entry !== null && typeof entry === 'object' && entry.type === 'create-vat' ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** Under --nonoise a routing crank prints nothing: its number and type shape the cranks. A create-vat message teaches a name. */
function routingStart(text: string): SlogEntry | undefined {
  const m = ROUTING_START.exec(text);
  if (!m || timeOf(text) === undefined || text.includes('"create-vat"')) return undefined;
  return { type: 'crank-start', crankType: 'routing', crankNum: Number(m[1]) };
}
