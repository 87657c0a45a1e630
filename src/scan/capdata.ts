/**
 * Capdata, the kernel's marshalled values: `{body, slots}`, where a body
 * starting with `#` is smallcaps and any other body the legacy encoding.
 */
import type { CapData } from './entry-types.js';

export function isCapData(data: unknown): data is CapData {
  return (
    data !== null &&
    typeof data === 'object' &&
    typeof (data as CapData).body === 'string' &&
    Array.isArray((data as CapData).slots)
  );
}

/** Splits a capdata body into its decoded JSON and whether it is smallcaps. Throws when the body is not JSON. */
export function decodeBody(data: CapData): { value: unknown; smallcaps: boolean } {
  const body = data.body;
  const smallcaps = body.charAt(0) === '#';
  return { value: JSON.parse(smallcaps ? body.slice(1) : body), smallcaps };
}
