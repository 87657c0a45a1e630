/**
 * A big line (source/lines.ts `BigLine`: over the big-line threshold) to
 * its entry, from a stream of JSON tokens (json-tokens.ts), without the
 * line ever being held whole: the entry JSON.parse and the plain path
 * (plain-reader.ts) would give, with what the consumer does not read left
 * out as it streams by.
 *
 * What is built:
 * - of a crank entry (the seven crank types), the fields the consumer's
 *   reads need (reads.ts), as the plain path fills them: a syscall's `ksc`
 *   only when it is read (else its name), a delivery's `kd` likewise (or,
 *   for a consumer that reads its method only, the method: its body is
 *   decoded as it streams by, body-decoder.ts, keeping nothing else; for one
 *   that reads its target, result promise or method, call-heads.ts, those
 *   pieces of it), the
 *   vat-space forms only where read, a crank-start's message only when read;
 * - of any other entry, everything, but a create-vat's source bundle;
 * - a string over BIG_STRING_CHARS, when the consumer takes BigStrings
 *   (`bigStrings`: the render, stats, top), as a BigString, its text in a
 *   spool (big-string.ts) rather than in memory; else as a string.
 * So what stays in memory is the line's structure and its small values,
 * and nothing at all of the parts the consumer does not read.
 *
 * A line that is not JSON is a BadLine, as on the plain path, with
 * stream-json's reason; a contextual line (`{"body": entry, ...}`) is read
 * as the plain path reads it (when its `type`, or its `body`, comes before
 * the big parts, as writers put them). A line whose `type` comes twice
 * (another one), or after its `body`, once a field was read in part for
 * what was known before, is a BadLine (READ_AMISS): JSON.parse would give
 * the last `type`'s entry, with fields that streamed by unkept. A line
 * nested over MAX_DEPTH deep is a BadLine too (TOO_DEEP): memory stays
 * bounded.
 */
import type { BigLine } from '../source/lines.js';
import { BIG_STRING_CHARS, BigString, HEAD_CHARS, Spool, type BigTextScope } from './big-string.js';
import { BodyDecoder, DecodedBody } from './body-decoder.js';
import { isCrankEntryType, type SlogEntry } from './entry-types.js';
import { JsonTokens, type JsonToken } from './json-tokens.js';
import { methodInHead } from './method-name.js';
import { BadLine, entryOf, oneLine } from './plain-reader.js';
import { callHeads, HEAD_FIRST_LIST, HEAD_FIRST_OF_FIRST, HEAD_MESSAGE } from './call-heads.js';
import type { FieldMask, ReadPlan } from './read-plan.js';
import type { FieldsByType } from './reads.js';

export interface BigLineOptions {
  /** Strings over BIG_STRING_CHARS as BigStrings (the consumer copes with them), rather than strings. */
  bigStrings: boolean;
  /** The scope the BigStrings print in (the text render's; big-string.ts). */
  printedIn?: BigTextScope;
}

/** How a value is read: skipped, built, read as a body for its method, or a container read by a policy. */
type Spec = 'skip' | 'value' | 'probe' | Policy;

/** How the elements of an array or record are read. */
interface Policy {
  child(frame: Frame): Spec;
  /** Told of each element built (records: under `frame.key`). */
  added?(frame: Frame, value: unknown): void;
}

interface Frame {
  array: boolean;
  /** The value built; undefined for a skipped container. */
  value: unknown[] | Record<string, unknown> | undefined;
  policy: Policy;
  key: string;
  /** Elements seen so far (skipped ones too). */
  index: number;
  /** A skipped container: how deep the containers inside it go. */
  depth: number;
}

const GENERIC: Policy = { child: () => 'value' };

/** `[first, ...]`: the first element only (a name, a kind, a status). */
const FIRST: Policy = { child: (frame) => (frame.index === 0 ? 'value' : 'skip') };

/**
 * A message's `{methargs: {body}}`, for its method only; a 2021 message's
 * `method` and `args` (message.ts makes its methargs of both) are built as
 * they are (the args' body, when big, a BigString or a string as anywhere).
 */
const METHOD_ARGS: Policy = { child: (frame) => (frame.key === 'body' ? 'probe' : 'skip') };
const METHOD_MESSAGE: Policy = {
  child: (frame) => (frame.key === 'methargs' ? METHOD_ARGS : frame.key === 'method' || frame.key === 'args' ? 'value' : 'skip'),
};
/** A delivery `['message', target, {methargs, result}]` read for its kind and method only. */
const METHOD: Policy = { child: (frame) => (frame.index === 0 ? 'value' : frame.index === 2 ? METHOD_MESSAGE : 'skip') };

/**
 * The pieces of a delivery or syscall read for its target, result promise
 * or method (call-heads.ts), the rest skipped: a list's first element's
 * first element (a notify's, a resolve's first promise); a message's
 * methargs for its method, its result, a 2021 message's method and args,
 * and (a send of older vats, whose third element is methargs itself) a body.
 */
const FIRST_OF_FIRST: Policy = { child: (frame) => (frame.index === 0 ? FIRST : 'skip') };
const MESSAGE_PIECES: Policy = {
  child: (frame) => {
    const key = frame.key;
    if (key === 'methargs') return METHOD_ARGS;
    if (key === 'body') return 'probe';
    return key === 'method' || key === 'args' || key === 'result' ? 'value' : 'skip';
  },
};
/** A delivery `[kind, ...]`: its kind, a message's target and message, a notify's first promise. */
const DELIVERY_PIECES: Policy = {
  child: (frame) => {
    if (frame.index === 0) return 'value';
    const kind = (frame.value as unknown[])[0];
    if (kind === 'message') return frame.index === 1 ? 'value' : frame.index === 2 ? MESSAGE_PIECES : 'skip';
    return kind === 'notify' && frame.index === 1 ? FIRST_OF_FIRST : 'skip';
  },
};
/** A syscall `[name, ...]` (a ksc: kernelSpace, or a vsc): its name, and the arguments callHeads points at. */
function callPieces(kernelSpace: boolean): Policy {
  return {
    child: (frame) => {
      if (frame.index === 0) return 'value';
      const h = callHeads(String((frame.value as unknown[])[0]), kernelSpace);
      const i = frame.index;
      if (h.targetKind === HEAD_FIRST_LIST && i >= h.target) return FIRST;
      if (i === h.target) return h.targetKind === HEAD_FIRST_OF_FIRST ? FIRST_OF_FIRST : 'value';
      if (i === h.method) return h.methodKind === HEAD_MESSAGE ? MESSAGE_PIECES : 'value';
      return 'skip';
    },
  };
}
const KERNEL_CALL_PIECES = callPieces(true);
const VAT_CALL_PIECES = callPieces(false);

/** Every field of syscall (or syscall-result) reads that any syscall name reads. */
function anySyscall<T extends 'syscall' | 'syscall-result'>(plan: ReadPlan, type: T): FieldMask<FieldsByType[T]> {
  const out: Record<string, true> = {};
  const general = plan.reads[type] as readonly string[];
  for (const f of general) out[f] = true;
  for (const name of Object.keys(plan.reads.bySyscallName ?? {})) for (const f of plan.fields(type, name)) out[f] = true;
  return out as FieldMask<FieldsByType[T]>;
}

function setKey(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/** The fields of one entry (the line's object, or a contextual line's body). */
class EntryPolicy implements Policy {
  type: string | undefined;
  /** A field was read in part (or skipped) for the type known then. */
  private narrowed = false;
  /**
   * A key that came later changed what should have been read of the fields
   * before it: a `type` given again, another one, after a field was read in
   * part; a `type` of the line's own after its `body` was read as a
   * contextual line's entry. JSON.parse keeps the last `type`, and every
   * field whole: what streamed by unkept cannot be had back.
   */
  private changed = false;
  private body: EntryPolicy | undefined;
  private sawKsc = false;
  private sawKsr = false;
  private sawKd = false;
  /** The kd was null: a delivery's method is read from vd (entries.ts: kd ?? vd), its other pieces are none (from kd). */
  private kdNull = false;

  constructor(
    private readonly plan: ReadPlan,
    /** The line's own object (whose `body` may be a contextual line's entry). */
    private readonly top: boolean,
  ) {}

  child(frame: Frame): Spec {
    const key = frame.key;
    const type = this.type;
    if (type === undefined) {
      if (!this.top || key !== 'body') return 'value';
      this.body = new EntryPolicy(this.plan, false);
      return this.body;
    }
    const spec = isCrankEntryType(type) ? this.crankField(type, key) : type === 'create-vat' && key === 'vatSourceBundle' ? 'skip' : 'value';
    if (spec !== 'value') this.narrowed = true;
    return spec;
  }

  /** Did a later key change what should have been read (see `changed`)? */
  get readAmiss(): boolean {
    return this.changed || (this.body?.readAmiss ?? false);
  }

  added(frame: Frame, value: unknown): void {
    switch (frame.key) {
      case 'type':
        if ((this.narrowed && value !== this.type) || (typeof value === 'string' && this.body?.narrowed === true)) this.changed = true;
        this.type = typeof value === 'string' ? value : undefined;
        return;
      case 'ksc':
        this.sawKsc = true;
        return;
      case 'ksr':
        this.sawKsr = true;
        return;
      case 'kd':
        this.sawKd = true;
        this.kdNull = value === null;
        return;
      default:
        return;
    }
  }

  /** What the plain path reads of a crank entry's field (entries.ts `fromParsed`): how much of it to build. */
  private crankField(type: string, key: string): Spec {
    const plan = this.plan;
    switch (type) {
      case 'syscall': {
        if (key !== 'ksc' && key !== 'vsc') return 'value';
        // The reads are chosen by the `syscall` field (its last value), else by ksc[0]: what any name reads.
        const f = anySyscall(plan, 'syscall');
        const pieces = f.target === true || f.method === true;
        if (key === 'ksc') return f.ksc ? 'value' : pieces ? KERNEL_CALL_PIECES : FIRST;
        if (f.vsc || (f.vscWithoutKsc && !this.sawKsc)) return 'value';
        return pieces && !this.sawKsc ? VAT_CALL_PIECES : FIRST;
      }
      case 'syscall-result': {
        if (key !== 'ksr' && key !== 'vsr') return 'value';
        const f = anySyscall(plan, 'syscall-result');
        if (key === 'ksr') return f.ksr ? 'value' : FIRST;
        return f.vsr || (f.vsrWithoutKsr && !this.sawKsr) ? 'value' : FIRST;
      }
      case 'deliver': {
        const f = plan.deliver;
        const pieces = f.target === true || f.resultPromise === true;
        if (key === 'kd') return f.kd ? 'value' : pieces ? DELIVERY_PIECES : f.method ? METHOD : FIRST;
        if (key === 'vd') {
          if (f.vd || (f.vdWithoutKd && !this.sawKd)) return 'value';
          if (pieces && !this.sawKd) return DELIVERY_PIECES;
          return f.method && (!this.sawKd || this.kdNull) ? METHOD : FIRST;
        }
        return 'value';
      }
      case 'deliver-result': {
        const f = plan.deliverResult;
        if (key === 'dr') return f.dr || f.problem || f.computrons || f.timestamps ? 'value' : FIRST;
        return 'value';
      }
      case 'crank-start': {
        const f = plan.crankStart;
        if (key === 'message') return f.message || f.messageHead ? 'value' : 'skip';
        return 'value';
      }
      default:
        return 'value';
    }
  }
}

/** The line's top: an object read by an EntryPolicy; anything else is skipped (it is no entry). */
class Root implements Policy {
  value: unknown;
  isObject = false;

  constructor(private readonly entry: EntryPolicy) {}

  child(): Spec {
    return this.entry;
  }

  get readAmiss(): boolean {
    return this.entry.readAmiss;
  }

  added(_frame: Frame, value: unknown): void {
    this.value = value;
  }
}

/**
 * Containers open at once, at most: a line nested deeper is not read
 * (TOO_DEEP), since the tokenizer, and what is built, hold a place per
 * level (a line of 100 MB of `[` would take gigabytes).
 */
export const MAX_DEPTH = 100_000;
export const TOO_DEEP = `not read: nested over ${MAX_DEPTH} deep, in a line too big to hold whole`;
class TooDeep extends Error {}

/** Builds one line's value from its tokens. */
class Builder {
  private readonly stack: Frame[];
  private readonly spool = new Spool();
  tokens = 0;
  /** Containers open now (skipped ones too). */
  private open = 0;
  // The string being read: how, and what of it so far.
  private strSpec: Spec = 'value';
  private strParts: string[] = [];
  private strLength = 0;
  private strBig: BigString | undefined;
  private strBody: BodyDecoder | undefined;
  private strHead = '';
  private strBad = false;
  /** A probed body read for its head only (the method is there). */
  private strHeadOnly = false;

  constructor(
    readonly root: Root,
    private readonly options: BigLineOptions,
  ) {
    this.stack = [{ array: true, value: [], policy: root, key: '', index: 0, depth: 0 }];
  }

  private spec(frame: Frame): Spec {
    return frame.value === undefined ? 'skip' : frame.policy.child(frame);
  }

  token(token: JsonToken): void {
    this.tokens += 1;
    const top = this.stack[this.stack.length - 1] as Frame;
    switch (token.name) {
      case 'startObject':
      case 'startArray': {
        this.open += 1;
        if (this.open > MAX_DEPTH) throw new TooDeep(TOO_DEEP);
        if (top.value === undefined && top.depth > 0) {
          top.depth += 1;
          return;
        }
        const array = token.name === 'startArray';
        if (this.stack.length === 1 && !array) this.root.isObject = true;
        const spec = this.spec(top);
        if (top.value === undefined || spec === 'skip' || (this.stack.length === 1 && array)) {
          // Skipped: nothing kept, its depth counted.
          this.stack.push({ array, value: undefined, policy: GENERIC, key: '', index: 0, depth: 1 });
          return;
        }
        const policy = typeof spec === 'object' ? spec : GENERIC;
        this.stack.push({ array, value: array ? [] : {}, policy, key: '', index: 0, depth: 0 });
        return;
      }
      case 'endObject':
      case 'endArray': {
        this.open -= 1;
        if (top.value === undefined) {
          top.depth -= 1;
          if (top.depth > 0) return;
        }
        this.stack.pop();
        this.add(top.value, top.value === undefined);
        return;
      }
      case 'keyValue':
        if (top.value !== undefined) top.key = token.value as string;
        return;
      case 'startString':
        // A line that is a string is no entry: not kept.
        this.startString(this.stack.length === 1 ? 'skip' : this.spec(top));
        return;
      case 'stringChunk':
        this.stringChunk(token.value as string);
        return;
      case 'endString': {
        const skipped = this.strSpec === 'skip' && !this.strHeadOnly;
        this.add(this.endString(), skipped);
        return;
      }
      case 'numberValue':
        this.scalar(Number(token.value));
        return;
      case 'trueValue':
        this.scalar(true);
        return;
      case 'falseValue':
        this.scalar(false);
        return;
      case 'nullValue':
        this.scalar(null);
        return;
      default:
        return;
    }
  }

  private scalar(value: unknown): void {
    const frame = this.stack[this.stack.length - 1] as Frame;
    if (frame.value === undefined) return;
    this.add(value, frame.policy.child(frame) === 'skip');
  }

  /** A value ended: into its container (a skipped one: a hole in an array, nothing in a record). */
  private add(value: unknown, skipped: boolean): void {
    const frame = this.stack[this.stack.length - 1] as Frame;
    if (frame.value === undefined) return;
    if (skipped) {
      if (frame.array) (frame.value as unknown[]).push(undefined);
    } else {
      if (frame.array) (frame.value as unknown[]).push(value);
      else setKey(frame.value as Record<string, unknown>, frame.key, value);
      frame.policy.added?.(frame, value);
    }
    frame.index += 1;
  }

  private startString(spec: Spec): void {
    this.strSpec = spec;
    this.strParts = [];
    this.strLength = 0;
    this.strBig = undefined;
    this.strBody = undefined;
    this.strHead = '';
    this.strBad = false;
    this.strHeadOnly = false;
  }

  private stringChunk(chunk: string): void {
    const spec = this.strSpec;
    if (spec === 'skip') return;
    this.strLength += chunk.length;
    if (this.strBig) {
      this.strBig.append(chunk);
      return;
    }
    if (this.strBody) {
      this.bodyText(chunk);
      return;
    }
    this.strParts.push(chunk);
    if (this.strLength <= BIG_STRING_CHARS) return;
    if (spec === 'probe') {
      const text = this.strParts.join('');
      this.strParts = [];
      if (methodInHead(text)) {
        // The method is in its first characters (where a kernel writes it): the rest is left unread.
        this.strHead = text.slice(0, HEAD_CHARS);
        this.strSpec = 'skip';
        this.strHeadOnly = true;
        return;
      }
      // A body over the limit whose method is not at its start: decoded as it comes.
      this.strBody = new BodyDecoder(-1, 'methargs');
      this.bodyText(text);
    } else if (this.options.bigStrings) {
      this.strBig = new BigString(this.spool, this.options.printedIn);
      this.strBig.append(this.strParts.join(''));
      this.strParts = [];
    }
  }

  private bodyText(text: string): void {
    if (this.strHead.length < HEAD_CHARS) this.strHead += text.slice(0, HEAD_CHARS - this.strHead.length);
    if (this.strBad) return;
    try {
      (this.strBody as BodyDecoder).write(text);
    } catch {
      this.strBad = true;
    }
  }

  private endString(): unknown {
    if (this.strHeadOnly) return new DecodedBody(this.strHead, undefined);
    if (this.strSpec === 'skip') return undefined;
    if (this.strBig) {
      const big = this.strBig;
      this.strBig = undefined;
      big.end();
      return big;
    }
    if (this.strBody) {
      const body = this.strBody;
      this.strBody = undefined;
      let decoded: { value: unknown; smallcaps: boolean } | undefined;
      if (!this.strBad) {
        try {
          decoded = body.end();
        } catch {
          decoded = undefined;
        }
      }
      return new DecodedBody(this.strHead, decoded);
    }
    const parts = this.strParts;
    this.strParts = [];
    return parts.length === 1 ? parts[0] : parts.join('');
  }
}

/** Why a line whose later keys changed how its earlier fields should have been read is not read (EntryPolicy's `changed`). */
export const READ_AMISS = 'not read: its "type" comes again, or after its "body", in a line too big to hold whole';

/** The bytes given to the tokenizer at once. */
const PIECE_BYTES = 1 << 14;

/** What a big line reads to. */
export interface BigLineResult {
  /** The entry, a BadLine, or undefined for a blank line. */
  entry: SlogEntry | BadLine | undefined;
  /** The syscall name its reads were chosen by (as line-reader.ts's check finds it). */
  syscallName: string | undefined;
}

/** Reads a big line to its entry. */
export async function readBigLine(line: BigLine, plan: ReadPlan, options: BigLineOptions): Promise<BigLineResult> {
  const root = new Root(new EntryPolicy(plan, true));
  const builder = new Builder(root, options);
  const tokens = new JsonTokens((token) => builder.token(token));
  let error: Error | undefined;
  for (let chunk = await line.read(); chunk !== undefined; chunk = await line.read()) {
    if (error) continue;
    try {
      // In pieces below V8's large-object size: their text is young garbage (source/lines.ts).
      for (let at = 0; at < chunk.length; at += PIECE_BYTES) tokens.write(chunk.subarray(at, Math.min(chunk.length, at + PIECE_BYTES)));
    } catch (err) {
      error = err as Error;
    }
  }
  if (!error) {
    try {
      tokens.end();
    } catch (err) {
      error = err as Error;
    }
  }
  if (error instanceof TooDeep) return { entry: new BadLine(TOO_DEEP), syscallName: undefined };
  if (error) {
    // Nothing but white space: a blank line, as on the plain path.
    if (builder.tokens === 0 && /has expected a value/.test(error.message)) return { entry: undefined, syscallName: undefined };
    const why = oneLine(error.message);
    return { entry: new BadLine(line.unterminated ? `truncated last line (no newline at end): ${why}` : `not JSON: ${why}`), syscallName: undefined };
  }
  if (!root.isObject) return { entry: new BadLine('not a slog entry (not a JSON object)'), syscallName: undefined };
  const entry = entryOf(root.value, plan);
  // A line that is no entry anyway (its last type not a string) says so, whatever was read in part.
  if (root.readAmiss && !(entry instanceof BadLine)) return { entry: new BadLine(READ_AMISS), syscallName: undefined };
  return { entry, syscallName: syscallNameOf(root.value) };
}

interface Named {
  type?: unknown;
  syscall?: unknown;
  ksc?: unknown;
  vsc?: unknown;
}

/** The syscall name a line's reads are chosen by (as the plain path finds it). */
function syscallNameOf(value: unknown): string | undefined {
  const o = value as Named & { body?: Named };
  const e = o.body && typeof o.body === 'object' ? o.body : o;
  // A syscall's by its name (ksc[0] first: entries.ts fromParsed), a result's by its `syscall` field.
  const first = (call: unknown): string | undefined => (Array.isArray(call) && typeof call[0] === 'string' ? call[0] : undefined);
  const field = typeof e.syscall === 'string' ? e.syscall : undefined;
  return e.type === 'syscall' ? (first(e.ksc) ?? field ?? first(e.vsc)) : (field ?? first(e.ksc) ?? first(e.vsc));
}
