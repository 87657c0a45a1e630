/**
 * A message's method as slogulate prints it (SLOG-FORMAT.md, "Values"): a
 * name bare, a symbol as `[name]`, an absent method (a function call) as
 * `<funcall>`. The render, the kref model and the analyses all name methods
 * this way, so that a method reads the same everywhere.
 */
import { BigString } from './big-string.js';
import { DecodedBody, decodeBodyPieces } from './body-decoder.js';
import { decodeBody } from './capdata.js';

/** A method selector: bare name, `[symbol]`, or `<funcall>` when absent. */
export function methodName(method: unknown, smallcaps: boolean): string {
  return selector(method, smallcaps).replaceAll('"', '');
}

function selector(method: unknown, smallcaps: boolean): string {
  if (method === undefined || method === null) return '<funcall>';
  if (typeof method === 'string') {
    if (!smallcaps) return method;
    const rest = method.slice(1);
    switch (method.charAt(0)) {
      case '%':
        return `[${rest}]`;
      case '#':
        return rest === 'undefined' ? '<funcall>' : '<unintelligible method>';
      case '!':
        return rest;
      case '+':
      case '-':
      case '$':
      case '&':
        return '<unintelligible method>';
      default:
        return method;
    }
  }
  if (typeof method === 'object' && !smallcaps) {
    const qclass = (method as Record<string, unknown>)['@qclass'];
    if (qclass === 'undefined') return '<funcall>';
    if (qclass === 'symbol') return `[${String((method as Record<string, unknown>).name)}]`;
    if (qclass === '@@asyncIterator') return '[Symbol.asyncIterator]';
  }
  return '<unintelligible method>';
}


/** The method of a `[method, args]` methargs body (capdata), as methodName prints it. */
export function methargsMethod(methargs: unknown): string {
  const data = methargs as { body?: unknown } | null | undefined;
  const body = data ? data.body : undefined;
  // A big line's body (a BigString, or a DecodedBody) is over 400 characters: its head holds the first 400.
  const text = typeof body === 'string' ? body : body instanceof BigString || body instanceof DecodedBody ? body.head : undefined;
  if (text === undefined) return '<unintelligible method>';
  const m = METHOD_PREFIX.exec(text.length > 400 ? text.slice(0, 400) : text);
  try {
    if (m) return methodName(JSON.parse(`"${m[2]}"`), m[1] === '#');
    const { value, smallcaps } =
      body instanceof BigString ? decodeBodyPieces(body.pieces(), -1, 'methargs') : decodeBody({ body: body as string, slots: [] });
    return methodName(Array.isArray(value) ? value[0] : undefined, smallcaps);
  } catch {
    return '<unintelligible method>';
  }
}

/** Does methargsMethod find the method in this start of a body (so that the rest of it is never read)? */
export function methodInHead(text: string): boolean {
  return METHOD_PREFIX.test(text.length > 400 ? text.slice(0, 400) : text);
}

/** The method at the start of a methargs body: read without parsing the arguments. */
const METHOD_PREFIX = /^(#?)\["((?:[^"\\]|\\.)*)"\s*,/;
