/**
 * A delivery's target, result promise and method, a syscall's name, target
 * and method (call-heads.ts), read from the line's bytes by the byte reader
 * (fast-reader.ts) without making the `kd` or `ksc` they are in: the value
 * is walked once, each element or member not read skipped as
 * ByteScanner.skipValue skips it (its grammar checked: the whole value is),
 * the pieces read where call-heads.ts's positions put them. A piece of an
 * unusual shape (a key with an escape, a 2021 message, a `{kref}` target...) is parsed from its text and read by
 * call-heads.ts's rules, as the plain path reads it. A kind or name that is
 * not a short string fails the walk: the line goes to the plain path.
 */
import { callHeads, HEAD_FIRST_LIST, HEAD_FIRST_OF_FIRST, HEAD_MESSAGE, HEAD_STR, messageMethod, refOf, resultOf, sendMethod } from './call-heads.js';
import { bytesAt } from '../source/bytes-at.js';
import { internAscii, type ByteScanner } from './json-bytes.js';
import { methargsMethod, methodName } from './method-name.js';

/** What a parse of bytes that are not one JSON value gives. */
export const UNPARSED = Symbol('unparsed');

/** A message's method when the message has no methargs (a delivery), or is missing (a delivery or send cut short). */
const NO_MESSAGE_METHOD = messageMethod(undefined);
const NO_SEND_METHOD = sendMethod(undefined);

/** Keys that matter, as memberKey tells them. */
const KEY_FAIL = -1;
const KEY_ESCAPED = 0;
const KEY_OTHER = 1;
const KEY_METHARGS = 2;
const KEY_RESULT = 3;
const KEY_METHOD = 4;
const KEY_ARGS = 5;
const KEY_BODY = 6;

/** What follows a list's element or an object's member, as afterValue tells it. */
const AFTER_FAIL = -1;
const AFTER_CLOSE = 0;
const AFTER_COMMA = 1;
/** The bytes that close a list and an object. */
const LIST_CLOSE = 93;
const OBJECT_CLOSE = 125;

/**
 * Longest method read from a body's bytes: its head, `#["NAME",`, must be in
 * the 400 characters methargsMethod looks at.
 */
const METHOD_IN_BYTES_MAX = 390;

/**
 * The method at the start of a methargs body, from the line's bytes where
 * the body's string begins (`"#[\"NAME\",` or `"[\"NAME\",`), in a value
 * known to be valid JSON, when NAME is printable ASCII with no escape:
 * methargsMethod's name for it, without decoding the string (arguments can
 * be kilobytes). Undefined for anything else: the body is then decoded.
 */
export function methodInBytes(buf: Buffer, at: number, end: number): string | undefined {
  if (buf[at] !== 34) return undefined;
  let i = at + 1;
  const smallcaps = buf[i] === 35;
  if (smallcaps) i += 1;
  if (buf[i] !== 91 || buf[i + 1] !== 92 || buf[i + 2] !== 34) return undefined;
  const from = i + 3;
  const last = Math.min(end, from + METHOD_IN_BYTES_MAX);
  let j = from;
  for (;;) {
    if (j >= last) return undefined;
    const c = buf[j] as number;
    if (c === 92) break;
    if (c < 32 || c > 126 || c === 34) return undefined;
    j += 1;
  }
  if (buf[j + 1] !== 34 || buf[j + 2] !== 44) return undefined;
  const name = internAscii(buf, from, j);
  // A name methodName gives as it is (no quote in it, and in smallcaps no first character that marks an encoding): not looked at again.
  return smallcaps && SMALLCAPS_MARK[buf[from] as number] === 1 ? methodName(name, true) : name;
}

/** 1 at each first character by which methodName reads a smallcaps method as other than its name (`%`, `#`, `!`, `+`, `-`, `$`, `&`). */
const SMALLCAPS_MARK = new Uint8Array(256);
for (const c of '%#!+-$&') SMALLCAPS_MARK[c.charCodeAt(0)] = 1;

/** Which key bytes [start, end) (a key's text, between its quotes) are. */
function keyId(buf: Buffer, start: number, end: number): number {
  for (let i = start; i < end; i += 1) if (buf[i] === 92) return KEY_ESCAPED;
  switch (end - start) {
    case 4:
      if (bytesAt(buf, start, end, BODY)) return KEY_BODY;
      if (bytesAt(buf, start, end, ARGS)) return KEY_ARGS;
      return KEY_OTHER;
    case 6:
      if (bytesAt(buf, start, end, RESULT)) return KEY_RESULT;
      if (bytesAt(buf, start, end, METHOD)) return KEY_METHOD;
      return KEY_OTHER;
    case 8:
      return bytesAt(buf, start, end, METHARGS) ? KEY_METHARGS : KEY_OTHER;
    default:
      return KEY_OTHER;
  }
}

const BODY = Uint8Array.from('body', (c) => c.charCodeAt(0));
const ARGS = Uint8Array.from('args', (c) => c.charCodeAt(0));
const RESULT = Uint8Array.from('result', (c) => c.charCodeAt(0));
const METHOD = Uint8Array.from('method', (c) => c.charCodeAt(0));
const METHARGS = Uint8Array.from('methargs', (c) => c.charCodeAt(0));


export class HeadBytes {
  /** A syscall's name (its first element). */
  name: string | undefined = undefined;
  target: string | undefined = undefined;
  method: string | undefined = undefined;
  resultPromise: string | undefined = undefined;
  /** The string strElement read (undefined: the element was not a string). */
  private text: string | undefined = undefined;
  /** What messageElement found: a piece it could not read from the bytes (the message is parsed); its last methargs; that one's last body, a string. */
  private messageOdd = false;
  private argsAt = -1;
  private argsEnd = -1;
  private argsOdd = false;
  private bodyAt = -1;
  private bodyEnd = -1;

  /** `parse`: the JSON value of bytes [start, end) of the line, or UNPARSED. */
  constructor(
    private readonly sc: ByteScanner,
    private readonly parse: (start: number, end: number) => unknown,
  ) {}

  /**
   * `[KIND,...]` at sc.pos, a `kd` or `vd`: its target, result promise and
   * method (call-heads.ts deliveryTarget, deliveryResultPromise;
   * entries.ts deliveryMethod), sc.pos left after it.
   */
  delivery(): boolean {
    const sc = this.sc;
    const buf = sc.buf;
    this.target = undefined;
    this.resultPromise = undefined;
    this.method = undefined;
    if (!this.listOfWord()) return false;
    const kind = sc.word();
    if (kind === undefined) return false;
    const message = kind === 'message';
    const notify = kind === 'notify';
    if (message) this.method = NO_MESSAGE_METHOD;
    for (let i = 1; ; i += 1) {
      const next = this.afterValue(LIST_CLOSE);
      if (next === AFTER_CLOSE) return true;
      if (next === AFTER_FAIL) return false;
      if (message && i === 1) {
        // A target, a string; some kernels wrote `{kref}` (parsed: it is rare).
        const at = sc.pos;
        if (!this.strElement()) return false;
        this.target = buf[at] === 123 ? refOf(this.parse(at, sc.pos)) : this.text;
      } else if (message && i === 2) {
        if (!this.messageElement(false)) return false;
      } else if (notify && i === 1) {
        if (!this.firstOfFirstElement()) return false;
        this.target = this.text;
      } else if (!sc.skipValue()) {
        return false;
      }
    }
  }

  /**
   * `[NAME,...]` at sc.pos, a `ksc` (kernelSpace) or `vsc`: its name, target
   * and method (call-heads.ts callHeads), sc.pos left after it.
   */
  syscall(kernelSpace: boolean): boolean {
    const sc = this.sc;
    const buf = sc.buf;
    this.name = undefined;
    this.target = undefined;
    this.method = undefined;
    if (!this.listOfWord()) return false;
    const name = sc.word();
    if (name === undefined) return false;
    this.name = name;
    const h = callHeads(name, kernelSpace);
    if (h.methodKind === HEAD_MESSAGE) this.method = NO_SEND_METHOD;
    let listFound = false;
    for (let i = 1; ; i += 1) {
      const next = this.afterValue(LIST_CLOSE);
      if (next === AFTER_CLOSE) return true;
      if (next === AFTER_FAIL) return false;
      if (i === h.target && h.targetKind === HEAD_STR) {
        if (!this.strElement()) return false;
        this.target = this.text;
      } else if (i === h.target && h.targetKind === HEAD_FIRST_OF_FIRST) {
        if (!this.firstOfFirstElement()) return false;
        this.target = this.text;
      } else if (h.targetKind === HEAD_FIRST_LIST && i >= h.target && !listFound && buf[sc.pos] === 91) {
        listFound = true;
        if (!this.firstElement()) return false;
        this.target = this.text;
      } else if (i === h.method && h.methodKind === HEAD_STR) {
        if (!this.strElement()) return false;
        this.method = this.text;
      } else if (i === h.method && h.methodKind === HEAD_MESSAGE) {
        if (!this.messageElement(true)) return false;
      } else if (!sc.skipValue()) {
        return false;
      }
    }
  }

  /** `["` at sc.pos: moves past it. */
  private listOfWord(): boolean {
    const sc = this.sc;
    if (sc.pos + 2 > sc.end || sc.buf[sc.pos] !== 91 || sc.buf[sc.pos + 1] !== 34) return false;
    sc.pos += 2;
    return true;
  }

  /** One element: `text` is it, if a string (else undefined). */
  private strElement(): boolean {
    const sc = this.sc;
    const at = sc.pos;
    if (at >= sc.end || sc.buf[at] !== 34) {
      this.text = undefined;
      return sc.skipValue();
    }
    sc.pos = at + 1;
    const word = sc.word();
    if (word !== undefined) {
      this.text = word;
      return true;
    }
    // Escapes, or bytes beyond ASCII: the string decoded as JSON.parse decodes it.
    sc.pos = at;
    if (!sc.skipStr()) return false;
    const value = this.parse(at, sc.pos);
    if (typeof value !== 'string') return false;
    this.text = value;
    return true;
  }

  /** The rest of a list after an element: `,VALUE`... then `]`. */
  private rest(): boolean {
    const sc = this.sc;
    for (;;) {
      const next = this.afterValue(LIST_CLOSE);
      if (next === AFTER_CLOSE) return true;
      if (next === AFTER_FAIL || !sc.skipValue()) return false;
    }
  }

  /** A list: `text` is its first element, if a string. */
  private firstElement(): boolean {
    const sc = this.sc;
    sc.pos += 1;
    if (sc.pos < sc.end && sc.buf[sc.pos] === 93) {
      sc.pos += 1;
      this.text = undefined;
      return true;
    }
    return this.strElement() && this.rest();
  }

  /** One element: `text` is its first element's first element, when both are lists and it is a string (call-heads.ts firstOfFirst). */
  private firstOfFirstElement(): boolean {
    const sc = this.sc;
    const buf = sc.buf;
    this.text = undefined;
    if (sc.pos >= sc.end || buf[sc.pos] !== 91) return sc.skipValue();
    sc.pos += 1;
    if (sc.pos < sc.end && buf[sc.pos] === 93) {
      sc.pos += 1;
      return true;
    }
    if (sc.pos < sc.end && buf[sc.pos] === 91) {
      if (!this.firstElement()) return false;
    } else if (!sc.skipValue()) {
      return false;
    }
    return this.rest();
  }

  /** After a list's element or an object's member (`close`: LIST_CLOSE, OBJECT_CLOSE): AFTER_COMMA past a `,`, AFTER_CLOSE past `close`, AFTER_FAIL for anything else. */
  private afterValue(close: number): number {
    const sc = this.sc;
    if (sc.pos >= sc.end) return AFTER_FAIL;
    const c = sc.buf[sc.pos];
    sc.pos += 1;
    return c === close ? AFTER_CLOSE : c === 44 ? AFTER_COMMA : AFTER_FAIL;
  }

  /**
   * A member's key at sc.pos, and its colon: which key it is (KEY_...),
   * KEY_ESCAPED for one with an escape (it may be any), KEY_FAIL if there
   * is none.
   */
  private memberKey(): number {
    const sc = this.sc;
    const at = sc.pos;
    if (!sc.skipStr()) return KEY_FAIL;
    if (sc.pos >= sc.end || sc.buf[sc.pos] !== 58) return KEY_FAIL;
    sc.pos += 1;
    return keyId(sc.buf, at + 1, sc.pos - 2);
  }

  /**
   * A message (a delivery's third element, a send's: `{methargs, result}`):
   * a delivery's method and result promise (`send`: a send's method,
   * call-heads.ts sendMethod). The method is read from the last methargs'
   * last body, from its first bytes where they spell it (methodInBytes),
   * else from the body's string; a message of any other shape is parsed.
   */
  private messageElement(send: boolean): boolean {
    const sc = this.sc;
    const buf = sc.buf;
    const at = sc.pos;
    this.messageOdd = false;
    this.argsAt = -1;
    let result: string | undefined;
    if (at < sc.end && buf[at] === 123) {
      sc.pos += 1;
      if (sc.pos < sc.end && buf[sc.pos] === 125) {
        sc.pos += 1;
      } else {
        for (;;) {
          const key = this.memberKey();
          if (key === KEY_FAIL) return false;
          if (key === KEY_METHARGS) {
            if (!this.methargsElement()) return false;
          } else if (key === KEY_RESULT && !send) {
            if (!this.strElement()) return false;
            result = this.text;
          } else {
            // A 2021 message (method, args), or a key that may be any: parsed.
            if (key === KEY_ESCAPED || key === KEY_METHOD || key === KEY_ARGS) this.messageOdd = true;
            if (!sc.skipValue()) return false;
          }
          const next = this.afterValue(OBJECT_CLOSE);
          if (next === AFTER_CLOSE) break;
          if (next === AFTER_FAIL) return false;
        }
      }
    } else {
      if (!sc.skipValue()) return false;
      this.messageOdd = true;
    }
    if (this.messageOdd || (send && this.argsAt < 0)) {
      // A send's third element with no methargs is methargs itself (older vats); anything else odd, by the rules.
      const value = this.parse(at, sc.pos);
      if (value === UNPARSED) return false;
      if (send) {
        this.method = sendMethod(value);
      } else {
        this.method = messageMethod(value);
        this.resultPromise = resultOf(value);
      }
      return true;
    }
    if (!send) this.resultPromise = result;
    if (this.argsAt < 0) {
      this.method = NO_MESSAGE_METHOD;
      return true;
    }
    const end = sc.pos;
    const method = this.argsMethod();
    sc.pos = end;
    if (method === undefined) return false;
    this.method = method;
    return true;
  }

  /** A message's methargs: where it is, and its last body if a string (else argsOdd: it is parsed). */
  private methargsElement(): boolean {
    const sc = this.sc;
    const buf = sc.buf;
    const at = sc.pos;
    this.argsAt = at;
    this.argsOdd = false;
    this.bodyAt = -1;
    if (at < sc.end && buf[at] === 123 && buf[at + 1] !== 125) {
      sc.pos += 1;
      for (;;) {
        const key = this.memberKey();
        if (key === KEY_FAIL) return false;
        if (key === KEY_BODY && sc.pos < sc.end && buf[sc.pos] === 34) {
          this.bodyAt = sc.pos;
          if (!sc.skipStr()) return false;
          this.bodyEnd = sc.pos;
        } else {
          if (key === KEY_ESCAPED) this.argsOdd = true;
          // A body that is not a string: no string body, as methargsMethod reads it.
          if (key === KEY_BODY) this.bodyAt = -1;
          if (!sc.skipValue()) return false;
        }
        const next = this.afterValue(OBJECT_CLOSE);
        if (next === AFTER_CLOSE) break;
        if (next === AFTER_FAIL) return false;
      }
    } else {
      if (!sc.skipValue()) return false;
      this.argsOdd = true;
    }
    this.argsEnd = sc.pos;
    return true;
  }

  /** The method of the methargs messageElement found (methargsMethod's), or undefined if its text will not parse. */
  private argsMethod(): string | undefined {
    if (this.argsOdd || this.bodyAt < 0) {
      const value = this.parse(this.argsAt, this.argsEnd);
      return value === UNPARSED ? undefined : methargsMethod(value);
    }
    const inBytes = methodInBytes(this.sc.buf, this.bodyAt, this.bodyEnd);
    if (inBytes !== undefined) return inBytes;
    const body = this.parse(this.bodyAt, this.bodyEnd);
    return typeof body === 'string' ? methargsMethod({ body }) : undefined;
  }
}
