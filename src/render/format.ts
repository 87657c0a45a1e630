/** Number formats shared by every renderer. */

/** Seconds as whole microseconds: `902µs`. */
export function micros(seconds: number): string {
  return `${(seconds * 1_000_000).toFixed(0)}µs`;
}

/** A fraction as a percentage with two decimals: `87.58%`. */
export function percent(fraction: number): string {
  return `${(fraction * 100).toFixed(2)}%`;
}

/** A value from the slog printed inline: strings bare, anything else as JSON. */
export function inline(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
