/**
 * A message a vat sends or receives (a deliver's `['message', target, msg]`,
 * a send syscall's `['send', target, msg]`, a crank-start's `message.msg`),
 * in either shape kernels have written it:
 *
 * - today's `{methargs, result}`: `methargs` is capdata of `[method, args]`;
 * - 2021's `{method, args, result}` (SLOG-FORMAT.md, "2021 messages"): the
 *   method bare, `args` capdata of the argument list (the legacy encoding
 *   then, whose slots are `{"@qclass":"slot","index":N}`).
 *
 * `messageMethargs` gives the methargs capdata of either, so that everything
 * that reads a message (the render, method names, the kref model, trace)
 * reads one shape. A 2021 message's is its args with the method put in
 * front of the arguments in the args' own encoding: `[` + method + `,` +
 * args.body + `]`, the same slots (their indexes do not move). A big line's
 * body (a BigString, big-string.ts) is framed the same way without being
 * read; one read for its method only (a DecodedBody) likewise.
 */
import { BigString, FramedBigString, HEAD_CHARS } from './big-string.js';
import { DecodedBody } from './body-decoder.js';
import { isCapData } from './capdata.js';
import { json } from './deep-json.js';
import type { CapData } from './entry-types.js';

/** A message in today's shape (`methargs`) or 2021's (`method` and `args`). */
interface AnyMessage {
  methargs?: unknown;
  method?: unknown;
  args?: unknown;
  result?: unknown;
}

/** Is `value` a message record, of either shape (rather than, say, bare capdata)? */
export function isMessage(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return 'methargs' in value || 'method' in value || 'args' in value;
}

/**
 * The methargs capdata (`[method, args]`) of a message of either shape:
 * today's `methargs` as it is, a 2021 message's made from its method and
 * args; undefined when the message has neither (or a 2021 message's args
 * are not capdata).
 */
export function messageMethargs(msg: unknown): unknown {
  if (!isMessage(msg)) return undefined;
  const m = msg as AnyMessage;
  if ('methargs' in m) return m.methargs;
  const args = m.args;
  if (!isCapData(args)) return undefined;
  const body = args.body as unknown;
  const smallcaps = typeof body === 'string' ? body.charAt(0) === '#' : (body as BigString | DecodedBody).head.charAt(0) === '#';
  const method = smallcaps ? smallcapsMethod(m.method) : legacyMethod(m.method);
  // `[method,ARGS]`, ARGS without its `#` when smallcaps (the whole body is tagged once, in front).
  const before = smallcaps ? `#[${method},` : `[${method},`;
  const after = ']';
  if (typeof body === 'string') return { body: `${before}${smallcaps ? body.slice(1) : body}${after}`, slots: args.slots } satisfies CapData;
  if (body instanceof BigString) return { body: new FramedBigString(body, before, after, smallcaps ? 1 : 0), slots: args.slots };
  // Read for its method only (big-line.ts): the method is in the head, and is the decoded value's first element.
  const decoded = (body as DecodedBody).decoded;
  const head = `${before}${(body as DecodedBody).head.slice(smallcaps ? 1 : 0)}`.slice(0, HEAD_CHARS);
  const value = decoded === undefined ? undefined : { value: [JSON.parse(method) as unknown, decoded.value], smallcaps };
  return { body: new DecodedBody(head, value), slots: args.slots };
}

/** The method as a legacy body writes it: JSON, `{"@qclass":"undefined"}` for none. */
function legacyMethod(method: unknown): string {
  return method === undefined ? '{"@qclass":"undefined"}' : (json(method) ?? '{"@qclass":"undefined"}');
}

/** A smallcaps string's first characters that are tags: such a string is escaped with `!`. */
const SMALLCAPS_TAGGED = /^[!-\-]/;

/** The method as a smallcaps body writes it: a string (escaped where it starts with a tag), `"#undefined"` for none. */
function smallcapsMethod(method: unknown): string {
  if (method === undefined) return '"#undefined"';
  if (typeof method === 'string') return JSON.stringify(SMALLCAPS_TAGGED.test(method) ? `!${method}` : method);
  return json(method) ?? '"#undefined"';
}
