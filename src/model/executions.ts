/**
 * Each crank counted once, after a restart too (SLOG-FORMAT.md, "Restarts").
 * A node that crashes appends a new kernel start to its slog and runs again
 * the cranks it had not committed, with the same numbers: the analyses must
 * count the execution after the restart and not the abandoned one, which the
 * slog shows first. That is known only when the cranks run again, so this
 * sink holds back what it is given since the last commit (a chain's
 * `cosmic-swingset-commit-block-finish`), within bounds, and at a restart
 * hands the held cranks that run again to `abandoned` instead of `crank`.
 *
 * Bounded: at most MAX_HELD_ITEMS items of held cranks, MAX_HELD_ENTRIES
 * entries outside them, and at most MAX_HELD_UNCOMMITTED cranks in a
 * standalone kernel's slog (a benchmark's), MAX_HELD_BETWEEN_COMMITS in a
 * chain's (one with `cosmic-swingset-*` entries): the oldest go on as
 * committed. Entries outside cranks are held only behind a held crank (to
 * keep their order); with none held they go on at once. A restart that runs
 * again more cranks than were held has some counted twice: `mayCountTwice`
 * then says how many may be. The bound without commits is low because
 * holding costs speed: once more cranks are held than a young collection's
 * worth of input, they outlive V8's young generation and everything read
 * is promoted. swingset-runner, which writes those slogs, commits every 200
 * cranks unless told otherwise (`--blockSize`).
 *
 * `fromFirstCommit`: nothing is held before the slog's first commit (a
 * benchmark's slog has none, and holding costs speed); a restart met before
 * it cannot be counted once, and the sink answers 'stop' (`stopped`): the
 * caller reads the slog again with a new sink that holds throughout. A
 * chain's slog commits every block: from its first commit on, a restart is
 * met holding, and the slog is read once.
 */
import { forwardSpill, type CrankSink, type SinkAnswer } from './assembler.js';
import type { Crank } from './crank.js';
import type { SlogEntry } from '../scan/entry-types.js';

/** A sink that also takes the executions a restart abandoned. */
export interface ExecutionSink extends CrankSink {
  /** A crank the kernel ran, did not commit, and ran again after a restart (the later run comes to `crank`). */
  abandoned?(crank: Crank): void;
}

/** Cranks held at most before the slog's first commit (see above). */
const MAX_HELD_UNCOMMITTED = 500;
/** Cranks held at most since the last commit, once the slog has commits (a chain's block). */
const MAX_HELD_BETWEEN_COMMITS = 10_000;
/** Items of held cranks at most, either way: the bound on memory. */
const MAX_HELD_ITEMS = 100_000;
/**
 * Entries outside cranks held at most (a restart's transcript replays
 * before its first crank, blocks without cranks): past it, a restart that
 * still waits for its first crank is given up (what was held goes on, and
 * the first crank after the restart says how many may be counted twice).
 */
const MAX_HELD_ENTRIES = 50_000;

type Held = { crank: Crank; entry?: undefined; line?: undefined } | { crank?: undefined; entry: SlogEntry; line: number };

/** What a released place holds (so that the crank is not kept alive). */
const EMPTY: Held = { entry: { type: '' }, line: 0 };

/** What is held, in order, with its counts: a queue whose released front is dropped by moving `head`. */
class HeldQueue {
  private items: Held[] = [];
  private head = 0;
  /** Held cranks, their items, and held entries outside cranks. */
  cranks = 0;
  crankItems = 0;
  entries = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(h: Held): void {
    this.items.push(h);
    this.count(h, 1);
  }

  /** Takes the first `n` off, in order. */
  shift(n: number, each: (h: Held) => void): void {
    const items = this.items;
    const stop = this.head + n;
    for (let i = this.head; i < stop; i += 1) {
      const h = items[i] as Held;
      items[i] = EMPTY;
      this.count(h, -1);
      each(h);
    }
    this.head = stop;
    // The released front is dropped once it is most of the array.
    if (this.head > 1024 && this.head * 2 > items.length) {
      this.items = items.slice(this.head);
      this.head = 0;
    }
  }

  /** Takes everything off at once: what was held, in order. */
  takeAll(): Held[] {
    const taken = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    this.cranks = 0;
    this.crankItems = 0;
    this.entries = 0;
    return taken;
  }

  /** How many from the front must go for the rest to be within the bounds (at most `maxCranks` cranks). */
  overBounds(maxCranks: number): number {
    let n = 0;
    let cranks = this.cranks;
    let items = this.crankItems;
    let entries = this.entries;
    while (n < this.size && (cranks > maxCranks || items > MAX_HELD_ITEMS || entries > MAX_HELD_ENTRIES)) {
      const h = this.items[this.head + n] as Held;
      if (h.crank) {
        cranks -= 1;
        items -= h.crank.items.length;
      } else {
        entries -= 1;
      }
      n += 1;
    }
    return n;
  }

  /** The highest number of a crank among the first `n`, or -1. */
  highestCrank(n: number): number {
    let highest = -1;
    for (let i = this.head; i < this.head + n; i += 1) {
      const crank = (this.items[i] as Held).crank;
      if (crank && crank.crankNum > highest) highest = crank.crankNum;
    }
    return highest;
  }

  private count(h: Held, sign: 1 | -1): void {
    if (h.crank) {
      this.cranks += sign;
      this.crankItems += sign * h.crank.items.length;
    } else {
      this.entries += sign;
    }
  }
}

/**
 * Where the last restart stands:
 * - `settled`: none waits for its first crank;
 * - `holding`: its first crank is to come, and cranks from before it are
 *   held: the first `before` held items came before the restart (nothing is
 *   released while it waits);
 * - `unheld`: its first crank is to come, and nothing from before it is held
 *   (none was, or the wait was given up: MAX_HELD_ENTRIES): that crank only
 *   says how many may be counted twice.
 */
type RestartState = { state: 'settled' } | { state: 'holding'; before: number } | { state: 'unheld' };

const SETTLED: RestartState = { state: 'settled' };
const UNHELD: RestartState = { state: 'unheld' };

/**
 * How this sink takes what it is given:
 * - `passing` (`fromFirstCommit`, until the first commit): everything goes
 *   on as it comes;
 * - `holding`: cranks are held until a commit, a bound or a restart says
 *   what they are;
 * - `stopped`: a restart came while passing; the sink answered 'stop' and
 *   takes nothing more (what this read made is the caller's to drop).
 */
type Phase = 'passing' | 'holding' | 'stopped';

export class CommittedCranks implements CrankSink {
  private phase: Phase;
  private readonly held = new HeldQueue();
  private restart: RestartState = SETTLED;
  private kernelStarts = 0;
  /** The slog is a chain's (commits, blocks): held between commits up to MAX_HELD_BETWEEN_COMMITS. */
  private chain = false;
  /** The highest crank number that went on early (a bound: before its commit). */
  private releasedEarly = -1;
  /** What the inner sink answered: its 'stop' is passed on. */
  private answer: SinkAnswer = undefined;

  /** Cranks a restart ran again that had already gone on as committed (the bounds): counted twice. */
  mayCountTwice = 0;
  /** Executions handed to `abandoned`. */
  abandonedCount = 0;
  /** Cranks have been held (a slog with commits, or every slog without `fromFirstCommit`). */
  heldAny = false;

  /** The open crank spills (assembler.ts): handed on at once, whatever a restart later says of the crank. */
  readonly spill: ((crank: Crank) => void) | undefined;
  readonly syscallsUnread: boolean | undefined;
  readonly partsUnread: boolean | undefined;

  constructor(
    private readonly sink: ExecutionSink,
    options: { fromFirstCommit?: boolean } = {},
  ) {
    this.spill = forwardSpill(sink);
    this.syscallsUnread = sink.syscallsUnread;
    this.partsUnread = sink.partsUnread;
    this.phase = options.fromFirstCommit === true ? 'passing' : 'holding';
  }

  /** A restart came before anything was held (`fromFirstCommit`): this read cannot count each crank once. */
  get stopped(): boolean {
    return this.phase === 'stopped';
  }

  entry(entry: SlogEntry, line: number): SinkAnswer {
    if (!this.chain && entry.type.startsWith('cosmic-swingset-')) this.chain = true;
    if (entry.type === 'kernel-init-start') this.kernelStarts += 1;
    const restart = entry.type === 'kernel-init-start' && this.kernelStarts > 1;
    switch (this.phase) {
      case 'stopped':
        return 'stop';
      case 'passing':
        return restart ? this.stop() : this.entryPassing(entry, line);
      case 'holding':
        if (restart) this.restartBegins();
        return this.entryHolding(entry, line);
    }
  }

  crank(crank: Crank): SinkAnswer {
    switch (this.phase) {
      case 'stopped':
        return 'stop';
      case 'passing':
        return this.sink.crank(crank);
      case 'holding':
        return this.crankHolding(crank);
    }
  }

  /** End of input: everything held goes on (nothing after a stop). */
  end(): void {
    if (this.phase !== 'holding') return;
    this.restart = SETTLED;
    this.release(this.held.size);
  }

  /** Passing: the entry goes on; from the first commit on, cranks are held. */
  private entryPassing(entry: SlogEntry, line: number): SinkAnswer {
    const answer = this.sink.entry(entry, line);
    if (entry.type === 'cosmic-swingset-commit-block-finish') this.phase = 'holding';
    return answer;
  }

  /** A restart while passing: the cranks it abandoned have gone on. */
  private stop(): 'stop' {
    this.phase = 'stopped';
    return 'stop';
  }

  /** Holding, a second kernel start: the held cranks wait for the restart's first crank (a restart already waiting keeps its place). */
  private restartBegins(): void {
    if (this.restart.state === 'holding') return;
    this.restart = this.held.cranks > 0 ? { state: 'holding', before: this.held.size } : UNHELD;
  }

  /** Holding, an entry outside cranks: held behind a held crank (to keep the order), else on at once. */
  private entryHolding(entry: SlogEntry, line: number): SinkAnswer {
    if (this.restart.state !== 'holding' && this.held.cranks === 0) {
      // Nothing held to keep it behind (whatever is held is entries too).
      this.release(this.held.size);
      this.pass({ entry, line });
      return this.answer;
    }
    this.held.push({ entry, line });
    if (this.restart.state === 'holding') {
      if (this.held.entries > MAX_HELD_ENTRIES) this.giveUpRestart();
    } else if (entry.type === 'cosmic-swingset-commit-block-finish') {
      this.release(this.held.size);
    } else {
      this.trim();
    }
    return this.answer;
  }

  /** Holding, a crank: the first after a restart settles it; then it is held. */
  private crankHolding(crank: Crank): SinkAnswer {
    this.heldAny = true;
    const restart = this.restart;
    this.restart = SETTLED;
    if (restart.state === 'holding') this.settleRestart(crank, restart.before);
    else if (restart.state === 'unheld') this.ranAgainFrom(crank);
    this.held.push({ crank });
    this.trim();
    return this.answer;
  }

  /**
   * Where the kernel ran again from, told by the first crank after a
   * restart (Infinity: nothing ran again); the cranks from there on that
   * went on early are counted as counted twice.
   */
  private ranAgainFrom(first: Crank): number {
    const from = first.again ? first.crankNum : Infinity;
    if (from <= this.releasedEarly) this.mayCountTwice += this.releasedEarly - from + 1;
    return from;
  }

  /** The first crank after a restart: of the `before` items held from before it, cranks numbered from its number on were abandoned. */
  private settleRestart(first: Crank, before: number): void {
    const from = this.ranAgainFrom(first);
    const held = this.held.takeAll();
    held.forEach((h, i) => {
      if (h.crank && i < before && h.crank.crankNum >= from) {
        this.abandonedCount += 1;
        this.sink.abandoned?.(h.crank);
      } else this.pass(h);
    });
  }

  /** Over a bound, the oldest held go on as committed. */
  private trim(): void {
    const n = this.held.overBounds(this.chain ? MAX_HELD_BETWEEN_COMMITS : MAX_HELD_UNCOMMITTED);
    if (n > 0) this.releaseEarly(n);
  }

  /**
   * A restart still waits for its first crank and too much came after it
   * (MAX_HELD_ENTRIES): everything held goes on as committed, and the first
   * crank after the restart says how many of them may be counted twice.
   */
  private giveUpRestart(): void {
    this.restart = UNHELD;
    this.releaseEarly(this.held.size);
  }

  /** Hands on the first `n` held before their commit (a bound): a restart may yet run some of them again. */
  private releaseEarly(n: number): void {
    this.releasedEarly = Math.max(this.releasedEarly, this.held.highestCrank(n));
    this.release(n);
  }

  /** Hands on the first `n` held. */
  private release(n: number): void {
    this.held.shift(n, (h) => this.pass(h));
  }

  private pass(h: Held): void {
    const answer = h.crank ? this.sink.crank(h.crank) : this.sink.entry(h.entry as SlogEntry, h.line as number);
    if (answer === 'stop') this.answer = 'stop';
  }
}
