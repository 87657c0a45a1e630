/**
 * Benchmark rounds (`--round-marks`): the Benchmarkerator prints, around each
 * round, `Benchmark "open vault" round 1 start crank 7215` and
 * `Benchmark "open vault" round 1 end crank 7495`. A round is the cranks from
 * its start crank to its end crank, both included. A round whose end mark
 * never comes ends where the next round starts (the crank before it), or at
 * the end of the slog when no round starts after it: rounds never overlap
 * because a mark is missing.
 *
 * The marks are read from `console` entries of the slog (outside or inside
 * cranks; the entry's args joined by spaces), or beforehand from the
 * benchmark's console output (`noteText` on each line). `RoundFilter` is a
 * CrankSink in front of another one: it passes on every outside entry, and
 * only the cranks that fall in a round; cranks outside every round are handed
 * over as outside entries (their crank-start and items) so that the sink still
 * learns vat names from them.
 *
 * Streaming: a round's start mark must be read before its first crank (the
 * benchmark prints it before the round runs); a mark that arrives too late is
 * an error rather than a silently wrong count. Memory: one record per round.
 */
import { BigString } from '../../scan/big-string.js';
import { forwardSpill, type CrankSink } from '../../model/assembler.js';
import type { Crank } from '../../model/crank.js';
import { json } from '../../scan/deep-json.js';
import type { ConsoleEntry, SlogEntry } from '../../scan/entry-types.js';

export interface RoundMark {
  benchmark: string;
  round: number;
  edge: 'start' | 'end';
  crank: number;
}

export interface Round {
  benchmark: string;
  round: number;
  start: number;
  /** Absent until the end mark is read (or when the slog ends inside the round, or its end mark is missing). */
  end?: number;
  /** Cranks of this round handed on. */
  cranks: number;
}

export class RoundMarkError extends Error {}

const MARK = /Benchmark "((?:[^"\\]|\\.)*)" round (\d+) (start|end) crank (\d+)/;

/** The round mark in a line of text, if it holds one. */
export function parseRoundMark(text: string): RoundMark | undefined {
  const m = MARK.exec(text);
  if (!m) return undefined;
  return { benchmark: m[1] as string, round: Number(m[2]), edge: m[3] as 'start' | 'end', crank: Number(m[4]) };
}

/** A console entry's text: its args joined by spaces (non-strings as JSON), as the text render prints them. */
export function consoleText(entry: SlogEntry): string | undefined {
  if (entry.type !== 'console') return undefined;
  const args = (entry as ConsoleEntry).args;
  if (!Array.isArray(args)) return undefined;
  // json(): a value nested deeper than JSON.stringify's stack goes (JSON.parse reads it) is written all the same.
  // A big line's string kept as a BigString (stats, which reads marks for growth) is read by its head: a mark
  // is a short line of its own, and the whole text would be as big as the string.
  return args.map((a) => (typeof a === 'string' ? a : a instanceof BigString ? a.head : (json(a) ?? String(a)))).join(' ');
}

/** The rounds of one slog, as their marks are read. */
export class Rounds {
  private readonly byKey = new Map<string, Round>();
  /** The highest crank number handed on or passed over so far (-1 before any). */
  private lastCrank = -1;

  /** Every round with a start mark, in the order the marks were read. */
  get all(): Round[] {
    return [...this.byKey.values()];
  }

  get count(): number {
    return this.byKey.size;
  }

  /** Applies the mark in `text`, if any; `where` names the place for errors (`FILE:LINE`). */
  noteText(text: string, where: string): void {
    const mark = parseRoundMark(text);
    if (mark) this.noteMark(mark, where);
  }

  noteMark(mark: RoundMark, where: string): void {
    const key = `${mark.benchmark}\u0000${mark.round}`;
    const name = `Benchmark "${mark.benchmark}" round ${mark.round}`;
    const round = this.byKey.get(key);
    if (mark.edge === 'start') {
      if (round) throw new RoundMarkError(`${where}: ${name} starts twice (cranks ${round.start} and ${mark.crank})`);
      if (mark.crank <= this.lastCrank) {
        throw new RoundMarkError(
          `${where}: ${name} start mark (crank ${mark.crank}) comes after crank ${this.lastCrank} was read; round marks must come before their cranks`,
        );
      }
      this.byKey.set(key, { benchmark: mark.benchmark, round: mark.round, start: mark.crank, cranks: 0 });
      return;
    }
    if (!round) throw new RoundMarkError(`${where}: ${name} ends (crank ${mark.crank}) but never started`);
    if (round.end !== undefined) throw new RoundMarkError(`${where}: ${name} ends twice`);
    if (mark.crank < round.start) {
      throw new RoundMarkError(`${where}: ${name} ends at crank ${mark.crank}, before its start crank ${round.start}`);
    }
    round.end = mark.crank;
  }

  /**
   * The round started next after `round` (the one whose start crank is the
   * lowest above `round`'s), as far as the marks read so far tell.
   */
  next(round: Round): Round | undefined {
    let next: Round | undefined;
    for (const r of this.byKey.values()) {
      if (r.start > round.start && (next === undefined || r.start < next.start)) next = r;
    }
    return next;
  }

  /**
   * Is crank `crankNum` inside a round (as far as the marks read so far tell)?
   * A round holds the cranks from its start to its end mark; without an end
   * mark, up to the crank before the next round's start (`next`), or on to the
   * end of the slog: it holds a crank only if no round starts after it up to
   * that crank.
   */
  contains(crankNum: number): Round | undefined {
    let latestStart = -Infinity;
    for (const round of this.byKey.values()) {
      if (round.start <= crankNum && round.start > latestStart) latestStart = round.start;
    }
    for (const round of this.byKey.values()) {
      if (crankNum < round.start) continue;
      if (round.end === undefined ? round.start === latestStart : crankNum <= round.end) return round;
    }
    return undefined;
  }

  /** Notes that crank `crankNum` went by (for the late-mark check). */
  passed(crankNum: number): void {
    if (crankNum > this.lastCrank) this.lastCrank = crankNum;
  }

  /**
   * A warning for each round whose end mark never came, saying where it was
   * counted up to: the next round's start (`next`), the last one the end of
   * the slog (`slog`: how the slog is named in messages).
   */
  unendedWarnings(slog: string): string[] {
    return this.all
      .filter((r) => r.end === undefined)
      .map((r) => `${slog}: Benchmark "${r.benchmark}" round ${r.round} has no end mark: ${this.unendedText(r)}`);
  }

  /** Where a round without its end mark was counted up to, in words. */
  private unendedText(round: Round): string {
    const next = this.next(round);
    if (next === undefined) return 'counted up to the end of the slog';
    const name = next.benchmark === round.benchmark ? `round ${next.round}` : `Benchmark "${next.benchmark}" round ${next.round}`;
    return `counted up to crank ${next.start - 1}, where ${name} starts`;
  }
}

/**
 * Passes on to `inner` only the cranks inside a round; reads the marks from
 * console entries as they stream by. Cranks outside every round are given to
 * `inner.entry` as their crank-start and plain items, for names.
 */
export class RoundFilter implements CrankSink {
  /** The inner sink's (a crank that is in no round leaves what it folded unused). */
  readonly spill: ((crank: Crank) => void) | undefined;
  readonly syscallsUnread: boolean | undefined;
  readonly partsUnread: boolean | undefined;

  constructor(
    readonly rounds: Rounds,
    private readonly inner: CrankSink,
    /** The slog's name, for error messages. */
    private readonly slogName: string,
    /** Read marks from the slog's console entries (false when they came from a console log). */
    private readonly readConsole = true,
  ) {
    this.spill = forwardSpill(inner);
    this.syscallsUnread = inner.syscallsUnread;
    this.partsUnread = inner.partsUnread;
  }

  entry(entry: SlogEntry, line: number): void {
    this.noteConsole(entry, `${this.slogName}:${line}`);
    this.inner.entry(entry, line);
  }

  crank(crank: Crank): void {
    // Marks logged inside this crank apply before it is placed.
    for (const item of crank.items) {
      if (item.kind === 'entry') this.noteConsole(item.entry, `${this.slogName}: crank ${crank.crankNum}`);
    }
    const round = this.rounds.contains(crank.crankNum);
    // A crank whose end mark was read in it still belongs to its round; the
    // check runs on the crank number itself.
    this.rounds.passed(crank.crankNum);
    if (round) {
      round.cranks += 1;
      this.inner.crank(crank);
      return;
    }
    if (crank.start) this.inner.entry(crank.start, crank.firstLine);
    for (const item of crank.items) {
      if (item.kind === 'entry') this.inner.entry(item.entry, crank.firstLine);
    }
  }

  private noteConsole(entry: SlogEntry, where: string): void {
    if (!this.readConsole) return;
    const text = consoleText(entry);
    if (text !== undefined) this.rounds.noteText(text, where);
  }
}
