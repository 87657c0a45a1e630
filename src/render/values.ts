/**
 * Capdata to terse text: the value grammar of SLOG-FORMAT.md ("Values").
 *
 * A body starting with `#` is smallcaps; any other body is the legacy
 * encoding with `@qclass` records. Both print the same way. Every rendered
 * value, at any depth, longer than `bigWidth` characters prints as `<BIG>`.
 *
 * A big line's body may be a BigString (scan/big-string.ts): it is decoded
 * as its text is read back, the parts longer than `bigWidth` dropped as they
 * go by (scan/body-decoder.ts: BIG_VALUE, printed `<BIG>`).
 */
import { BigString, type BigTextScope } from '../scan/big-string.js';
import { BigValue, decodeBodyPieces, type BodyShape } from '../scan/body-decoder.js';
import { decodeBody, isCapData } from '../scan/capdata.js';
import { methodName } from '../scan/method-name.js';
import type { CapData, Ref } from '../scan/entry-types.js';
import { joinMapped } from './format.js';

/** How a slot (a kref or vref) is printed: `@ko12` or `<name>`. */
export type RefPrinter = (ref: Ref) => string;

export interface ValueContext {
  bigWidth: number;
  pref: RefPrinter;
  /** The text render's scope, whose sentinels stand for big strings in the text (none: there are none). */
  bigText?: BigTextScope;
}

const BIG = '<BIG>';
const UNINTELLIGIBLE = '<unintelligible value>';

function big(text: string, ctx: ValueContext): string {
  if (text.length > ctx.bigWidth) return BIG;
  // A BigString inside (as a sentinel, while a render prints it): its whole length counts.
  const scope = ctx.bigText;
  return scope?.holding && scope.expandedLength(text) > ctx.bigWidth ? BIG : text;
}

/** A capdata's decoded body; a BigString body decoded as its text is read back. Throws when the body is not JSON. */
function decoded(data: CapData, ctx: ValueContext, shape: BodyShape): { value: unknown; smallcaps: boolean } {
  const body = data.body as unknown;
  return body instanceof BigString ? decodeBodyPieces(body.pieces(), ctx.bigWidth, shape) : decodeBody(data);
}

/** String(value), where a value too long to have been kept prints as `<BIG>`. */
function asText(value: unknown): string {
  return value instanceof BigValue ? BIG : String(value);
}

function slotAt(slots: readonly Ref[], index: number, ctx: ValueContext): string {
  const ref = slots[index];
  return ref === undefined ? `<missing slot ${index}>` : ctx.pref(ref);
}

/** A smallcaps string: its first character tags what it is. */
function smallcapsString(val: string, slots: readonly Ref[], ctx: ValueContext): string {
  const rest = val.slice(1);
  switch (val.charAt(0)) {
    case '!':
      return JSON.stringify(rest);
    case '%':
      return `[${rest}]`;
    case '#':
    case '+':
      return rest;
    case '-':
      return `-${rest}`;
    case '$':
    case '&': {
      const dot = rest.indexOf('.');
      const index = Number(dot < 0 ? rest : rest.slice(0, dot));
      return slotAt(slots, index, ctx);
    }
    default:
      return JSON.stringify(val);
  }
}

function record(entries: Iterable<[string, unknown]>, slots: readonly Ref[], smallcaps: boolean, ctx: ValueContext): string {
  const parts: string[] = [];
  for (const [key, value] of entries) {
    parts.push(`${key}: ${renderValue(value, slots, smallcaps, ctx)}`);
  }
  return `{${parts.join(', ')}}`;
}

/** A legacy `@qclass` record, printed like its smallcaps twin. */
function qclassRecord(val: Record<string, unknown>, slots: readonly Ref[], ctx: ValueContext): string | undefined {
  const qclass = val['@qclass'];
  switch (qclass) {
    case 'undefined':
    case 'NaN':
    case 'Infinity':
    case '-Infinity':
      return qclass;
    case 'bigint':
      return asText(val.digits);
    case 'slot':
      return slotAt(slots, Number(val.index), ctx);
    case 'symbol':
      return val.name instanceof BigValue ? BIG : `[${String(val.name)}]`;
    case '@@asyncIterator':
      return '[Symbol.asyncIterator]';
    case 'error': {
      const rest = Object.entries(val).filter(([k]) => k !== '@qclass' && k !== 'message');
      return record([['#error', val.message], ...rest], slots, false, ctx);
    }
    case 'tagged':
      return record(
        [
          ['#tag', val.tag],
          ['payload', val.payload],
        ],
        slots,
        false,
        ctx,
      );
    case 'hilbert': {
      const rest = val.rest && typeof val.rest === 'object' ? Object.entries(val.rest) : [];
      return record([['@qclass', val.original], ...rest], slots, false, ctx);
    }
    default:
      return undefined;
  }
}

/** One decoded value (already `JSON.parse`d from a body) to text. */
export function renderValue(val: unknown, slots: readonly Ref[], smallcaps: boolean, ctx: ValueContext): string {
  if (val instanceof BigValue) return BIG;
  let text: string;
  if (Array.isArray(val)) {
    text = `[${joinMapped(val as unknown[], (v) => renderValue(v, slots, smallcaps, ctx), ', ')}]`;
  } else if (val !== null && typeof val === 'object') {
    const obj = val as Record<string, unknown>;
    const legacy = !smallcaps && '@qclass' in obj ? qclassRecord(obj, slots, ctx) : undefined;
    text = legacy ?? record(Object.entries(obj), slots, smallcaps, ctx);
  } else if (typeof val === 'string' && smallcaps) {
    text = smallcapsString(val, slots, ctx);
  } else {
    text = JSON.stringify(val) ?? UNINTELLIGIBLE;
  }
  return big(text, ctx);
}

/** A whole capdata value (a resolution, startVat parameters, an invoke result). */
export function renderCapData(data: unknown, ctx: ValueContext): string {
  if (!isCapData(data)) return big(JSON.stringify(data) ?? UNINTELLIGIBLE, ctx);
  try {
    const { value, smallcaps } = decoded(data, ctx, 'value');
    return renderValue(value, data.slots, smallcaps, ctx);
  } catch {
    return UNINTELLIGIBLE;
  }
}

/** `methargs` capdata (`[method, args]`) to `{ method, args }` text. */
export function renderMethargs(methargs: unknown, ctx: ValueContext): { method: string; args: string } {
  if (!isCapData(methargs)) return { method: '<unintelligible method>', args: '<unintelligible message args>' };
  try {
    const { value, smallcaps } = decoded(methargs, ctx, 'methargs');
    const [method, args] = value as [unknown, unknown[]];
    const argText = Array.isArray(args) ? joinMapped(args, (a) => renderValue(a, methargs.slots, smallcaps, ctx), ', ') : '';
    return { method: methodName(method, smallcaps), args: argText };
  } catch {
    return { method: '<unintelligible method>', args: '<unintelligible message args>' };
  }
}

/** Call arguments capdata (an array body), as for `invoke`. */
export function renderCallArgs(argsData: unknown, ctx: ValueContext): string {
  if (!isCapData(argsData)) return '<unintelligible call args>';
  try {
    const { value, smallcaps } = decoded(argsData, ctx, 'callArgs');
    if (!Array.isArray(value)) return renderValue(value, argsData.slots, smallcaps, ctx);
    return joinMapped(value, (a) => renderValue(a, argsData.slots, smallcaps, ctx), ', ');
  } catch {
    return '<unintelligible call args>';
  }
}
