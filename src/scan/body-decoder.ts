/**
 * A capdata body too big to hold, decoded as its text streams by: the value
 * JSON.parse would give, but for the parts the render would print as
 * `<BIG>` (SLOG-FORMAT.md, "Values": every rendered value longer than
 * `bigWidth` characters), which are replaced by BIG_VALUE as soon as that
 * is certain, their text never kept.
 *
 * Certain means: a lower bound of the value's rendered length is over the
 * width. A string of n characters renders to at least n-1 (`#x` and `+x`
 * drop their tag; none is shorter), but a smallcaps `$N.iface` or `&N` is a
 * reference, printed as its slot: only its `$N.` is kept. A number, true,
 * false, null render as JSON. An array or record renders to its brackets,
 * its separators (`, `, and `key: ` for a record), and each element, which
 * is itself either its own text or the 5 characters of `<BIG>`.
 *
 * Some values are printed other than as one value, and are kept whole or
 * kept open (their elements still collapsed one by one):
 * - a methargs body `[method, args]` (`shape: 'methargs'`): the method is
 *   printed by name, whatever its length (kept whole); the top array and
 *   its args list are taken apart (kept open); a body that is a string is
 *   taken apart into its first two characters (its first 8 are kept);
 * - call arguments (`shape: 'callArgs'`): the top array is taken apart;
 * - a legacy (non-smallcaps) record may be a `@qclass` record, printed as
 *   what that says whatever its other keys: records are kept open, and
 *   their `@qclass` and `index` (a slot's number) whole.
 *
 * Known differences from JSON.parse, none of which a kernel writes: a
 * record with a repeated key may be counted as longer than it is; a `$` or
 * `&` string whose slot number runs past 64K characters prints as a missing
 * slot; stream-json takes any white space (U+00A0...) between tokens, where
 * JSON.parse takes only space, tab, CR and LF.
 */
import { JsonTokens, type JsonToken } from './json-tokens.js';

/** A value whose rendering is certainly longer than the width: it prints as `<BIG>`. */
export class BigValue {
  toString(): string {
    return '<BIG>';
  }
}

export const BIG_VALUE = new BigValue();

/** How the body's value is printed: as one value, as call arguments, or as `[method, args]`. */
export type BodyShape = 'value' | 'callArgs' | 'methargs';

/** What `<BIG>` adds to its container. */
const BIG_TEXT = 5;
/** The slot-number part of a `$N.iface` / `&N` string kept at most. */
const SLOT_CHARS = 1 << 16;

/**
 * How a node may be replaced by BIG_VALUE: `free` (when its lower bound is
 * over the width), `open` (never, its elements free), `whole` (never, nor
 * anything in it), `methargs` (the top of a methargs body: open, its
 * element 0 whole, element 1 open).
 */
type Role = 'free' | 'open' | 'whole' | 'methargs';

interface Frame {
  array: boolean;
  /** The value built (undefined once collapsed). */
  value: unknown[] | Record<string, unknown> | undefined;
  role: Role;
  collapsible: boolean;
  key: string;
  count: number;
  /** The lower bound of its rendered length so far. */
  low: number;
  /** Inside a collapsed frame: how deep the skipped containers go. */
  skipDepth: number;
}

function setKey(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/** Decodes a body pushed piece by piece: `write` each piece of its text, then `end`. */
export class BodyDecoder {
  private smallcaps: boolean | undefined;
  private readonly tokens: JsonTokens;
  private readonly stack: Frame[] = [];
  private result: unknown;
  // The string being read.
  private str = '';
  private strLength = 0;
  private strRole: Role = 'free';
  private strCollapsed = false;
  private strSlot = false;
  private strSkipped = false;

  constructor(
    private readonly width: number,
    private readonly shape: BodyShape,
  ) {
    this.tokens = new JsonTokens((token) => this.token(token));
  }

  write(text: string): void {
    if (this.smallcaps === undefined) {
      if (text.length === 0) return;
      this.smallcaps = text.charCodeAt(0) === 35; // '#'
      if (this.smallcaps) text = text.slice(1);
    }
    this.tokens.write(text);
  }

  /** The decoded value; throws (JsonTokenError) when the body is not JSON. */
  end(): { value: unknown; smallcaps: boolean } {
    this.tokens.end();
    return { value: this.result, smallcaps: this.smallcaps === true };
  }

  /** The role of the value starting now in the top frame (or at the top). */
  private childRole(isArray: boolean): Role {
    const parent = this.stack[this.stack.length - 1];
    if (parent === undefined) {
      if (this.shape === 'methargs') return isArray ? 'methargs' : 'free';
      if (this.shape === 'callArgs') return isArray ? 'open' : 'free';
      return 'free';
    }
    // A legacy @qclass record is told by its `@qclass`, and a slot's by its `index`: kept as they are.
    if (!parent.array && !this.smallcaps && (parent.key === '@qclass' || parent.key === 'index')) return 'whole';
    switch (parent.role) {
      case 'whole':
        return 'whole';
      case 'methargs':
        return parent.count === 0 ? 'whole' : parent.count === 1 ? 'open' : 'free';
      default:
        return 'free';
    }
  }

  /** Is the top frame collapsed (its contents skipped)? */
  private skipping(): boolean {
    const top = this.stack[this.stack.length - 1];
    return top !== undefined && top.value === undefined;
  }

  private token(token: JsonToken): void {
    switch (token.name) {
      case 'startObject':
      case 'startArray': {
        const array = token.name === 'startArray';
        if (this.skipping()) {
          (this.stack[this.stack.length - 1] as Frame).skipDepth += 1;
          return;
        }
        const role = this.childRole(array);
        // A legacy record may be a @qclass record: never collapsed.
        const collapsible = role === 'free' && (array || this.smallcaps === true);
        this.stack.push({ array, value: array ? [] : {}, role, collapsible, key: '', count: 0, low: 2, skipDepth: 0 });
        return;
      }
      case 'endObject':
      case 'endArray': {
        const top = this.stack[this.stack.length - 1] as Frame;
        if (top.value === undefined && top.skipDepth > 0) {
          top.skipDepth -= 1;
          return;
        }
        this.stack.pop();
        if (top.value === undefined) this.add(BIG_VALUE, BIG_TEXT);
        // A @qclass record may print as little as nothing (a bigint of no digits): no bound.
        else this.add(top.value, !top.array && !this.smallcaps && '@qclass' in top.value ? 0 : top.low);
        return;
      }
      case 'keyValue':
        if (!this.skipping()) (this.stack[this.stack.length - 1] as Frame).key = token.value as string;
        return;
      case 'startString':
        this.str = '';
        this.strLength = 0;
        this.strSkipped = this.skipping();
        this.strRole = this.strSkipped ? 'free' : this.childRole(false);
        this.strCollapsed = false;
        this.strSlot = false;
        return;
      case 'stringChunk':
        if (!this.strSkipped) this.stringChunk(token.value as string);
        return;
      case 'endString':
        if (!this.strSkipped) this.endString();
        return;
      case 'numberValue':
        if (!this.skipping()) {
          const n = Number(token.value);
          this.add(n, (JSON.stringify(n) as string).length);
        }
        return;
      case 'trueValue':
        if (!this.skipping()) this.add(true, 4);
        return;
      case 'falseValue':
        if (!this.skipping()) this.add(false, 5);
        return;
      case 'nullValue':
        if (!this.skipping()) this.add(null, 4);
        return;
      default:
        return;
    }
  }

  private stringChunk(chunk: string): void {
    const first = this.strLength === 0;
    this.strLength += chunk.length;
    if (this.strCollapsed) return;
    if (first && this.smallcaps && (chunk.charCodeAt(0) === 36 || chunk.charCodeAt(0) === 38)) this.strSlot = true; // '$' '&'
    if (this.strRole === 'whole') {
      this.str += chunk;
      return;
    }
    if (this.stack.length === 0 && this.shape === 'methargs') {
      // A methargs body that is a string: taken apart into its first two characters.
      if (this.str.length < 8) this.str += chunk.slice(0, 8 - this.str.length);
      return;
    }
    if (this.strSlot) {
      // `$N.iface`: the reference prints as slot N, whatever the rest.
      const dot = chunk.indexOf('.');
      if (dot >= 0) {
        this.str += chunk.slice(0, dot + 1);
        this.strCollapsed = true;
      } else if (this.str.length + chunk.length > SLOT_CHARS) {
        this.str = `${this.str.charAt(0)}x`;
        this.strCollapsed = true;
      } else this.str += chunk;
      return;
    }
    if (this.strLength - 1 > this.width) {
      this.str = '';
      this.strCollapsed = true;
      return;
    }
    this.str += chunk;
  }

  private endString(): void {
    const value = this.str;
    this.str = '';
    if (this.strSlot) {
      this.add(value, 0);
      return;
    }
    if (this.strCollapsed) {
      this.add(BIG_VALUE, BIG_TEXT);
      return;
    }
    this.add(value, Math.max(0, this.strLength - 1));
  }

  /** A value ended: into its container (collapsing the container once its bound is over the width). */
  private add(value: unknown, low: number): void {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) {
      this.result = value;
      return;
    }
    if (top.value === undefined) return;
    if (top.array) (top.value as unknown[]).push(value);
    else setKey(top.value as Record<string, unknown>, top.key, value);
    top.low += Math.min(low, BIG_TEXT) + (top.count > 0 ? 2 : 0) + (top.array ? 0 : top.key.length + 2);
    top.count += 1;
    if (top.collapsible && top.low > this.width) top.value = undefined;
  }
}

/** Decodes a whole body given as pieces of its text. Throws JsonTokenError when it is not JSON. */
export function decodeBodyPieces(pieces: Iterable<string>, width: number, shape: BodyShape): { value: unknown; smallcaps: boolean } {
  const decoder = new BodyDecoder(width, shape);
  for (const piece of pieces) decoder.write(piece);
  return decoder.end();
}

/**
 * A body read at scan time for its method only (big-line.ts, for a consumer
 * that reads a delivery's method but not the delivery): its first
 * HEAD_CHARS characters (scan/method-name.ts looks for the method there
 * first, as in a body held whole) and its value with nothing kept but the
 * method, or undefined when the body is not JSON.
 */
export class DecodedBody {
  constructor(
    readonly head: string,
    readonly decoded: { value: unknown; smallcaps: boolean } | undefined,
  ) {}
}
