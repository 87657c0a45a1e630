/**
 * The double a plain decimal reads as, without making a string of it: when
 * its digits make an integer below 2^53 (`1795308057.677275`:
 * 1795308057677275) and it has at most 22 decimals, that integer and 10^k
 * are both exact doubles, so their one correctly rounded division is the
 * correctly rounded value, which is what JSON.parse and Number() give.
 * The byte reader (scan/json-bytes.ts) and the byte search (seek.ts) read
 * numbers this way; anything else they give to Number().
 */

/** 2^53: below it, every integer is an exact double. */
export const EXACT_INT = 2 ** 53;

/** The most decimals whose power of ten is an exact double (10^22). */
export const MAX_EXACT_DECIMALS = 22;

/** 10^0 .. 10^22: the powers of ten a double holds exactly. */
export const POW10 = Array.from({ length: MAX_EXACT_DECIMALS + 1 }, (_, i) => 10 ** i);

/** `mantissa` over 10^`decimals`. Precondition: mantissa an integer, 0 <= mantissa < EXACT_INT; decimals <= MAX_EXACT_DECIMALS (0 or less: `mantissa` itself). */
export function exactDecimal(mantissa: number, decimals: number): number {
  return decimals > 0 ? mantissa / (POW10[decimals] as number) : mantissa;
}
