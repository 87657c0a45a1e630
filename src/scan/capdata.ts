/**
 * Capdata, the kernel's marshalled values: `{body, slots}`, where a body
 * starting with `#` is smallcaps and any other body the legacy encoding.
 * In a big line's entries (big-line.ts) a body may also be a BigString
 * (its text spooled: decoded as it is read back, body-decoder.ts) or a
 * DecodedBody (read for its method only).
 */
import { BigString } from './big-string.js';
import { DecodedBody, decodeBodyPieces } from './body-decoder.js';
import type { CapData } from './entry-types.js';

export function isCapData(data: unknown): data is CapData {
  if (data === null || typeof data !== 'object' || !Array.isArray((data as CapData).slots)) return false;
  const body = (data as { body: unknown }).body;
  return typeof body === 'string' || body instanceof BigString || body instanceof DecodedBody;
}

/** Splits a capdata body into its decoded JSON and whether it is smallcaps. Throws when the body is not JSON. */
export function decodeBody(data: CapData): { value: unknown; smallcaps: boolean } {
  const body = data.body as unknown;
  if (body instanceof BigString) return decodeBodyPieces(body.pieces(), Infinity, 'value');
  if (body instanceof DecodedBody) {
    if (body.decoded === undefined) throw new SyntaxError('capdata body is not JSON');
    return body.decoded;
  }
  const text = data.body;
  const smallcaps = text.charAt(0) === '#';
  return { value: JSON.parse(smallcaps ? text.slice(1) : text), smallcaps };
}
