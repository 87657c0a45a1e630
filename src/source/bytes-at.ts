/**
 * Whether `buf` holds `bytes` at `at`, all of them before `end`: compared
 * in JavaScript, as the needles compared this way (a line's head, a
 * needle's few bytes around a search's hit) are shorter than what a native
 * call costs.
 */
export function bytesAt(buf: Uint8Array, at: number, end: number, bytes: Uint8Array): boolean {
  if (at < 0 || end - at < bytes.length) return false;
  for (let j = 0; j < bytes.length; j += 1) if (buf[at + j] !== bytes[j]) return false;
  return true;
}
