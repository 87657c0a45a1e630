/** Number formats shared by every renderer. */
import { BigString } from '../scan/big-string.js';
import { json } from '../scan/deep-json.js';

export { json };

/** Seconds as whole microseconds: `902µs`. */
export function micros(seconds: number): string {
  return `${fixed0(seconds * 1_000_000)}µs`;
}

/**
 * `x.toFixed(0)`, several times faster. toFixed(0) takes the integer
 * nearest x, the larger one on a tie, after taking the sign off (so a tie
 * rounds away from zero, and -0.3 gives "-0"); Math.round rounds a tie up,
 * so it is applied to |x|. Below 2^53 String() prints that integer's digits
 * as toFixed does (above, toFixed prints the double's exact digits, String
 * the shortest ones that read back the same: those go to toFixed). NaN
 * prints "NaN" either way.
 */
export function fixed0(x: number): string {
  if (x < 0) return x > -TWO_53 ? `-${Math.round(-x)}` : x.toFixed(0);
  return x < TWO_53 || x !== x ? `${Math.round(x)}` : x.toFixed(0);
}

const TWO_53 = 2 ** 53;

/** A fraction as a percentage with two decimals: `87.58%`. */
export function percent(fraction: number): string {
  return `${fixed2(fraction * 100)}%`;
}

/**
 * `x.toFixed(2)`, faster. toFixed(2) takes the integer n nearest 100·x
 * (exactly), the larger on a tie. Below 2^30, 100·x computed in doubles is
 * within 2^-23 of the exact product, so unless it lies within 1e-6 of a
 * half (then toFixed decides) it rounds to the same n. The sign is taken
 * off first, as toFixed does (-0.001 gives "-0.00").
 */
export function fixed2(x: number): string {
  if (x < 0) return x > -TWO_28 ? `-${fixed2(-x)}` : x.toFixed(2);
  // Not NaN, nor too large.
  if (!(x < TWO_28)) return x.toFixed(2);
  const y = x * 100;
  const frac = y - Math.floor(y);
  if (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6) return x.toFixed(2);
  const n = Math.round(y);
  const whole = Math.floor(n / 100);
  const cents = n - whole * 100;
  return cents < 10 ? `${whole}.0${cents}` : `${whole}.${cents}`;
}

const TWO_28 = 2 ** 28;

/**
 * Number(fixed2(x)), without the string: the same hundredths n, as n / 100.
 * Division is correctly rounded, and so is reading "W.CC": both give the
 * double nearest the real number n / 100. Where fixed2 leaves the rounding
 * to toFixed (a tie within 1e-6, 2^28 and up, NaN), so does this.
 */
export function round2(x: number): number {
  if (x < 0) return x > -TWO_28 ? -round2(-x) : Number(x.toFixed(2));
  if (!(x < TWO_28)) return Number(x.toFixed(2));
  const y = x * 100;
  const frac = y - Math.floor(y);
  if (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6) return Number(x.toFixed(2));
  // + 0: -0 gives 0, as "0.00" does.
  return Math.round(y) / 100 + 0;
}

/** A value from the slog printed inline: strings bare (a BigString too), anything else as JSON. */
export function inline(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof BigString) return value.toString();
  return json(value) ?? String(value);
}


/**
 * `items.map(each).join(separator)`, as a plain loop. Arrays parsed from
 * JSON come in several element kinds (small integers, doubles, anything):
 * `map` compiled for one is thrown away at the next ("wrong map") and
 * compiled again; an indexed loop takes them all.
 */
export function joinMapped<T>(items: readonly T[], each: (item: T, index: number) => string, separator: string): string {
  let out = '';
  for (let i = 0; i < items.length; i += 1) {
    if (i > 0) out += separator;
    out += each(items[i] as T, i);
  }
  return out;
}

/** Whole µs in a unit a person reads at a glance: `112.05 s`, `36.21 ms`, `902 µs` (exact µs stay in --json and exports). */
export function readableMicros(us: number): string {
  const size = Math.abs(us);
  if (size >= 1_000_000) return `${fixed2(us / 1_000_000)} s`;
  if (size >= 1_000) return `${fixed2(us / 1_000)} ms`;
  return `${fixed0(us)} µs`;
}

/** Whole µs as seconds with two decimals and no space, as the snapshot line prints them: `1.81s`. */
export function seconds2(us: number): string {
  return `${fixed2(us / 1_000_000)}s`;
}

/** Bytes in decimal megabytes with one decimal: `14.1 MB` (1 MB = 1,000,000 bytes); under 100 kB in kB: `12.7 kB`. */
export function megabytes(bytes: number): string {
  if (Math.abs(bytes) < 100_000) return `${(bytes / 1_000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
