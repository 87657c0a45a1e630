/**
 * The order the analyses sort names in (methods, syscall types, run
 * triggers, vat names that are not `vN`) where their figures tie.
 */

/**
 * Negative when `a` sorts before `b`: by UTF-16 code units, as `<` compares
 * strings (not by locale, so that every machine prints the same order);
 * undefined sorts as the empty string.
 */
export function byText(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
