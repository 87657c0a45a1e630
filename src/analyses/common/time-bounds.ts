/**
 * The times `--since` and `--until` take: seconds since the epoch
 * (`1795308042.5`), an ISO date (`2026-11-20T10:00:00Z`, `2026-11-20`; one
 * without a zone is UTC, as the slog's times are), or a duration back from
 * the slog's end (`10m`, `90s`, `2h`, `1h30m`, `1d`), which becomes a time
 * once the slog's last time is known (source/last-time.ts).
 */
import { SelectionError } from './selection.js';

/** A time given (`at`, seconds since the epoch), or a duration before the slog's end (`ago`, seconds). */
export type TimeBound = { at: number } | { ago: number };

/** What each form looks like, for the usage error. */
export const TIME_FORMS = 'seconds since the epoch (1795308042.5), an ISO date (2026-11-20T10:00:00Z) or a duration before the slog\'s end (10m, 1h30m)';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const EPOCH = /^\d+(\.\d+)?$/;
const DURATION = /^(?:\d+(?:\.\d+)?[dhms])+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)([dhms])/g;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** `1h30m` in seconds (each unit at most once, largest first, as people write them). */
function durationSeconds(text: string): number {
  let seconds = 0;
  let lastUnit = Infinity;
  for (const [, n, unit] of text.matchAll(DURATION_PART)) {
    const size = UNIT_SECONDS[unit as string] as number;
    if (size >= lastUnit) throw new SelectionError(`bad duration "${text}" (units largest first, each once: 1h30m)`);
    lastUnit = size;
    seconds += Number(n) * size;
  }
  return seconds;
}

/** An ISO date in seconds since the epoch; a date that does not exist (2026-02-30) is refused, not rolled over. */
function isoSeconds(text: string, m: RegExpExecArray): number {
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = m;
  const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${zone.toUpperCase()}`);
  const check = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  const exists = check.getUTCMonth() === Number(month) - 1 && check.getUTCDate() === Number(day) && check.getUTCHours() === Number(hour) && check.getUTCMinutes() === Number(minute) && check.getUTCSeconds() === Number(second);
  if (Number.isNaN(ms) || !exists) throw new SelectionError(`no such date "${text}"`);
  // The fraction beyond milliseconds, which Date drops.
  return ms / 1000 + (fraction.length > 4 ? Number(`0.000${fraction.slice(4)}`) : 0);
}

/** Parses TIME; a bad one throws SelectionError saying the forms. */
export function parseTimeBound(text: string): TimeBound {
  const t = text.trim();
  if (EPOCH.test(t)) return { at: Number(t) };
  if (DURATION.test(t)) return { ago: durationSeconds(t) };
  const m = ISO.exec(t);
  if (m) return { at: isoSeconds(t, m) };
  throw new SelectionError(`bad time "${text}" (expected ${TIME_FORMS})`);
}

/** The time a bound stands for, given the slog's last time (needed only for a duration). */
export function resolveTimeBound(bound: TimeBound, lastTime: number | undefined): number {
  if ('at' in bound) return bound.at;
  if (lastTime === undefined) throw new Error('a duration needs the slog\'s last time');
  return lastTime - bound.ago;
}
