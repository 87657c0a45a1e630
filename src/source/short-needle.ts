/**
 * A short needle searched for in a few hundred bytes, forward or backward
 * (Horspool: a byte of the window that cannot be part of a match there
 * moves the window past it), in JavaScript: where the bytes to look at are
 * this few, a native search costs more than its call. The byte search
 * (seek.ts) looks this way for a crank-start's `"crankNum":` after its type
 * and its `"time":` before its line's end, once per crank-start of the
 * slog: the window mostly moves over digits, which are in neither needle,
 * a needle's length at a time.
 */
import { bytesAt } from './bytes-at.js';

export interface ShortNeedle {
  readonly bytes: Uint8Array;
  /** Forward: how far the window moves for its last byte. */
  readonly forward: Uint8Array;
  /** Backward: how far the window moves for its first byte. */
  readonly backward: Uint8Array;
}

/** A needle of 2 to 255 bytes and its two shift tables. */
export function shortNeedle(text: string): ShortNeedle {
  const bytes = Buffer.from(text, 'latin1');
  const m = bytes.length;
  if (m < 2 || m > 255) throw new RangeError(`short-needle: a needle of ${m} bytes`);
  const forward = new Uint8Array(256).fill(m);
  // The last place of each byte before the needle's last: the window moves to put it under that byte.
  for (let j = 0; j < m - 1; j += 1) forward[bytes[j] as number] = m - 1 - j;
  const backward = new Uint8Array(256).fill(m);
  // The first place of each byte after the needle's first.
  for (let j = m - 1; j >= 1; j -= 1) backward[bytes[j] as number] = j;
  return { bytes, forward, backward };
}

/** The first place `k`, from <= k <= to, where `buf` holds the needle (its bytes before buf's end); -1 if none. */
export function indexIn(buf: Uint8Array, needle: ShortNeedle, from: number, to: number): number {
  const { bytes, forward } = needle;
  const lastAt = bytes.length - 1;
  const last = Math.min(to, buf.length - bytes.length);
  let k = Math.max(from, 0);
  while (k <= last) {
    const c = buf[k + lastAt] as number;
    if (c === bytes[lastAt] && bytesAt(buf, k, buf.length, bytes)) return k;
    k += forward[c] as number;
  }
  return -1;
}

/** The last place `k`, from <= k <= to, where `buf` holds the needle (its bytes before buf's end); -1 if none. */
export function lastIndexIn(buf: Uint8Array, needle: ShortNeedle, from: number, to: number): number {
  const { bytes, backward } = needle;
  const first = Math.max(from, 0);
  let k = Math.min(to, buf.length - bytes.length);
  while (k >= first) {
    const c = buf[k] as number;
    if (c === bytes[0] && bytesAt(buf, k, buf.length, bytes)) return k;
    k -= backward[c] as number;
  }
  return -1;
}
