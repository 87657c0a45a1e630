/**
 * Real lines to mutate: from the shared slogs the kernel and real nodes
 * wrote (../shared/slogs and its real/ folder), up to a number of each
 * entry type per slog, spread over the slog, so that every shape they hold
 * (deliveries, notifications, replays, 2022 crank-starts, contextual lines,
 * chain entries) is among them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers.js';

export const SHARED = join(ROOT, '..', 'shared', 'slogs');

/** The slogs lines are taken from (the two named in issue 29 first). */
export const REAL_SLOGS = [
  'a-local-3.slog',
  'real/chain-A.slog',
  'a-xs-3.slog',
  'real/restart-replay.slog',
  'real/y2022-create-vat.slog',
  'real/contextual-bot.jsonl',
  'real/mid-crank-start.slog',
  'real/console-no-level.slog',
  'real/lone-deliver-result.slog',
  'real/chain-shapes.synthetic.slog',
];

/** A line's type as its first bytes say (a contextual line's body's), or the line's start. */
function typeOf(line: string): string {
  const m = /^\{"(?:body":\{")?type":"([^"]*)"/.exec(line);
  return m ? (m[1] as string) : line.slice(0, 12);
}

const cache = new Map<number, string[]>();

/** Up to `perType` lines of each type from each real slog, evenly spread. */
export function realLines(perType = 12): string[] {
  const known = cache.get(perType);
  if (known) return known;
  const out: string[] = [];
  for (const name of REAL_SLOGS) {
    const byType = new Map<string, string[]>();
    for (const line of readFileSync(join(SHARED, name), 'utf8').split('\n')) {
      if (line === '') continue;
      const t = typeOf(line);
      let list = byType.get(t);
      if (!list) byType.set(t, (list = []));
      list.push(line);
    }
    for (const list of byType.values()) {
      const step = Math.max(1, Math.floor(list.length / perType));
      for (let i = 0; i < list.length && i / step < perType; i += step) out.push(list[i] as string);
    }
  }
  cache.set(perType, out);
  return out;
}
